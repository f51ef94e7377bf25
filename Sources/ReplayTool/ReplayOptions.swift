import ActionLog

/// What the command line asked for.
struct ReplayOptions: Equatable {
  /// The log to read.
  var file = ""
  /// Check every step's state and effects against the recording.
  var verify = false
  /// Stop after this step and print the full state.
  var until: Int?
  /// Print the final state only.
  var stateOnly = false
  /// Print a regression test instead of replaying.
  var emitTest = false
  /// Write the timeline as one self-contained HTML page at this path.
  var html: String?
  /// Follow the log or folder as it is written, until Ctrl-C.
  var follow = false
  /// Serve the timeline on loopback as the log is written, until Ctrl-C.
  var serve = false
  /// The port `--serve` listens on; one the system chooses when `nil`.
  var port: UInt16?
  /// Print the usage text.
  var help = false
  /// The name the command calls itself in messages.
  var tool = "replay"

  /// Every option `parse(_:tool:)` takes, in the order the usage text lists them: one table
  /// parses them, words their errors and lists them in the help (``OptionTable``).
  static let table = OptionTable([
    .init(
      "--verify",
      help: [
        "check every step's state and effects against the recording; prints a",
        "summary, or the first divergence with its diff and exits with status 1",
      ]),
    .init(
      "--until", value: "N", needs: "a step number",
      help: ["stop after step N and print the full state at that step"]),
    .init("--state", help: ["print the final state only (with --until: the state at step N)"]),
    .init(
      "--emit-test",
      help: [
        "print a Swift Testing regression test that replays FILE and snapshots",
        "its final state (put FILE next to the test file); the whole",
        "log is replayed and verified first",
      ]),
    .init(
      "--html", value: "OUT", needs: "an output path: the page to write", kind: .path,
      help: [
        "write the timeline to OUT as one self-contained HTML page that opens",
        "from disk with no network: the step list with a filter and a slider,",
        "each step's state tree, diff, effects and screen, the first",
        "divergence marked in red; for a flight recorder's folder (DIR),",
        "one page across its segments, each launch marked",
      ]),
    .init(
      "--follow",
      help: [
        "print every step so far, then each new one as the app writes it,",
        "verified as it goes, until Ctrl-C; says when the recording ends or",
        "stops and when a new recording or launch begins (DIR: a flight",
        "recorder's folder, followed across its segments)",
      ]),
    .init(
      "--serve",
      help: [
        "serve the timeline page on 127.0.0.1 as the app writes the log or",
        "folder, verified as it is read, until Ctrl-C: prints the address to",
        "open (it holds this run's secret token); an open page shows new",
        "steps as they are written",
      ]),
    .init(
      "--port", value: "N", needs: "a port number",
      help: ["with --serve: listen on port N (default: one the system chooses)"]),
    .init("--help", short: "-h", help: ["this text"]),
  ])

  /// The long options, in the order the usage text lists them.
  static var optionNames: [String] { table.names }

  static func usage(tool: String, features: [String]) -> String {
    """
    usage: \(tool) [--verify] [--until N] [--state] FILE
           \(tool) --html OUT.html [--verify] FILE|DIR
           \(tool) --follow FILE|DIR
           \(tool) --serve [--port N] FILE|DIR
           \(tool) --emit-test FILE
           \(tool) --help

    Replays a LoginStore action log through the feature's reducer, without running any
    effect, and shows what every step did. The feature is the one named in the log's
    header; this build knows: \(features.joined(separator: ", ")).

    With no option, prints the timeline: one entry per step with its sequence number, its
    origin (user or effect), the action, the state diff and the effects the reducer returned.

    \(table.help(indent: 2, column: 14))

    Warnings (a truncated last line, dropped transitions, a stopped recording) go to
    standard error and do not change the exit status. A log with no steps (only its header)
    is no error: standard error says so, and the exit status is 0. Colours only on a
    terminal, and never when NO_COLOR is set.

    --html always verifies. It writes the page even when the log diverges (the first
    divergent step is marked; exit status 1 only with --verify) or has a bad line (the page
    shows every step before it and says what is wrong; exit status 2). OUT must be new, an
    HTML file (replaced whole) or a device; a symbolic link or any other file is refused.
    The page is readable by its owner only (0600); logs over 64 MiB are refused (a page of
    them is more than a browser opens).

    --serve prints the address to open and serves the page until Ctrl-C (then exit status
    0). It answers this machine only (127.0.0.1), and only requests that carry the token in
    that address. The page is made again from the whole log, verified, whenever the log
    changes, and an open page shows the new steps; logs over 64 MiB stop being shown.

    Exit status: 0 success, 1 divergence under --verify or a write error, 2 bad usage or
    bad input.
    """
  }

  /// Parses the arguments after the program name.
  ///
  /// - Throws: ``ReplayFailure`` with exit status 2 and a one-line reason.
  static func parse(
    _ arguments: [String], tool: String = "replay"
  ) throws(ReplayFailure) -> ReplayOptions {
    var options = ReplayOptions()
    options.tool = tool
    let parsed: OptionTable.Parsed
    do {
      parsed = try table.parse(arguments)
    } catch {
      throw .usage(error.message(known: table.names, seeHelp: "see \(tool) --help"))
    }
    options.help = parsed.has("--help")
    options.verify = parsed.has("--verify")
    options.stateOnly = parsed.has("--state")
    options.emitTest = parsed.has("--emit-test")
    options.follow = parsed.has("--follow")
    options.serve = parsed.has("--serve")
    if let value = parsed.value(of: "--port") {
      guard let port = UInt16(value), port > 0 else {
        throw .usage("--port needs a port number from 1 to 65535, not \(Sanitized.name(value))")
      }
      options.port = port
    }
    // The table refuses an empty path.
    options.html = parsed.value(of: "--html")
    if let value = parsed.value(of: "--until") {
      guard let step = Int(value), step >= 1 else {
        throw .usage("--until needs a step number of at least 1, not \(Sanitized.name(value))")
      }
      options.until = step
    }
    let files = parsed.arguments
    if options.help { return options }
    if options.emitTest, options.verify || options.stateOnly || options.until != nil {
      throw .usage("--emit-test cannot be combined with --verify, --until or --state")
    }
    if options.html != nil, options.emitTest || options.stateOnly || options.until != nil {
      throw .usage("--html cannot be combined with --emit-test, --until or --state")
    }
    if options.follow,
      options.html != nil || options.emitTest || options.stateOnly || options.until != nil
    {
      throw .usage("--follow cannot be combined with --html, --emit-test, --until or --state")
    }
    if options.serve,
      options.follow || options.html != nil || options.emitTest || options.stateOnly
        || options.until != nil || options.verify
    {
      throw .usage(
        "--serve cannot be combined with --follow, --html, --emit-test, --until, --state or "
          + "--verify (it always verifies)")
    }
    if options.port != nil, !options.serve {
      throw .usage("--port goes with --serve")
    }
    guard let file = files.first else {
      throw .usage("missing FILE: the action log to replay (see \(tool) --help)")
    }
    guard !file.isEmpty else {
      // Worded as the table words an empty path option: `--follow ''` waited for ever.
      throw .usage(
        OptionTable.Failure.emptyPath(option: "FILE").message(
          known: table.names, seeHelp: "see \(tool) --help"))
    }
    guard files.count == 1 else {
      throw .usage("unexpected argument \(Sanitized.name(files[1])): \(tool) reads one FILE")
    }
    options.file = file
    return options
  }
}
