import Foundation

/// What one run of the built `replay` executable printed, and how it exited.
package struct ToolRun: Equatable, CustomStringConvertible {
  package var status: Int32
  package var stdout: String
  package var stderr: String

  /// A run with this status and output.
  package init(status: Int32, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }

  /// The golden-file form: the exit status, then both outputs.
  package var description: String {
    "exit status: \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
  }
}

/// Runs the `replay` executable that `swift build` / `swift test` built next to the tests; the
/// one process runner of the action-log and replay-tool tests.
package enum ReplayProcess {
  /// The package's folder.
  package static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // ToolTestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// The committed fixture logs.
  package static let fixtures = packageRoot.appendingPathComponent(
    "Tests/ActionLogTests/Fixtures")

  /// The built executable: next to the test binary, else in `.build/debug`.
  ///
  /// - Throws: ``ProcessRunner/NotBuilt``, saying where it looked.
  package static func executable() throws -> URL {
    try ProcessRunner.builtProduct("replay")
  }

  /// The run did not end in time: the process was killed (`SIGKILL`), and this is what it had
  /// printed by then.
  package struct TimedOut: Error, CustomStringConvertible {
    package var arguments: [String]
    package var timeout: Duration
    package var stdout: String
    package var stderr: String
    /// How long the process ran before it was killed (see ``ProcessRunner/Result/elapsed``).
    package var elapsed: Duration

    package var description: String {
      """
      replay \(arguments.joined(separator: " ")) did not end within \(timeout) and was killed.
      --- stdout so far
      \(stdout)--- stderr so far
      \(stderr)
      """
    }
  }

  /// Runs `replay arguments…` in `directory`, with `NO_COLOR` unset unless given, and returns
  /// what it printed.
  ///
  /// The wait happens on a thread of its own, never on the caller's: a blocking wait on the
  /// cooperative pool (or the main actor) starves every other test on a two-core machine.
  ///
  /// - Parameter timeout: How long the run may take: a `replay` that hangs is then killed
  ///   with `SIGKILL` and the run throws ``TimedOut``, instead of hanging the suite.
  /// - Throws: ``TimedOut``, ``NotBuilt``, or what starting the process throws.
  package static func run(
    _ arguments: [String], in directory: URL = fixtures, environment: [String: String] = [:],
    timeout: Duration = .seconds(120)
  ) async throws -> ToolRun {
    var merged = ProcessInfo.processInfo.environment
    merged["NO_COLOR"] = nil
    merged.merge(environment) { $1 }
    let result = try await ProcessRunner.run(
      try executable(), arguments, in: directory, environment: merged, timeout: timeout)
    if result.timedOut {
      throw TimedOut(
        arguments: arguments, timeout: timeout, stdout: result.stdout, stderr: result.stderr,
        elapsed: result.elapsed)
    }
    return ToolRun(status: result.status, stdout: result.stdout, stderr: result.stderr)
  }
}
