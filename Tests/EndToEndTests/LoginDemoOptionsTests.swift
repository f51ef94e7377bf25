import ActionLog
import AppFeature
import Foundation
import LoginFeature
import Testing
import ToolTestSupport

/// `login-demo`'s command line and scripts where people trip: dates that do not exist, and
/// scripts saved with a byte order mark.
struct LoginDemoOptionsTests {
  @Test(
    arguments: [
      "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z", "0000-01-01T00:00:00Z",
      "10000-01-01T00:00:00Z", "2026-01-01T00:00:00+99:00", "2026-01-01T24:00:00Z",
      "2026-13-01T00:00:00Z", "2026-01-01T00:00:60Z", "2026-01-01 00:00:00Z", "tomorrow",
      "2026-01-01T00:00:00+14:01",
    ])
  func anImpossibleNowIsAUsageError(_ text: String) async throws {
    let run = try await DemoProcess.run(["--now", text])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "login-demo: --now must be a real date in the years 1 to 9999, like "
        + "2026-01-01T00:00:00Z or 2026-01-01T01:00:00+01:00, got '\(text)'\n")
  }

  /// A real date is the wall clock the launch reads: the `restored` action in the log carries
  /// exactly that instant.
  @Test func realDatesAndOffsetsAreTaken() async throws {
    let folder = try TemporaryFolder()
    let script = try folder.write("sign-in.script", lines: ["type username demo"])
    let cases: [(String, TimeInterval)] = [
      ("2024-02-29T23:59:59Z", 1_709_251_199), ("0001-01-01T00:00:00Z", -62_135_596_800),
      ("9999-12-31T23:59:59Z", 253_402_300_799), ("2026-01-01T01:00:00+01:00", 1_767_225_600),
      ("2026-01-01T00:00:00-14:00", 1_767_276_000),
    ]
    for (text, seconds) in cases {
      let log = folder.file("launch.jsonl")
      let run = try await DemoProcess.run(
        ["--now", text, "--script", script.path, "--record", log.path])
      #expect(run.status == 0, "\(text): \(run.stderr)")
      let result = try Replayer(reducer: AppReducer()).replay(
        log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
      #expect(
        result.steps.map(\.transition.action).contains(
          .login(.restored(LaunchRecord(), at: Date(timeIntervalSince1970: seconds)))),
        "\(text)")
    }
  }

  @Test func aScriptWithAByteOrderMarkRuns() async throws {
    let folder = try TemporaryFolder()
    let plain = try folder.write("plain.script", lines: ["type username demo", "tap login"])
    let marked = folder.file("marked.script")
    try Data("\u{FEFF}type username demo\ntap login\n".utf8).write(to: marked)
    let expected = try await DemoProcess.run(["--script", plain.path])
    let run = try await DemoProcess.run(["--script", marked.path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == expected.stdout)
  }

  /// `--record a --record b` used to write `b` alone, in silence: an option that takes one
  /// value is given once, and a second one is a usage error naming both values, before
  /// anything runs or is written. A URL's password is not echoed.
  @Test func anOptionGivenTwiceIsAUsageErrorNamingBothValues() async throws {
    let folder = try TemporaryFolder()
    let script = try folder.write("sign-in.script", lines: ["type username demo"])
    let first = folder.file("a.jsonl").path
    let second = folder.file("b.jsonl").path
    let run = try await DemoProcess.run(
      ["--script", script.path, "--record", first, "--record", second])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "login-demo: --record given twice ('\(first)', then '\(second)'); give it once "
        + "(see --help)\n")
    #expect(!FileManager.default.fileExists(atPath: first))
    #expect(!FileManager.default.fileExists(atPath: second))

    let api = try await DemoProcess.run(
      ["--api", "http://me:hunter2@127.0.0.1:9/", "--api=http://127.0.0.1:9/"])
    #expect(api.status == 2)
    #expect(
      api.stderr
        == "login-demo: --api given twice ('http://••••@127.0.0.1:9/', then "
        + "'http://127.0.0.1:9/'); give it once (see --help)\n")
  }
}
