import Foundation
import Testing
import ToolTestSupport

/// Runs the built `login-demo` executable (or another of the package's tools) and collects what
/// it prints.
enum DemoProcess {
  /// What a run printed and how it ended.
  struct Output: Sendable {
    var stdout: String
    var stderr: String
    var status: Int32
  }

  /// The package's root folder, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // EndToEndTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// The folder of the golden scripts.
  static let scriptsFolder = packageRoot.appendingPathComponent("Tests/EndToEndTests/DemoScripts")

  /// The executable `tool` (`login-demo` by default) built next to the test bundle, or in
  /// `.build/debug`.
  ///
  /// - Parameter tool: The product's name, for example `replay`.
  /// - Throws: A message saying where it looked when there is none.
  static func executable(_ tool: String = "login-demo") throws -> URL {
    try ProcessRunner.builtProduct(tool)
  }

  /// Runs `login-demo arguments` (or `tool arguments`) with stdin read from `stdin` (never a
  /// terminal, so script mode), and waits for it to end — at most `timeout`, after which it is
  /// terminated.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments.
  ///   - tool: The executable product to run; `login-demo` by default.
  ///   - stdin: The file stdin reads; `/dev/null` when `nil`.
  ///   - stdout: Where stdout goes instead of being collected (`/dev/full`, say); its output
  ///     is then empty.
  ///   - timeout: How long the run may take.
  ///   - lowPriority: Runs it at the lowest scheduling priority, for a long CPU-bound run.
  /// - Returns: What it printed and its exit status.
  static func run(
    _ arguments: [String],
    tool: String = "login-demo",
    stdin: URL? = nil,
    stdout: FileHandle? = nil,
    timeout: TimeInterval = 60,
    lowPriority: Bool = false
  ) async throws -> Output {
    let result = try await ProcessRunner.run(
      try executable(tool), arguments, stdin: stdin, stdout: stdout,
      timeout: .milliseconds(Int64(timeout * 1_000)), lowPriority: lowPriority)
    return Output(stdout: result.stdout, stderr: result.stderr, status: result.status)
  }

  /// Runs any program the same way — `python3` and a script, say — with stdin from
  /// `/dev/null`.
  ///
  /// - Parameters:
  ///   - program: The executable.
  ///   - arguments: The command-line arguments.
  ///   - timeout: How long the run may take before it is killed.
  /// - Returns: What it printed and its exit status.
  static func run(
    program: URL, _ arguments: [String], timeout: TimeInterval
  ) async throws -> Output {
    let result = try await ProcessRunner.run(
      program, arguments, timeout: .milliseconds(Int64(timeout * 1_000)))
    return Output(stdout: result.stdout, stderr: result.stderr, status: result.status)
  }
}

/// A problem running the executable (not a failed expectation).
struct DemoProcessError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
