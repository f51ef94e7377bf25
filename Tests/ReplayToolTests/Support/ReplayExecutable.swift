import Foundation
import Testing

/// What one run of the built `replay` executable printed, and how it exited.
struct ToolRun: Equatable, CustomStringConvertible {
  var status: Int32
  var stdout: String
  var stderr: String

  var description: String {
    "exit status: \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)"
  }
}

/// Runs the `replay` executable that `swift build` / `swift test` built next to the tests.
enum ReplayExecutable {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The committed fixture logs.
  static let fixtures = packageRoot.appendingPathComponent("Tests/ActionLogTests/Fixtures")

  /// The built executable: next to the test binary, else in `.build/debug`.
  static func executable() throws -> URL {
    var candidates: [URL] = []
    if let testBinary = Bundle.main.executableURL {
      candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent("replay"))
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/replay"))
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    Issue.record(
      """
      The replay executable is not built. Looked at:
      \(candidates.map { "  " + $0.path }.joined(separator: "\n"))
      Run `swift build` (or `swift build --build-tests`) first.
      """)
    throw CocoaError(.fileNoSuchFile)
  }

  /// Runs `replay arguments…` in `directory`, with `NO_COLOR` unset.
  ///
  /// The wait happens on a thread of its own, never on the caller's: a test on the main actor
  /// must not hold it while a process runs (other tests' stores need it meanwhile).
  static func run(_ arguments: [String], in directory: URL = fixtures) async throws -> ToolRun {
    let executable = try executable()
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { try runBlocking(executable, arguments, in: directory) })
      }
    }
  }

  private static func runBlocking(
    _ executable: URL, _ arguments: [String], in directory: URL
  ) throws -> ToolRun {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = nil
    process.environment = environment
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
    process.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    return ToolRun(
      status: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
  }
}

/// A folder of its own under the temporary directory, removed with the value.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ReplayToolTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// Writes `lines`, each followed by a newline.
  @discardableResult
  func write(_ name: String, lines: [String]) throws -> URL {
    let url = file(name)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    return url
  }

  /// The names in the folder, sorted (hidden ones too).
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
