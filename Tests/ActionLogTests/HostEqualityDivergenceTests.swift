import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A verified replay does not take a host type's `==` on its word: a replay that differs from
/// the recording only in a field `==` ignores is found, at the latest at the next checkpoint,
/// and reported at the step where it began.
@MainActor
struct HostEqualityDivergenceTests {
  /// A board whose notes compare by `id` only. `touch` does nothing in the recorded build; the
  /// "new build" (`relabels`) renames the note there, which its `==` cannot see. At step 2 the
  /// recorded digest does not change and `==` calls the replayed state unchanged; at step 3 the
  /// replay's encoder takes the notes on `==`'s word and copies their old bytes. Step 4 is a
  /// checkpoint, where the state is encoded whole; `announce` posts the note as an effect.
  struct Board: Reducer {
    struct State: Codable, Equatable, Sendable {
      var count = 0
      var notes = [NoteComparedByID(id: 1, label: "draft")]
    }

    enum Action: Codable, Equatable, Sendable {
      case touch
      case bump
      case announce
    }

    enum Effect: StoreEffect, Codable, Equatable {
      case post(NoteComparedByID)
    }

    var relabels = false
    var bump = 1

    func reduce(into state: inout State, action: Action) -> [Effect] {
      switch action {
      case .touch: if relabels { state.notes[0].label = "touched" }
      case .bump: state.count += bump
      case .announce: return [.post(state.notes[0])]
      }
      return []
    }
  }

  /// A log of the board recorded by the recorded build.
  func recordedBoard(
    _ actions: [Board.Action], checkpointInterval: Int, in folder: TemporaryFolder
  ) async throws -> URL {
    let url = folder.file("board.jsonl")
    let store = Store(initialState: Board.State(), reducer: Board())
    let recorder = try store.record(
      to: url, feature: "board", options: RecordingOptions(checkpointInterval: checkpointInterval))
    for action in actions { store.send(action) }
    await recorder.close()
    let session = try Replayer(reducer: Board()).steps(of: url)
    while try session.next() != nil {}
    #expect(session.stepCount == actions.count, "the recorded build replays cleanly")
    return url
  }

  /// Found at the checkpoint (step 4), reported at step 2, where the note was renamed: the log
  /// is read again and the steps since the last state checked whole are encoded whole.
  @Test func aDivergenceInAFieldTheHostsEqualityIgnoresIsReportedWhereItBegan() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump, .bump], checkpointInterval: 4, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    #expect(try changed.next()?.sequenceNumber == 1)
    #expect(try changed.next()?.sequenceNumber == 2)
    #expect(try changed.next()?.sequenceNumber == 3)
    let found = divergence("step 4, a checkpoint, should have diverged") {
      () throws(ActionLogError) in _ = try changed.next()
    }
    #expect(found?.step == 2)
    #expect(
      found?.reason
        == "the replayed state differs from the recorded state (found at step 4; the steps "
        + "between were checked on the state's `==`, which does not see this difference)")
    #expect(found?.diff?.contains(#"−       label: "draft""#) == true, "\(found?.diff ?? "")")
    #expect(found?.diff?.contains(#"+       label: "touched""#) == true, "\(found?.diff ?? "")")
    #expect(found?.diff?.contains("count: 1") == true, "the state after step 2")
  }

  /// A session that checks every step whole (the timeline page's) finds it at step 2 itself.
  @Test func aSessionThatChecksEveryStepWholeFindsItAtItsStep() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump, .bump], checkpointInterval: 4, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    changed.checksEveryStepWhole = true
    #expect(try changed.next()?.sequenceNumber == 1)
    let found = divergence("step 2 should have diverged") {
      () throws(ActionLogError) in _ = try changed.next()
    }
    #expect(found?.step == 2)
    #expect(found?.reason == "the replayed state differs from the recorded state")
  }

  /// Other effects that come of a state that began to differ earlier: the divergence is the
  /// state's, at the step where it began, not the effects' where they show it.
  @Test func otherEffectsAreTracedToTheStepWhereTheStateBeganToDiffer() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .announce], checkpointInterval: 100, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    let found = divergence(replaying: changed, "step 4's effect should have diverged")
    #expect(found?.step == 2)
    #expect(found?.reason.contains("(found at step 4;") == true, "\(found?.reason ?? "")")
  }

  /// Reading the log again fails (its file is gone): the divergence found is reported, and says
  /// why it could not be traced back.
  @Test func aTraceThatCannotReadTheLogAgainSaysWhy() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump, .bump], checkpointInterval: 4, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    #expect(try changed.next()?.sequenceNumber == 1)
    try FileManager.default.removeItem(at: url)
    let found = divergence(replaying: changed, "step 4, a checkpoint, should have diverged")
    #expect(found?.step == 4)
    #expect(
      found?.reason.hasPrefix(
        "the replayed state differs from the recorded state (reading the log again to find "
          + "where it began failed: ") == true, "\(found?.reason ?? "")")
  }

  /// A divergence that begins where it is found is reported at once: the steps before it are
  /// reduced again from memory, and the log is not read again (here it could not be: it is
  /// gone).
  @Test func aDivergenceThatBeginsWhereItIsFoundDoesNotReadTheLogAgain() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard([.touch, .touch, .bump], checkpointInterval: 100, in: folder)
    let changed = try Replayer(reducer: Board(bump: 2)).steps(of: url)
    try FileManager.default.removeItem(at: url)
    let found = divergence(replaying: changed, "step 3 should have diverged")
    #expect(found?.step == 3)
    #expect(found?.reason == "the replayed state differs from the recorded state")
  }

  /// More steps since the last state checked whole than are kept: the steps are found by
  /// reading the log again, and the divergence is still reported where it began.
  @Test func aTraceBeyondTheKeptStepsReadsTheLogAgain() async throws {
    let folder = try TemporaryFolder()
    let kept = ReplaySession<Board>.maximumKeptSteps
    let actions = [Board.Action.bump, .touch] + Array(repeating: .bump, count: kept + 3)
    let url = try await recordedBoard(actions, checkpointInterval: kept + 4, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    let found = divergence(
      replaying: changed, "step \(kept + 4), a checkpoint, should have diverged")
    #expect(found?.step == 2)
    #expect(found?.reason.contains("(found at step \(kept + 4);") == true, "\(found?.reason ?? "")")
  }

  /// A log that ends before a checkpoint comes: its last state is checked whole at the end, so
  /// a replay that differs only in a field `==` ignores is not called clean.
  @Test func aDivergenceAfterTheLastCheckpointIsFoundAtTheEnd() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard([.bump, .touch, .bump], checkpointInterval: 100, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    let found = divergence(replaying: changed, "the end of the log should have diverged")
    #expect(found?.step == 2)
    #expect(
      found?.reason.contains("(found at step 3, the end of the log;") == true,
      "\(found?.reason ?? "")")
    #expect(changed.stepCount == 3, "every step was returned before the end was checked")
  }

  /// A verified replay through a step, before the log's end: the steps it returned are checked
  /// where it stops.
  @Test func aReplayThroughAStepChecksTheStepsItReturned() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump], checkpointInterval: 100, in: folder)
    #expect(try Replayer(reducer: Board()).replay(url, through: 3).stepCount == 3)
    let found = divergence("the replay through step 3 should have diverged") {
      () throws(ActionLogError) in
      _ = try Replayer(reducer: Board(relabels: true)).replay(url, through: 3)
    }
    #expect(found?.step == 2)
    #expect(
      found?.reason.contains("(found at step 3, where the replay stopped;") == true,
      "\(found?.reason ?? "")")
  }

  /// The steps before a gap get no checkpoint, and the replay resumes from the gap's recorded
  /// state: their last state is checked whole before the gap.
  @Test func aDivergenceBeforeAGapIsFoundThere() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump], checkpointInterval: 100, in: folder)
    // Step 4 dropped: a gap marker with the state after it, as a recorder that fell behind
    // writes one.
    var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    lines[4] = #"{"kind":"gap","dropped":1,"state":{"count":3,"notes":[{"id":1,"label":"draft"}]}}"#
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    let session = try Replayer(reducer: Board()).steps(of: url)
    while try session.next() != nil {}
    #expect(session.stepCount == 4, "the recorded build replays the log with its gap cleanly")

    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    let found = divergence(replaying: changed, "the step before the gap should have diverged")
    #expect(found?.step == 2)
    #expect(
      found?.reason.contains("(found at step 3, before a gap;") == true, "\(found?.reason ?? "")")
  }

  /// A followed log whose path holds another recording by the time the divergence is found:
  /// the other recording is not read as if it were this one's steps.
  @Test func aFollowedLogReplacedBeforeTheDivergenceIsNotTracedThroughTheNewOne() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump, .bump], checkpointInterval: 4, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).following(url)
    #expect(try changed.next()?.sequenceNumber == 1)
    let other = folder.file("other.jsonl")
    try FileManager.default.copyItem(at: url, to: other)
    #expect(rename(other.path, url.path) == 0)
    let found = divergence(replaying: changed, "step 4, a checkpoint, should have diverged")
    #expect(found?.step == 4)
    #expect(
      found?.reason.hasSuffix(
        "(the log's path holds another recording now, so the steps before were not read again "
          + "to find where it began)") == true, "\(found?.reason ?? "")")
  }

  /// The divergence `session` throws when it is replayed to its end (see ``divergence(_:_:)``).
  func divergence<R: Reducer>(
    replaying session: ReplaySession<R>, _ unexpected: Comment,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> (step: Int, reason: String, diff: String?)? {
    divergence(unexpected, sourceLocation: sourceLocation) { () throws(ActionLogError) in
      while try session.next() != nil {}
    }
  }

  /// The divergence `replay` throws; `nil`, recorded as an issue (`unexpected` when it throws
  /// nothing), when it throws none.
  func divergence(
    _ unexpected: Comment, sourceLocation: SourceLocation = #_sourceLocation,
    _ replay: () throws(ActionLogError) -> Void
  ) -> (step: Int, reason: String, diff: String?)? {
    do {
      try replay()
      Issue.record(unexpected, sourceLocation: sourceLocation)
    } catch {
      guard case .divergence(let step, _, let reason, let diff) = error else {
        Issue.record("not a divergence: \(error)", sourceLocation: sourceLocation)
        return nil
      }
      return (step, reason, diff)
    }
    return nil
  }

  /// Posts a note as an effect. The "new build" (`relabels`) posts it under another label, which
  /// the note's `==` cannot see.
  struct Poster: Reducer {
    struct State: Codable, Equatable, Sendable {
      var posted = 0
    }

    enum Action: Codable, Equatable, Sendable {
      case post
    }

    enum Effect: StoreEffect, Codable, Equatable {
      case publish(NoteComparedByID)
      case measure(Double)
    }

    var relabels = false
    var measuresNaN = false

    func reduce(into state: inout State, action: Action) -> [Effect] {
      state.posted += 1
      if measuresNaN { return [.measure(.nan)] }
      return [.publish(NoteComparedByID(id: 1, label: relabels ? "touched" : "draft"))]
    }
  }

  /// A log of one `post`, recorded by the recorded build.
  func recordedPost(in folder: TemporaryFolder) async throws -> URL {
    let url = folder.file("poster.jsonl")
    let store = Store(initialState: Poster.State(), reducer: Poster())
    let recorder = try store.record(to: url, feature: "poster")
    store.send(.post)
    await recorder.close()
    return url
  }

  @Test func anEffectThatDiffersInAFieldTheHostsEqualityIgnoresIsADivergence() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedPost(in: folder)

    #expect(try Replayer(reducer: Poster()).replay(url).stepCount == 1)
    let found = divergence("step 1 returned another effect than recorded, and the replay matched") {
      () throws(ActionLogError) in _ = try Replayer(reducer: Poster(relabels: true)).replay(url)
    }
    #expect(found?.step == 1)
    #expect(found?.reason == "the reducer returned other effects than recorded")
    #expect(found?.diff?.contains(#"label: "draft""#) == true, "\(found?.diff ?? "")")
    #expect(found?.diff?.contains(#"label: "touched""#) == true, "\(found?.diff ?? "")")
  }

  /// A replayed effect with no canonical JSON (a NaN) cannot be compared with the recording:
  /// the replay fails there, naming the effect type and what it met, instead of matching.
  @Test func anEffectThatCannotBeEncodedFailsTheReplay() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedPost(in: folder)

    do {
      _ = try Replayer(reducer: Poster(measuresNaN: true)).replay(url)
      Issue.record("an effect with a NaN was compared with the recording")
    } catch {
      guard case .encodingFailed(let message) = error else {
        Issue.record("not an encoding failure: \(error)")
        return
      }
      #expect(message.contains("Effect"), "\(message)")
      #expect(message.lowercased().contains("nan"), "\(message)")
    }
  }
}
