import ActionLog
import Dispatch
import Foundation
import StateStore
import Testing
import ToolTestSupport

@MainActor
struct ActionLogRecorderTests {
  @Test func replayReproducesEveryStepOfARecordedSession() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("session.jsonl")
    let store = Store(initialState: Counter.State(), reducer: Counter(), handler: CounterHandler())
    var live: [Transition<Counter.State, Counter.Action, Counter.Effect>] = []
    let observer = store.observeTransitions { live.append($0) }
    let recorder = try store.record(
      to: url, feature: "counter", options: RecordingOptions(checkpointInterval: 2))
    store.send(.increment)
    store.send(.add(5))
    await store.send(.loadTapped).finish()
    store.send(.increment)
    await recorder.close()
    observer.cancel()

    let result = try Replayer(reducer: Counter()).replay(url, keepingSteps: true)
    #expect(result.steps.map(\.transition) == live)
    #expect(live.map(\.origin) == [.user, .user, .user, .effect, .user])
    #expect(result.finalState == Counter.State(count: 43, isLoading: false))
    #expect(result.stepCount == 5)
    #expect(result.warnings.isEmpty)
    #expect(result.header.feature == "counter")
    #expect(result.header.initialState == Counter.State())
  }

  @Test func linesFollowTheDocumentedFormatWithACheckpointEveryNTransitions() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("format.jsonl")
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(
      to: url, feature: "counter", options: RecordingOptions(checkpointInterval: 2))
    store.send(.increment)
    store.send(.add(2))
    store.send(.loadTapped)
    await recorder.close()

    let lines = try folder.lines(of: url)
    try #require(lines.count == 5, "\(lines)")
    #expect(
      lines[0].hasPrefix(
        #"{"format":"loginstore.actionlog","version":1,"feature":"counter","created":""#))
    #expect(
      lines[0].hasSuffix(#"","checkpointInterval":2,"initialState":{"count":0,"isLoading":false}}"#)
    )
    let one = try StateDigest.of(Counter.State(count: 1))
    let three = try StateDigest.of(Counter.State(count: 3))
    let loading = try StateDigest.of(Counter.State(count: 3, isLoading: true))
    #expect(
      Array(LogLines.withoutVolatileFields(lines).dropFirst()) == [
        #"{"seq":1,"time":…,"origin":"user","action":{"increment":{}},"effects":[],"digest":"\#(one)","#
          + #""patch":[{"at":["count"],"value":1}]}"#,
        #"{"seq":2,"time":…,"origin":"user","action":{"add":{"_0":2}},"effects":[],"digest":"\#(three)","#
          + #""checkpoint":{"count":3,"isLoading":false}}"#,
        #"{"seq":3,"time":…,"origin":"user","action":{"loadTapped":{}},"effects":[{"load":{}}],"#
          + #""digest":"\#(loading)","patch":[{"at":["isLoading"],"value":true}]}"#,
        #"{"kind":"closed"}"#,
      ])
  }

  @Test func digestIsFNV1aOfTheSortedKeyJSON() throws {
    // FNV-1a 64 of `{"count":0,"isLoading":false}`.
    #expect(
      try StateDigest.of(Counter.State())
        == StateDigest.hex(
          StateDigest.fnv1a(Data(#"{"count":0,"isLoading":false}"#.utf8))))
    #expect(StateDigest.fnv1a(Data()) == 0xcbf2_9ce4_8422_2325)
    #expect(StateDigest.hex(StateDigest.fnv1a(Data("a".utf8))) == "af63dc4c8601ec8c")
    #expect(StateDigest.hex(0xff) == "00000000000000ff")
  }

  @Test func passwordNeverReachesTheFileAndReplayRevalidatesItsMask() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("canary.jsonl")
    let canary = "Zq9#canary-7Xw"
    let store = Store(
      initialState: SignUpForm.State(), reducer: SignUpForm(), handler: SignUpHandler())
    let recorder = try store.record(to: url, feature: "sign-up")
    store.send(.edit(.set(\.username, to: "alice")))
    store.send(.edit(.set(\.password, to: "ab")))
    store.send(.submitTapped)
    store.send(.edit(.set(\.password, to: Secret(canary))))
    await store.send(.submitTapped).finish()
    await recorder.close()

    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(!text.contains(canary))
    #expect(!text.contains("canary"))
    #expect(text.contains(Secret.mask(of: canary)))
    let result = try Replayer(reducer: SignUpForm()).replay(url, keepingSteps: true)
    #expect(Dump.render(result.finalState) == Dump.render(store.state))
    #expect(result.finalState.greeting == "alice")
    #expect(
      result.steps[2].transition.stateAfter.errors == [
        "too short", "needs an uppercase letter and a digit",
      ])
    #expect(result.steps.map(\.transition.origin) == [.user, .user, .user, .user, .user, .effect])
  }

  @Test func maskingUsernamesKeepsThemOutOfTheFileAndStillVerifies() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("masked.jsonl")
    let store = Store(
      initialState: SignUpForm.State(), reducer: SignUpForm(), handler: SignUpHandler())
    let recorder = try store.record(
      to: url, feature: "sign-up", options: RecordingOptions(masksPersonalData: true))
    store.send(.edit(.set(\.username, to: "alice")))
    store.send(.edit(.set(\.password, to: "Secr3t!")))
    await store.send(.submitTapped).finish()
    await recorder.close()

    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(!text.contains("alice"))
    let result = try Replayer(reducer: SignUpForm()).replay(url)
    #expect(result.finalState.username == "aaaaa")
    #expect(result.finalState.greeting == "aaaaa")
  }

  @Test func sizeLimitEndsTheFileWithAStoppedMarker() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("limited.jsonl")
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(
      to: url, feature: "counter",
      options: RecordingOptions(checkpointInterval: 0, maximumFileSize: 600))
    for _ in 0..<50 { store.send(.increment) }
    await recorder.close()

    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
    #expect((size ?? .max) <= 600)
    let lines = try folder.lines(of: url)
    #expect(lines.last == #"{"kind":"stopped","reason":"maximumFileSize","limit":600}"#)
    #expect(!recorder.isRecording)
    let session = try Replayer(reducer: Counter()).steps(of: url)
    var count = 0
    while try session.next() != nil { count += 1 }
    #expect(count == lines.count - 2)
    #expect(session.state.count == count)
    #expect(
      session.warnings == [
        .recordingStopped(
          line: lines.count, reason: "the file reached its size limit of 600 bytes")
      ])
    #expect(
      session.warnings.map(\.description) == [
        "line \(lines.count): recording stopped here: the file reached its size limit of 600 bytes"
      ])
  }

  @Test func writeErrorIsReportedOnceAndRecordingStops() async throws {
    let errors = ErrorBox()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(
      to: URL(fileURLWithPath: "/dev/full"), feature: "counter"
    ) { errors.append($0) }
    for _ in 0..<20 { store.send(.increment) }
    await recorder.close()
    for _ in 0..<5 { store.send(.increment) }
    #expect(errors.values == [.ioError("cannot write 'full': No space left on device")])
    #expect(!recorder.isRecording)
    #expect(store.state.count == 25)
  }

  @Test func unwritableLocationFailsToStart() throws {
    let folder = try TemporaryFolder()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(throws: ActionLogError.ioError("cannot create 'x.jsonl': No such file or directory")) {
      _ = try store.record(to: folder.file("missing/x.jsonl"), feature: "counter")
    }
  }

  @Test func writerFallingBehindDropsTransitionsBehindAGapMarker() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("gap.jsonl")
    let gate = Gate()
    let store = Store(initialState: Gated.State(), reducer: Gated())
    // One byte: one transition fits when nothing waits; the blocked one is waiting.
    let recorder = try store.record(
      to: url, feature: "gated", options: RecordingOptions(checkpointInterval: 0, bufferSize: 1))
    store.send(.block(gate))
    try #require(await gate.writerEntered())  // the writer is stuck
    for _ in 0..<9 { store.send(.step) }  // dropped at once, none waits
    #expect(recorder.droppedTransitionCount == 9)
    gate.release.signal()
    await recorder.close()

    let lines = try folder.lines(of: url)
    let state = #"{"count":10}"#
    try #require(lines.count > 2, "\(lines)")
    #expect(lines[2] == #"{"kind":"gap","dropped":9,"state":\#(state)}"#)
    let result = try Replayer(reducer: Gated()).replay(url, keepingSteps: true)
    #expect(result.steps.map(\.sequenceNumber) == [1])
    #expect(result.finalState == Gated.State(count: 10))
    #expect(result.warnings == [.transitionsDropped(line: 3, count: 9)])
    #expect(
      result.warnings.map(\.description) == [
        "line 3: 9 transitions were dropped while recording (the writer fell behind); "
          + "replay resumes from the state recorded there"
      ])
  }
}

/// The errors a recorder reported, from whichever thread reported them.
final class ErrorBox: Sendable {
  private let errors = Guarded<[ActionLogError]>([])

  func append(_ error: ActionLogError) {
    errors.withLock { $0.append(error) }
  }

  var values: [ActionLogError] { errors.withLock { $0 } }
}

/// Blocks the writer while it encodes a `.block` action, so a test can fill the buffer.
final class Gate: Sendable {
  let entered = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)

  /// Whether the writer entered the gate within `seconds` of real time (a bound that only turns
  /// a hang into a failure). The semaphore is waited for on a thread of its own, never on the
  /// test's: a blocked main actor or cooperative thread holds back every test beside it.
  func writerEntered(within seconds: Int = 60) async -> Bool {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { [entered] in
        continuation.resume(
          returning: entered.wait(timeout: .now() + .seconds(seconds)) == .success)
      }
    }
  }
}

struct Gated: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    /// Padding that makes each state as large as a test needs (64 KiB for a heavy one).
    var payload: String?
  }

  /// A state of 64 KiB: a recorder's byte budget holds only a few of them.
  static let heavy = State(payload: String(repeating: "x", count: 64 << 10))

  enum Action: Codable, Sendable {
    case step
    case block(Gate)

    init(from decoder: any Decoder) throws {
      _ = try decoder.singleValueContainer().decode(String.self)
      self = .step
    }

    func encode(to encoder: any Encoder) throws {
      if case .block(let gate) = self {
        gate.entered.signal()
        gate.release.wait()
      }
      var container = encoder.singleValueContainer()
      try container.encode("step")
    }
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    state.count += 1
    return []
  }
}
