import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// The committed login logs under `Fixtures/` that the `replay` goldens are made from.
///
/// `RECORD_REPLAY_FIXTURES=1 swift test --filter LoginFixtureTests` rewrites them from a fresh
/// recording (then re-record the goldens with `RECORD_GOLDENS=1`).
@MainActor
struct LoginFixtureTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_REPLAY_FIXTURES"] == "1"

  @Test func committedLoginLogIsWhatTheRecorderWritesToday() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("login.jsonl")
    let store = LoginSessions.failOnceThenSucceed()
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 4))
    await LoginSessions.typeFailOnceThenSucceed(into: store)
    await recorder.close()
    let fresh = try folder.lines(of: url)
    #expect(fresh.count == 12)

    if Self.isRecording { try Self.writeFixtures(from: fresh) }
    let committed = try folder.lines(
      of: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"))
    #expect(LogLines.withoutVolatileFields(committed) == LogLines.withoutVolatileFields(fresh))
  }

  @Test func truncatedAndDivergentLogsDeriveFromTheGoodOne() throws {
    let folder = try TemporaryFolder()
    let good = try folder.lines(of: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"))
    let truncated = try Data(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login-truncated.jsonl"))
    let divergent = try folder.lines(
      of: ReplayProcess.fixtures.appendingPathComponent("login-divergent.jsonl"))
    let betweenCheckpoints = try folder.lines(
      of: ReplayProcess.fixtures.appendingPathComponent("login-divergent-step3.jsonl"))
    #expect(truncated == Self.truncated(good))
    #expect(divergent == Self.divergent(good))
    #expect(betweenCheckpoints == Self.divergentBetweenCheckpoints(good))
  }

  /// The good log without its `closed` marker, its last transition cut in the middle.
  static func truncated(_ good: [String]) -> Data {
    var lines = Array(good.dropLast())
    let last = lines.removeLast()
    return Data((lines.joined(separator: "\n") + "\n" + last.prefix(last.count / 2)).utf8)
  }

  /// The good log with step 3's password one character longer than recorded: step 3 has no
  /// checkpoint, so the divergence is shown against the state its patch rebuilds.
  static func divergentBetweenCheckpoints(_ good: [String]) -> [String] {
    var lines = good
    lines[3] = lines[3].replacingOccurrences(
      of: #"{"edit":{"_0":{"field":"password","value":"A"}}}"#,
      with: #"{"edit":{"_0":{"field":"password","value":"Aa"}}}"#)
    return lines
  }

  /// The good log with step 4's password one character shorter than recorded: its
  /// checkpoint no longer matches, as if the reducer had changed since the recording.
  static func divergent(_ good: [String]) -> [String] {
    var lines = good
    lines[4] = lines[4].replacingOccurrences(
      of: #"{"edit":{"_0":{"field":"password","value":"Aaaa0a"}}}"#,
      with: #"{"edit":{"_0":{"field":"password","value":"Aaaa0"}}}"#)
    return lines
  }

  static func writeFixtures(from good: [String]) throws {
    let folder = ReplayProcess.fixtures
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data((good.joined(separator: "\n") + "\n").utf8)
      .write(to: folder.appendingPathComponent("login.jsonl"))
    try truncated(good).write(to: folder.appendingPathComponent("login-truncated.jsonl"))
    try Data((divergent(good).joined(separator: "\n") + "\n").utf8)
      .write(to: folder.appendingPathComponent("login-divergent.jsonl"))
    try Data((divergentBetweenCheckpoints(good).joined(separator: "\n") + "\n").utf8)
      .write(to: folder.appendingPathComponent("login-divergent-step3.jsonl"))
  }
}
