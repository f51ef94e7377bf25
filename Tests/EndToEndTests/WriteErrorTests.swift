import Foundation
import Testing
import ToolTestSupport

/// `replay` and `login-demo` with standard output on `/dev/full`, where every write fails with
/// ENOSPC: each says `write error: …` on standard error and exits with status 1 instead of
/// reporting success with nothing written.
struct WriteErrorTests {
  static let log = DemoProcess.packageRoot
    .appendingPathComponent("Tests/ActionLogTests/Fixtures/login.jsonl").path

  static let message = "write error: No space left on device\n"

  @Test(arguments: [
    ["--emit-test", log],
    [log],
    ["--verify", log],
    ["--state", log],
    ["--help"],
  ])
  func replayReportsAFullDisk(_ arguments: [String]) async throws {
    let output = try await DemoProcess.run(arguments, tool: "replay", stdout: try Self.full())
    #expect(output.status == 1)
    #expect(output.stderr == "replay: " + Self.message)
  }

  /// Steps printed (and not written) before a bad line: both are said, and the status is the
  /// bad input's.
  @Test func replayStillReportsBadInputWithItsOwnStatus() async throws {
    let folder = try TemporaryFolder()
    let lines = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n")
    let log = try folder.write("bad.jsonl", lines: lines.prefix(4).map(String.init) + ["not json"])
    let output = try await DemoProcess.run([log.path], tool: "replay", stdout: try Self.full())
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("replay: write error: No space left on device\n"))
    #expect(output.stderr.hasSuffix("replay: line 5: malformed: not valid JSON\n"))
  }

  @Test func loginDemoScriptReportsAFullDisk() async throws {
    let script = DemoProcess.scriptsFolder.appendingPathComponent("success-logout.script")
    let output = try await DemoProcess.run(
      ["--script", script.path], stdout: try Self.full())
    #expect(output.status == 1)
    #expect(output.stderr == "login-demo: " + Self.message)
  }

  @Test func loginDemoScriptOnStdinReportsAFullDisk() async throws {
    let script = DemoProcess.scriptsFolder.appendingPathComponent("wrong-password.script")
    let output = try await DemoProcess.run([], stdin: script, stdout: try Self.full())
    #expect(output.status == 1)
    #expect(output.stderr == "login-demo: " + Self.message)
  }

  @Test func loginDemoHelpReportsAFullDisk() async throws {
    let output = try await DemoProcess.run(["--help"], stdout: try Self.full())
    #expect(output.status == 1)
    #expect(output.stderr == "login-demo: " + Self.message)
  }

  /// A recording that cannot be written: said at once on standard error, the script goes on,
  /// and the exit status is 1.
  @Test func loginDemoScriptReportsARecordingThatStopped() async throws {
    let script = DemoProcess.scriptsFolder.appendingPathComponent("success-logout.script")
    let output = try await DemoProcess.run(["--record", "/dev/full", "--script", script.path])
    #expect(output.status == 1)
    #expect(
      output.stderr
        == "login-demo: recording stopped: I/O error: cannot write 'full': "
        + "No space left on device\n")
    #expect(output.stdout.contains("Hello Demo User"))
  }

  private static func full() throws -> FileHandle {
    guard let handle = FileHandle(forWritingAtPath: "/dev/full") else {
      throw DemoProcessError("cannot open /dev/full for writing")
    }
    return handle
  }
}
