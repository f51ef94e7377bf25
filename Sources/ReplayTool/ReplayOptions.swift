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
  /// Print the usage text.
  var help = false
  /// The name the command calls itself in messages.
  var tool = "replay"

  /// Every option `parse(_:tool:)` takes, in the order the usage text lists them: what an
  /// unknown option is matched against for a suggestion.
  static let optionNames = [
    "--verify", "--until", "--state", "--emit-test", "--html", "--follow", "--help",
  ]

  static func usage(tool: String, features: [String]) -> String {
    """
    usage: \(tool) [--verify] [--until N] [--state] FILE
           \(tool) --html OUT.html [--verify] FILE|DIR
           \(tool) --follow FILE|DIR
           \(tool) --emit-test FILE
           \(tool) --help

    Replays a LoginStore action log through the feature's reducer, without running any
    effect, and shows what every step did. The feature is the one named in the log's
    header; this build knows: \(features.joined(separator: ", ")).

    With no option, prints the timeline: one entry per step with its sequence number, its
    origin (user or effect), the action, the state diff and the effects the reducer returned.

      --verify      check every step's state and effects against the recording; prints a
                    summary, or the first divergence with its diff and exits with status 1
      --until N     stop after step N and print the full state at that step
      --state       print the final state only (with --until: the state at step N)
      --emit-test   print a Swift Testing regression test that replays FILE and snapshots
                    its final state (put FILE next to the test file); the whole
                    log is replayed and verified first
      --html OUT    write the timeline to OUT as one self-contained HTML page that opens
                    from disk with no network: the step list with a filter and a slider,
                    each step's state tree, diff, effects and screen, the first
                    divergence marked in red; for a flight recorder's folder (DIR),
                    one page across its segments, each launch marked
      --follow      print every step so far, then each new one as the app writes it,
                    verified as it goes, until Ctrl-C; says when the recording ends or
                    stops and when a new recording or launch begins (DIR: a flight
                    recorder's folder, followed across its segments)
      --help        this text

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
    var files: [String] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        files.append(argument)
        continue
      }
      let (name, inlineValue) = split(argument)
      switch name {
      case "--":
        optionsEnded = true
      case "--help", "-h":
        options.help = true
      case "--verify":
        options.verify = true
      case "--state":
        options.stateOnly = true
      case "--emit-test":
        options.emitTest = true
      case "--follow":
        options.follow = true
      case "--html":
        var value = inlineValue
        if value == nil, index < arguments.count, !arguments[index].hasPrefix("-") {
          value = arguments[index]
          index += 1
        }
        guard let value, !value.isEmpty else {
          throw .usage("--html needs an output path: the page to write (see \(tool) --help)")
        }
        options.html = value
      case "--until":
        var value = inlineValue
        if value == nil, index < arguments.count {
          value = arguments[index]
          index += 1
        }
        guard let value else {
          throw .usage("--until needs a step number (see \(tool) --help)")
        }
        guard let step = Int(value), step >= 1 else {
          throw .usage("--until needs a step number of at least 1, not \(Sanitized.name(value))")
        }
        options.until = step
      default:
        let suggestion = OptionSuggestion.nearest(to: name, in: optionNames).map {
          "; did you mean '\($0)'?"
        }
        throw .usage(
          "unknown option \(Sanitized.name(name))\(suggestion ?? "") (see \(tool) --help)")
      }
      if inlineValue != nil, name != "--until", name != "--html" {
        throw .usage("\(name) takes no value (see \(tool) --help)")
      }
    }
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
    guard let file = files.first else {
      throw .usage("missing FILE: the action log to replay (see \(tool) --help)")
    }
    guard files.count == 1 else {
      throw .usage("unexpected argument \(Sanitized.name(files[1])): \(tool) reads one FILE")
    }
    options.file = file
    return options
  }

  /// `--until=3` → ("--until", "3"); `--verify` → ("--verify", nil).
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
