// login-demo: the LoginStore login screen as a terminal app. See HelpText.swift for usage.
import LoginFeature
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func exitWithFailure(_ failure: DemoFailure) -> Never {
  fflush(nil)
  _ = WriteAll.write("login-demo: \(failure.message)\n", to: STDERR_FILENO)
  exit(failure.exitCode)
}

let options: DemoOptions
do {
  options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  exitWithFailure(DemoFailure(error))
}

var status: Int32 = 0
do throws(DemoFailure) {
  if options.showsHelp {
    try StandardOutput.write(HelpText.text)
  } else if options.scriptPath == nil, isatty(STDIN_FILENO) == 1 {
    let app = try await InteractiveApp(options: options)
    status = try await app.run()
    // The terminal is restored: what the full screen showed is said where it stays.
    for warning in app.recordingWarnings {
      _ = WriteAll.write("login-demo: \(warning)\n", to: STDERR_FILENO)
    }
    if let failure = app.recordingFailure { throw DemoFailure(failure) }
  } else {
    let script = try ScriptSource(path: options.scriptPath)
    let runner = try await ScriptRunner(options: options, write: StandardOutput.write)
    try await runner.run(script)
    // Already said on standard error when it happened.
    if runner.recordingFailure != nil { status = 1 }
  }
} catch {
  exitWithFailure(error)
}
fflush(nil)
exit(status)
