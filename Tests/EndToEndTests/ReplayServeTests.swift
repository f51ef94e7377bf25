import Foundation
import StateStore
import Testing
import ToolTestSupport

/// `replay --serve` while a real `login-demo` records: the printed address opens the page, the
/// page's endpoint reports the steps as they are recorded (and a recording made anew), the
/// token is needed, and SIGTERM ends it with exit status 0.
@Suite(.timeLimit(.minutes(2)))
struct ReplayServeTests {
  private static func demo(_ lines: [String], recording log: URL, in folder: URL) async throws {
    let script = folder.appendingPathComponent("s\(UUID().uuidString.prefix(8)).script")
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: script)
    let run = try await DemoProcess.run(["--script", script.path, "--record", log.path])
    #expect(run.status == 0, "login-demo: \(run.stderr)")
  }

  /// Asks `/steps` until it answers `count` steps (each ask is held up to a second by the
  /// server while nothing changes), for at most 20 s.
  private static func waitForSteps(
    _ count: Int, port: UInt16, token: String
  ) async throws -> Int {
    var known = -1
    for _ in 0..<40 {
      let answer = try await RawHTTPClient.get(port: port, "/steps?token=\(token)&known=\(known)")
      #expect(answer.status == 200, "\(answer)")
      let match = answer.body.firstMatch(of: /^\{"steps":(\d+)\}$/)
      known = match.flatMap { Int($0.output.1) } ?? -1
      if known == count { break }
    }
    return known
  }

  @Test func thePageAndItsStepsFollowALogAsLoginDemoRecordsIt() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("live.jsonl")
    let served = try ServedReplay(log)
    var stopped = false
    defer { if !stopped { kill(served.pid, SIGKILL) } }
    let signIn = ["type username demo", "type password Secr3t", "tap login", "wait"]
    try await Self.demo(signIn, recording: log, in: folder.url)
    let (port, token) = try await served.address(within: .seconds(20))

    #expect(try await Self.waitForSteps(7, port: port, token: token) == 7)
    let page = try await RawHTTPClient.get(port: port, "/?token=\(token)")
    #expect(page.status == 200)
    #expect(page.headers["content-type"] == "text/html; charset=utf-8")
    #expect(page.body.contains(#"<script type="application/json" id="timeline-data">"#))
    #expect(page.body.contains("connect-src 'self'"))
    #expect(page.body.contains(#""stepCount":7"#))
    #expect(!page.body.contains("Secr3t"), "the password is masked as in the log")
    #expect(!page.body.contains(token), "the page does not carry the token")
    let noToken = try await RawHTTPClient.get(port: port, "/")
    #expect(noToken.status == 403 && !noToken.body.contains("timeline"))

    // The app records the log again from the start: the page is made of the new recording.
    try await Self.demo(["type username grace"], recording: log, in: folder.url)
    #expect(try await Self.waitForSteps(3, port: port, token: token) == 3)
    let again = try await RawHTTPClient.get(port: port, "/?token=\(token)")
    #expect(again.body.contains(#""stepCount":3"#))

    let status = try await served.stop()
    stopped = true
    #expect(status == 0, "SIGTERM ends --serve with exit status 0")
    let printed = served.stdout.withLock { $0 }
    #expect(
      printed
        == "serving the timeline of '\(log.path)' at http://127.0.0.1:\(port)/?token=\(token)\n")
    let waiting = "replay: waiting for '\(log.path)' to be recorded (Ctrl-C to stop)\n"
    let errors = served.stderr.withLock { $0 }
    #expect(["", waiting].contains(errors), "\(errors)")
    #expect(!errors.contains(token))
  }
}

/// `replay --serve target` as a process: standard output as it arrives, and how it ended.
final class ServedReplay: Sendable {
  let pid: Int32
  let stdout = Guarded("")
  let stderr = Guarded("")
  let status = Guarded<Int32?>(nil)

  init(_ target: URL) throws {
    let process = Process()
    process.executableURL = try DemoProcess.executable("replay")
    process.arguments = ["--serve", target.path]
    process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let status = self.status
    process.terminationHandler = { ended in status.withLock { $0 = ended.terminationStatus } }
    try ProcessRunner.starting { try process.run() }
    pid = process.processIdentifier
    for (pipe, text) in [(out, stdout), (err, stderr)] {
      let handle = pipe.fileHandleForReading
      Thread.detachNewThread {
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
      }
    }
  }

  /// The port and token of the address it printed, once it has printed it.
  func address(within timeout: Duration) async throws -> (port: UInt16, token: String) {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      let printed = stdout.withLock { $0 }
      if let match = printed.firstMatch(
        of: /at http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]{64})\n/),
        let port = UInt16(match.output.1)
      {
        return (port, String(match.output.2))
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw DemoProcessError(
      "replay --serve printed no address within \(timeout): \(stdout.withLock { $0 }) "
        + stderr.withLock { $0 })
  }

  /// Stops it with SIGTERM and returns its exit status (killed after 10 s: then `nil`).
  func stop() async throws -> Int32? {
    kill(pid, SIGTERM)
    for _ in 0..<200 {
      if let ended = status.withLock({ $0 }) { return ended }
      try await Task.sleep(for: .milliseconds(50))
    }
    kill(pid, SIGKILL)
    return nil
  }
}
