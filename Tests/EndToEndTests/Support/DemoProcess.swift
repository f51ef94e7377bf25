import Foundation
import Testing

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
    let bundle = Bundle.main.bundleURL
    let candidates = [
      bundle.appendingPathComponent(tool),
      bundle.deletingLastPathComponent().appendingPathComponent(tool),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent(tool),
      packageRoot.appendingPathComponent(".build/debug/\(tool)"),
    ]
    if let found = candidates.first(where: {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }) {
      return found
    }
    throw DemoProcessError(
      "\(tool) is not built; run `swift build --product \(tool)` first. Looked in:\n"
        + candidates.map { "  " + $0.path }.joined(separator: "\n"))
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
  /// - Returns: What it printed and its exit status.
  static func run(
    _ arguments: [String],
    tool: String = "login-demo",
    stdin: URL? = nil,
    stdout: FileHandle? = nil,
    timeout: TimeInterval = 60
  ) async throws -> Output {
    let executable = try executable(tool)
    let input = try FileHandle(forReadingFrom: stdin ?? URL(fileURLWithPath: "/dev/null"))
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        do {
          continuation.resume(
            returning: try runBlocking(
              executable, arguments, input: input, output: stdout, timeout: timeout))
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
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
    let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        do {
          continuation.resume(
            returning: try runBlocking(program, arguments, input: input, timeout: timeout))
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }

  private static func runBlocking(
    _ executable: URL,
    _ arguments: [String],
    input: FileHandle,
    output: FileHandle? = nil,
    timeout: TimeInterval
  ) throws -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = input
    let stdoutPipe = Pipe()
    let stderrPipe = Pipe()
    process.standardOutput = output ?? stdoutPipe
    process.standardError = stderrPipe
    try process.run()
    if output != nil { try? stdoutPipe.fileHandleForWriting.close() }
    let pid = process.processIdentifier
    let deadline = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
    let errorData = Locked(Data())
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errorData.set(stderrPipe.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
    let outputData = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    deadline.cancel()
    try? input.close()
    return Output(
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData.get(), as: UTF8.self),
      status: process.terminationStatus
    )
  }
}

/// A problem running the executable (not a failed expectation).
struct DemoProcessError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// A value shared between threads behind a lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func get() -> Value { lock.withLock { value } }
  func set(_ newValue: Value) { lock.withLock { value = newValue } }
}
