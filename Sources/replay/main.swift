import Foundation

// `replay FILE`: shows, replays and verifies a recorded action log. See ReplayOptions.usage.
let terminal = Terminal.standard()
do {
  let options = try ReplayOptions.parse(Array(CommandLine.arguments.dropFirst()))
  if options.help {
    print(ReplayOptions.usage)
    exit(0)
  }
  try ReplayCommand(options: options, terminal: terminal).run()
} catch {
  if let details = error.details { terminal.print(details) }
  terminal.error(error.message)
  exit(error.exitStatus)
}
