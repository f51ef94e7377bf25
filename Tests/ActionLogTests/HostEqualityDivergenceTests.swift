import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A verified replay does not take a host type's `==` on its word: a replay that differs from
/// the recording only in a field `==` ignores is found, at the latest at the next checkpoint.
@MainActor
struct HostEqualityDivergenceTests {
  /// A board whose notes compare by `id` only. `touch` does nothing in the recorded build; the
  /// "new build" (`relabels`) renames the note there, which its `==` cannot see. At step 2 the
  /// recorded digest does not change and `==` calls the replayed state unchanged; at step 3 the
  /// replay's encoder takes the notes on `==`'s word and copies their old bytes. Step 4 is a
  /// checkpoint, where the state is encoded whole.
  struct Board: Reducer {
    struct State: Codable, Equatable, Sendable {
      var count = 0
      var notes = [NoteComparedByID(id: 1, label: "draft")]
    }

    enum Action: Codable, Equatable, Sendable {
      case touch
      case bump
    }

    var relabels = false

    func reduce(into state: inout State, action: Action) -> [Never] {
      switch action {
      case .touch: if relabels { state.notes[0].label = "touched" }
      case .bump: state.count += 1
      }
      return []
    }
  }

  @Test func aDivergenceInAFieldTheHostsEqualityIgnoresIsFoundAtTheNextCheckpoint() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("board.jsonl")
    let store = Store(initialState: Board.State(), reducer: Board())
    let recorder = try store.record(
      to: url, feature: "board", options: RecordingOptions(checkpointInterval: 4))
    for action in [Board.Action.bump, .touch, .bump, .bump, .bump, .bump] { store.send(action) }
    await recorder.close()

    let session = try Replayer(reducer: Board()).steps(of: url)
    while try session.next() != nil {}
    #expect(session.stepCount == 6, "the recorded build replays cleanly")

    let changed = try Replayer(reducer: Board(relabels: true)).steps(of: url)
    #expect(try changed.next()?.sequenceNumber == 1)
    #expect(try changed.next()?.sequenceNumber == 2)
    #expect(try changed.next()?.sequenceNumber == 3)
    let found = divergence("step 4, a checkpoint, should have diverged") {
      () throws(ActionLogError) in _ = try changed.next()
    }
    #expect(found?.step == 4)
    #expect(found?.reason == "the replayed state differs from the recorded state")
    #expect(found?.diff?.contains(#"label: "draft""#) == true, "\(found?.diff ?? "")")
    #expect(found?.diff?.contains(#"label: "touched""#) == true, "\(found?.diff ?? "")")
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
