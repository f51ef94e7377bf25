import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// The recorder never writes a line the reader refuses: a step whose line would pass the
/// reader's limit ends the recording with a `stopped` marker, so every step before it still
/// replays.
@MainActor
struct RecorderLineLimitTests {
  /// The case from the issue: a 17 MiB username, past the reader's default 16 MiB limit.
  @Test func aSeventeenMebibyteUsernameStopsTheRecordingInsteadOfBreakingTheLog() async throws {
    try await MemoryHeavyTests.shared.run { try await seventeenMebibyteUsername() }
  }

  private func seventeenMebibyteUsername() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("huge.jsonl")
    let errors = ErrorBox()
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(to: url, feature: LoginReducer.actionLogFeature) {
      errors.append($0)
    }
    store.send(.edit(.set(\.username, to: "demo")))
    store.send(
      .edit(.set(\.username, to: PersonalData(String(repeating: "a", count: 17 * 1024 * 1024)))))
    store.send(.edit(.set(\.username, to: "demo")))
    await recorder.close()

    let limit = ActionLogReadOptions.defaultMaximumLineLength
    let reason =
      "a step's line would have been longer than the limit of \(limit) bytes a reader accepts"
    let result = try Replayer(reducer: LoginReducer()).replay(url, verify: true)
    #expect(result.stepCount == 1)
    #expect(result.finalState.username == "demo")
    #expect(result.warnings == [.recordingStopped(line: 3, reason: reason)])
    #expect(errors.values == [.recordingStopped(line: 3, reason: reason)])
    #expect(!recorder.isRecording)
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    #expect(size < 4096)
  }

  @Test func theLimitCanBeLowered() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("limited.jsonl")
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 0, maximumLineLength: 2_000))
    store.send(.edit(.set(\.username, to: "demo")))
    store.send(.edit(.set(\.username, to: "ok")))
    store.send(.edit(.set(\.username, to: PersonalData(String(repeating: "b", count: 2_000)))))
    await recorder.close()

    let options = ActionLogReadOptions(maximumLineLength: 2_000)
    let result = try Replayer(reducer: LoginReducer()).replay(url, options: options)
    #expect(result.stepCount == 2)
    #expect(
      result.warnings.map(\.description) == [
        "line 4: recording stopped here: a step's line would have been longer than the limit "
          + "of 2000 bytes a reader accepts"
      ])
  }

  @Test func aHeaderOverTheLimitIsReportedAndNothingIsWritten() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("header.jsonl")
    let errors = ErrorBox()
    let store = Store(
      initialState: LoginState(username: PersonalData(String(repeating: "c", count: 3_000))),
      reducer: LoginReducer())
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(maximumLineLength: 2_000)
    ) { errors.append($0) }
    store.send(.edit(.set(\.username, to: "demo")))
    await recorder.close()
    #expect(
      errors.values == [
        .recordingStopped(
          line: 1,
          reason: "the header would have been longer than the limit of 2000 bytes a reader "
            + "accepts; nothing was recorded")
      ])
    #expect(try Data(contentsOf: url).isEmpty)
  }
}
