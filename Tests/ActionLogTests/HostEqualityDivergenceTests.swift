import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A verified replay does not take a host type's `==` on its word: every step's state is
/// encoded whole and compared with the recording by digest, so a replay that differs from the
/// recording only in a field `==` ignores is found at the step where it began.
@MainActor
struct HostEqualityDivergenceTests {
  /// A board whose notes compare by `id` only. `touch` does nothing in the recorded build; the
  /// "new build" (`relabels`) renames the note there, which its `==` cannot see: the recorded
  /// digest does not change at step 2, and `==` calls the replayed state unchanged. `announce`
  /// posts the note as an effect.
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

  /// Every step is verified by its bytes: the divergence is found at step 2, where the note was
  /// renamed, with no checkpoint there and nothing read again.
  @Test func aDivergenceInAFieldTheHostsEqualityIgnoresIsFoundAtItsStep() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump, .bump], checkpointInterval: 4, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    #expect(try changed.next()?.sequenceNumber == 1)
    let found = divergence("step 2 should have diverged") {
      () throws(ActionLogError) in _ = try changed.next()
    }
    #expect(found?.step == 2)
    #expect(found?.reason == "the replayed state differs from the recorded state")
    #expect(found?.diff?.contains(#"−     label: "draft""#) == true, "\(found?.diff ?? "")")
    #expect(found?.diff?.contains(#"+     label: "touched""#) == true, "\(found?.diff ?? "")")
    #expect(
      found?.diff?.hasPrefix("  … (1 unchanged)\n  notes: [\n") == true, "\(found?.diff ?? "")")
    #expect(changed.stepCount == 1)
  }

  /// Other effects that come of a state that began to differ earlier: the divergence is the
  /// state's, at the step where it began, before the effects show it.
  @Test func aStateThatBeganToDifferIsFoundBeforeTheEffectsShowIt() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .announce], checkpointInterval: 100, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    let found = divergence(replaying: changed, "step 2 should have diverged")
    #expect(found?.step == 2)
    #expect(found?.reason == "the replayed state differs from the recorded state")
  }

  /// A divergence far from any checkpoint (none in 10,005 steps), and one in the last step or
  /// before a gap, is found at its own step: nothing waits for a checkpoint to look.
  @Test func aDivergenceFarFromAnyCheckpointIsFoundAtItsStep() async throws {
    let folder = try TemporaryFolder()
    let actions = [Board.Action.bump, .touch] + Array(repeating: .bump, count: 10_003)
    let url = try await recordedBoard(actions, checkpointInterval: 0, in: folder)
    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    #expect(divergence(replaying: changed, "step 2 should have diverged")?.step == 2)

    let last = try await recordedBoard([.bump, .bump, .touch], checkpointInterval: 100, in: folder)
    let atTheEnd = try Replayer(reducer: Board(relabels: true)).steps(of: last)
    #expect(divergence(replaying: atTheEnd, "step 3 should have diverged")?.step == 3)
  }

  /// A verified replay through a step, before the log's end, checks each step it returns.
  @Test func aReplayThroughAStepChecksEveryStepItReturned() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordedBoard(
      [.bump, .touch, .bump, .bump, .bump], checkpointInterval: 100, in: folder)
    #expect(try Replayer(reducer: Board()).replay(url, through: 3).stepCount == 3)
    let found = divergence("the replay through step 3 should have diverged") {
      () throws(ActionLogError) in
      _ = try Replayer(reducer: Board(relabels: true)).replay(url, through: 3)
    }
    #expect(found?.step == 2)
    #expect(found?.reason == "the replayed state differs from the recorded state")
  }

  /// The steps before a gap are checked as any other: the divergence is at its step, before the
  /// replay resumes from the gap's recorded state.
  @Test func aDivergenceBeforeAGapIsFoundAtItsStep() async throws {
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
    let found = divergence(replaying: changed, "step 2 should have diverged")
    #expect(found?.step == 2)
    #expect(found?.reason == "the replayed state differs from the recorded state")
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
