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

  /// The built executable is missing: the message says where it was looked for.
  package struct NotBuilt: Error, CustomStringConvertible {
    package var description: String
  }

  /// The built executable: next to the test binary, else in `.build/debug`.
  package static func executable() throws -> URL {
    var candidates: [URL] = []
    if let testBinary = Bundle.main.executableURL {
      candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("replay"))
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/replay"))
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    throw NotBuilt(
      description: """
        The replay executable is not built. Looked at:
        \(candidates.map { "  " + $0.path }.joined(separator: "\n"))
        Run `swift build` (or `swift build --build-tests`) first.
        """)
  }

  /// The run did not end in time: the process was killed (`SIGKILL`), and this is what it had
  /// printed by then.
  package struct TimedOut: Error, CustomStringConvertible {
    package var arguments: [String]
    package var timeout: Duration
    package var stdout: String
    package var stderr: String

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
    let executable = try executable()
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result {
            try runBlocking(
              executable, arguments, in: directory, environment: environment, timeout: timeout)
          })
      }
    }
  }

  private static func runBlocking(
    _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String],
    timeout: Duration
  ) throws -> ToolRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var merged = ProcessInfo.processInfo.environment
    merged["NO_COLOR"] = nil
    merged.merge(environment) { $1 }
    process.environment = merged
    // Files, not pipes: a pipe fills up and blocks a tool that prints much before it exits.
    let folder = try TemporaryFolder()
    let out = folder.file("stdout")
    let err = folder.file("stderr")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    let outHandle = try FileHandle(forWritingTo: out)
    let errHandle = try FileHandle(forWritingTo: err)
    process.standardOutput = outHandle
    process.standardError = errHandle
    try process.run()
    let pid = process.processIdentifier
    let killed = DispatchSemaphore(value: 0)
    let deadline = DispatchWorkItem {
      kill(pid, SIGKILL)
      killed.signal()
    }
    let (seconds, attoseconds) = timeout.components
    DispatchQueue.global().asyncAfter(
      deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18, execute: deadline)
    process.waitUntilExit()
    deadline.cancel()
    try outHandle.close()
    try errHandle.close()
    let run = ToolRun(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    if killed.wait(timeout: .now()) == .success {
      throw TimedOut(
        arguments: arguments, timeout: timeout, stdout: run.stdout, stderr: run.stderr)
    }
    return run
  }
}
