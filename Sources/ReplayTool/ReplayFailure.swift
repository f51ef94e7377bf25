import ActionLog

/// Why the command stops early, and with which exit status.
///
/// The message is one line; `main` prints it on standard error as `replay: <message>`. A
/// divergence also has a diff, which goes to standard output.
struct ReplayFailure: Error {
  /// One line, without the `replay: ` prefix.
  var message: String
  /// 1 for a divergence under `--verify`, 2 for bad usage or bad input.
  var exitStatus: Int32
  /// Printed on standard output before exiting: the diff of a divergence.
  var details: String?

  /// Bad usage: exit status 2.
  static func usage(_ message: String) -> ReplayFailure {
    ReplayFailure(message: message, exitStatus: 2)
  }

  /// A log this build cannot replay: exit status 2.
  static func unknownFeature(_ feature: String, known: [String]) -> ReplayFailure {
    ReplayFailure(
      message: "unknown feature \(Sanitized.name(feature)) "
        + "(this build knows: \(known.joined(separator: ", ")))",
      exitStatus: 2)
  }

  /// An output path `--html` cannot or must not write to: exit status 2, nothing written.
  static func output(_ message: String) -> ReplayFailure {
    ReplayFailure(message: message, exitStatus: 2)
  }

  /// Writing the page failed part-way (a full disk, an I/O error): exit status 1.
  static func write(_ message: String) -> ReplayFailure {
    ReplayFailure(message: "write error: " + message, exitStatus: 1)
  }

  /// `--until N` past the last step: exit status 2. Said before any step is printed when the
  /// end of the log says where it ends (`--until 99: the log ends at step 10`); else after the
  /// timeline, which the message then says was all of it (`… (the timeline above is all of
  /// it)`).
  ///
  /// - Parameters:
  ///   - step: The `N` of `--until N`.
  ///   - last: The last step's number; `nil` or 0 for a log without steps.
  ///   - afterTimeline: Whether the whole timeline was printed before.
  static func stepNotReached(
    _ step: Int, last: Int?, afterTimeline: Bool = false
  ) -> ReplayFailure {
    let end =
      last.flatMap { $0 > 0 ? "the log ends at step \($0)" : nil } ?? "the log has no steps"
    let printed = afterTimeline ? " (the timeline above is all of it)" : ""
    return ReplayFailure(message: "--until \(step): \(end)\(printed)", exitStatus: 2)
  }

  /// The note on standard error for a log with a header and no steps; not a failure.
  static let noSteps = "the log has no steps: nothing was recorded after its header"

  /// An action-log error: a divergence found with verification exits with status 1 and its
  /// diff; anything else is bad input, status 2, first line only.
  static func log(_ error: ActionLogError) -> ReplayFailure {
    let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
    let headline = String(lines.first ?? "")
    if case .divergence = error {
      let diff = lines.dropFirst().joined(separator: "\n")
      return ReplayFailure(
        message: headline, exitStatus: 1, details: diff.isEmpty ? nil : diff)
    }
    return ReplayFailure(message: headline, exitStatus: 2)
  }
}
