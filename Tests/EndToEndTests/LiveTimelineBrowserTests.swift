import Foundation
import Testing
import ToolTestSupport

/// The page `replay --serve` serves, open in headless Chromium while its log grows: each step
/// written shows in the page, which keeps its filter and its selected step. Runs with
/// `LOGINSTORE_BROWSER_TESTS=required`, as the other browser checks do.
struct LiveTimelineBrowserTests {
  @Test(
    .enabled(
      if: TimelineBrowserTests.isRequested,
      "the browser check of the live timeline runs with LOGINSTORE_BROWSER_TESTS=required"),
    .timeLimit(.minutes(3)))
  func aStepWrittenToTheLogShowsInTheOpenPageKeepingItsFilterAndStep() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    // The login fixture: its header and first three steps now, seven more steps one by one.
    let fixture = try String(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8)
    let lines = fixture.split(separator: "\n").map { $0 + "\n" }
    let log = folder.file("live.jsonl")
    try Data(lines[0..<4].joined().utf8).write(to: log)
    let rest = folder.file("rest.jsonl")
    try Data(lines[4..<11].joined().utf8).write(to: rest)

    let served = try ServedReplay(log)
    defer { kill(served.pid, SIGKILL) }
    let (port, token) = try await served.address(within: .seconds(20))
    let python = try #require(
      FixtureServer.python3(),
      "python3 is needed to drive the browser (Python's standard library only)")
    let output = try await DemoProcess.run(
      program: python,
      [
        TimelineBrowserTests.driver.path, "--timeout", "120", "live",
        "http://127.0.0.1:\(port)/?token=\(token)", "--log", log.path, "--append", rest.path,
        "--filter", "username",
      ], timeout: 150)
    guard output.status == 0 else {
      Issue.record(
        Comment(
          rawValue: "The live browser check failed (exit status \(output.status)):\n"
            + output.stderr))
      return
    }
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    #expect(seen["before"] as? Int == 3)
    #expect(seen["after"] as? Int == 10, "every step written shows: \(seen)")
    #expect(seen["filter"] as? String == "username", "the filter is kept across new steps")
    #expect(seen["selected"] as? Int == 1, "the selected step is kept across new steps")
    #expect(seen["listInfo"] as? String == "6 of 10 steps match")
    #expect(seen["exceptions"] as? [String] == [], "no script error, no policy refusal")
  }
}
