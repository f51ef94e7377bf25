import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

@MainActor
struct ReplayerTests {
  /// Records increment, add(5), loadTapped, loaded(42) and returns the log.
  func recordSession(in folder: TemporaryFolder, checkpointInterval: Int) async throws -> URL {
    let url = folder.file("session-\(checkpointInterval).jsonl")
    let store = Store(initialState: Counter.State(), reducer: Counter(), handler: CounterHandler())
    let recorder = try store.record(
      to: url, feature: "counter",
      options: RecordingOptions(checkpointInterval: checkpointInterval))
    store.send(.increment)
    store.send(.add(5))
    await store.send(.loadTapped).finish()
    await recorder.close()
    return url
  }

  /// The diff of a divergence where the buggy counter replays 7 and the log recorded 6.
  static let sixAgainstSeven = """
    \u{2212} count: 6
    + count: 7
      … (1 unchanged)
    (recorded: \u{2212}, replayed: +)
    """

  @Test func checkpointDivergenceShowsTheStepTheActionAndTheDiff() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder, checkpointInterval: 1)
    let session = try Replayer(reducer: Counter(bug: 1)).steps(of: url)
    #expect(try session.next()?.sequenceNumber == 1)
    let expected = ActionLogError.divergence(
      step: 2, action: "add(5)",
      reason: "the replayed state differs from the recorded state",
      diff: Self.sixAgainstSeven)
    #expect(throws: expected) { try session.next() }
    #expect(throws: expected) { try session.next() }
    #expect(session.state.count == 7)
    #expect(session.stepCount == 1)
    #expect(
      expected.description == """
        step 2 (add(5)): the replayed state differs from the recorded state
        \u{2212} count: 6
        + count: 7
          … (1 unchanged)
        (recorded: \u{2212}, replayed: +)
        """)
  }

  /// Without a checkpoint anywhere, the step's patch rebuilds the recorded state, and the
  /// divergence shows it against the replayed one.
  @Test func aDigestDivergenceWithoutACheckpointIsShownAsADiff() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder, checkpointInterval: 0)
    #expect(
      throws: ActionLogError.divergence(
        step: 2, action: "add(5)",
        reason: "the replayed state differs from the recorded state",
        diff: Self.sixAgainstSeven)
    ) {
      try Replayer(reducer: Counter(bug: 1)).replay(url)
    }
  }

  /// A log recorded before steps had patches says so: the recorded state is unknown between
  /// checkpoints.
  @Test func aDigestDivergenceInALogWithoutPatchesSaysThereIsNothingToDiffAgainst() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder, checkpointInterval: 0)
    let lines = try folder.lines(of: url).map {
      $0.replacingOccurrences(of: #","patch":\[.*\]\}$"#, with: "}", options: .regularExpression)
    }
    #expect(!lines.joined().contains("patch"))
    let old = try folder.write("before-patches.jsonl", lines: lines)
    let recorded = try StateDigest.of(Counter.State(count: 6))
    let replayed = try StateDigest.of(Counter.State(count: 7))
    #expect(
      throws: ActionLogError.divergence(
        step: 2, action: "add(5)",
        reason: "the replayed state's digest \(replayed) differs from the recorded \(recorded) "
          + "(no checkpoint at this step to diff against)",
        diff: nil)
    ) {
      try Replayer(reducer: Counter(bug: 1)).replay(old)
    }
  }

  @Test func effectDivergence() async throws {
    let folder = try TemporaryFolder()
    let digest = try StateDigest.of(Counter.State(count: 0, isLoading: true))
    let url = try folder.write(
      "effects.jsonl",
      lines: [
        counterHeader,
        #"{"seq":1,"origin":"user","action":{"loadTapped":{}},"effects":[],"digest":"\#(digest)"}"#,
      ])
    #expect(
      throws: ActionLogError.divergence(
        step: 1, action: "loadTapped",
        reason: "the reducer returned other effects than recorded",
        diff:
          "\u{2212} []\n+ [\n+   [0]: {\n+     load: {}\n+   }\n+ ]\n(recorded: \u{2212}, replayed: +)"
      )
    ) {
      try Replayer(reducer: Counter()).replay(url)
    }
  }

  @Test func withoutVerificationADivergentReducerReplaysToTheEnd() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder, checkpointInterval: 1)
    let result = try Replayer(reducer: Counter(bug: 1)).replay(url, verify: false)
    #expect(result.stepCount == 4)
    #expect(result.finalState == Counter.State(count: 42, isLoading: false))
  }

  @Test func replayStopsAtTheRequestedStep() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder, checkpointInterval: 0)
    let result = try Replayer(reducer: Counter()).replay(url, through: 3, keepingSteps: true)
    #expect(result.stepCount == 3)
    #expect(result.finalState == Counter.State(count: 6, isLoading: true))
    let last = try #require(result.steps.last)
    #expect(last.transition.effects == [.load])
    #expect(last.recordedEffects == [.load])
    #expect(last.transition.stateBefore == Counter.State(count: 6))
    #expect(!last.isCheckpoint)
    #expect(!last.followsGap)
  }

  @Test func emittedRegressionTestReplaysTheLogAndSnapshotsTheFinalState() {
    let source = RegressionTestSource.make(
      logPath: "Logs/bug-42.jsonl", feature: "login", featureModule: "LoginFeature",
      reducer: "LoginReducer()")
    #expect(
      source == """
        import ActionLog
        import Foundation
        import LoginFeature
        import StateStoreTesting
        import Testing

        // SwiftPM warns about files in a test target that are not sources, and this test brings
        // two: the log "Logs/bug-42.jsonl", and the snapshot its first run records beside
        // this file (the test fails once, so the snapshot gets read; commit it), in
        //   __Snapshots__/<this file's name>/replayOfBug42MatchesSnapshot.txt
        // Exclude both from this test target in Package.swift (relative to the target's folder):
        //   exclude: ["Logs/bug-42.jsonl", "__Snapshots__"],
        // or keep the log outside the target and give its full path.
        @MainActor @Test func replayOfBug42MatchesSnapshot() throws {
          let log = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Logs/bug-42.jsonl")
          // Verified: every step's state must be the one the log recorded, and its effects too;
          // a step that differs fails with a diff of its fields, recorded against replayed.
          let result = try Replayer(reducer: LoginReducer())
            .replay(log, options: ActionLogReadOptions(expectedFeature: "login"))
          #expect(result.warnings.isEmpty)
          assertSnapshot(of: result.finalState)
        }

        """)
    let absolute = RegressionTestSource.make(
      logPath: "/tmp/a \"b\".jsonl", feature: "counter", featureModule: "Counter",
      reducer: "Counter()", testName: "counterLog", assertion: "#expect(result.stepCount == 3)")
    #expect(absolute.contains(#"  let log = URL(fileURLWithPath: "/tmp/a \"b\".jsonl")"#))
    #expect(absolute.contains("@MainActor @Test func counterLog() throws {"))
    #expect(!absolute.contains("exclude:"))
    #expect(absolute.contains("  #expect(result.stepCount == 3)\n}\n"))
    #expect(!absolute.contains("// SwiftPM"))
  }

  /// The comment says where each file the test brings goes: the snapshot even when the log is
  /// outside the target, and no snapshot for an assertion of the caller's own.
  @Test func emittedRegressionTestSaysWhereItsFilesGo() {
    let outside = RegressionTestSource.make(
      logPath: "/logs/bug.jsonl", feature: "login", featureModule: "LoginFeature",
      reducer: "LoginReducer()")
    #expect(
      outside.contains(
        """
        // SwiftPM warns about files in a test target that are not sources, and this test brings
        // one: the snapshot its first run records beside this file (the test fails once, so the
        // snapshot gets read; commit it), in
        //   __Snapshots__/<this file's name>/replayOfBugMatchesSnapshot.txt
        // Exclude it from this test target in Package.swift (relative to the target's folder):
        //   exclude: ["__Snapshots__"],
        @MainActor @Test func replayOfBugMatchesSnapshot() throws {
        """))
    let folder = RegressionTestSource.make(
      logPath: "flight", feature: "app", featureModule: "AppFeature", reducer: "AppReducer()",
      testName: "crash", flightRecording: true)
    #expect(folder.contains("// two: the flight recording \"flight\", and the snapshot"))
    #expect(folder.contains("//   __Snapshots__/<this file's name>/crash.txt\n"))
    #expect(folder.contains(#"//   exclude: ["flight", "__Snapshots__"],"#))
    let ownAssertion = RegressionTestSource.make(
      logPath: "bug.jsonl", feature: "login", featureModule: "LoginFeature",
      reducer: "LoginReducer()", assertion: "#expect(result.stepCount == 3)")
    #expect(
      ownAssertion.contains(
        """
        // SwiftPM warns about files in a test target that are not sources, and this test brings
        // one: the log "bug.jsonl". Exclude it from this test target in Package.swift
        // (relative to the target's folder):
        //   exclude: ["bug.jsonl"],
        // or keep the log outside the target and give its full path.
        @MainActor
        """))
    #expect(!ownAssertion.contains("__Snapshots__"))
  }
}

/// A reducer whose action holds a list of strings; with `bug`, it adds one more.
private struct Tagger: Reducer {
  struct State: Codable, Equatable, Sendable {
    var tags: [String] = []
  }

  enum Action: Codable, Equatable, Sendable {
    case added([String])
  }

  var bug = false

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .added(let tags): state.tags += tags + (bug ? ["bug"] : [])
    }
    return []
  }
}

@MainActor
struct DivergenceHeadlineTests {
  /// A divergence names its action on one line read from its canonical JSON: the case and its
  /// payload, a list without element indices, a string as the log writes it.
  @Test func aDivergenceNamesItsActionOnOneLineFromItsCanonicalJSON() throws {
    let folder = try TemporaryFolder()
    let digest = try StateDigest.of(Tagger.State(tags: ["( a ]", "b"]))
    let url = try folder.write(
      "tags.jsonl",
      lines: [
        #"{"format":"loginstore.actionlog","version":1,"feature":"tags","#
          + #""created":"2026-11-22T04:56:22Z","checkpointInterval":0,"#
          + #""initialState":{"tags":[]}}"#,
        #"{"seq":1,"origin":"user","action":{"added":{"_0":["( a ]","b"]}},"effects":[],"#
          + #""digest":"\#(digest)"}"#,
      ])
    #expect(try Replayer(reducer: Tagger()).replay(url).stepCount == 1)
    let error = #expect(throws: ActionLogError.self) {
      try Replayer(reducer: Tagger(bug: true)).replay(url)
    }
    guard case .divergence(let step, let action, _, _) = error else {
      Issue.record("not a divergence: \(String(describing: error))")
      return
    }
    #expect(step == 1)
    #expect(action == #"added(["( a ]", "b"])"#)
  }
}
