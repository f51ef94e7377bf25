import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A host model compared by identity: its `==` looks at `id` only, as many `Identifiable`
/// types' do, so a renamed value is "equal" to the old one.
private struct Article: Codable, Sendable, Equatable {
  var id: Int
  var label: String

  static func == (lhs: Article, rhs: Article) -> Bool { lhs.id == rhs.id }
}

/// An `Article` that is a row of an identified list.
private struct Row: Codable, Sendable, Equatable, Identifiable {
  var id: Int
  var label: String

  static func == (lhs: Row, rhs: Row) -> Bool { lhs.id == rhs.id }
}

/// A list of 200 rows (four leaves of 64) that actions rename, add to, remove from and move.
private struct Shelf: Reducer {
  struct State: Codable, Sendable, Equatable {
    var rows = IdentifiedList<Row>()

    init() {
      for id in 0..<200 { rows.append(Row(id: id, label: "draft \(id)")) }
    }
  }

  enum Action: Codable, Sendable, Equatable {
    case rename(Int, String)
    case add(Int)
    case remove(Int)
    case move(Int, Int)
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .rename(let id, let label): state.rows[id: id]?.label = label
    case .add(let id): state.rows.append(Row(id: id, label: "new"))
    case .remove(let id): state.rows.remove(id: id)
    case .move(let from, let to): state.rows.move(fromOffsets: [from], toOffset: to)
    }
    return []
  }
}

/// One article at the top of the state and a list of them, each renamed by an action.
private struct Desk: Reducer {
  struct State: Codable, Sendable, Equatable {
    var lead = Article(id: 0, label: "draft")
    var items = (1...3).map { Article(id: $0, label: "draft \($0)") }
  }

  enum Action: Codable, Sendable, Equatable {
    case renameLead(String)
    case renameItem(Int, String)
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .renameLead(let label): state.lead.label = label
    case .renameItem(let index, let label): state.items[index].label = label
    }
    return []
  }
}

/// The log shows the state the app had, whatever the host's `==` says: a checkpoint holds the
/// new label, and every step's digest is the digest of the store's state at that step (the
/// remembering encoder used to copy the old bytes of a value whose `==` called it unchanged).
@MainActor struct HonestLogTests {
  @Test func aValueWhoseEqualsIgnoresAFieldIsLoggedAsItIs() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("desk.jsonl")
    let store = Store(initialState: Desk.State(), reducer: Desk())
    let recorder = try store.record(
      to: url, feature: "desk", options: RecordingOptions(checkpointInterval: 1))
    var digests: [String] = []
    for action in [
      Desk.Action.renameLead("published"), .renameItem(1, "renamed"), .renameLead("final"),
    ] {
      store.send(action)
      digests.append(try StateDigest.of(store.state))
    }
    await recorder.close()

    let reader = try ActionLogReader<Desk.State, Desk.Action, Never>(url: url)
    var steps: [RecordedTransition<Desk.State, Desk.Action, Never>] = []
    while let entry = try reader.next() {
      if case .transition(let step) = entry { steps.append(step) }
    }
    try #require(steps.count == 3)
    #expect(steps.map(\.digest) == digests)
    #expect(steps[0].checkpoint?.lead.label == "published")
    #expect(steps[1].checkpoint?.items[1].label == "renamed")
    #expect(steps[2].checkpoint?.lead.label == "final")
    // Verified replay agrees with what was recorded: no divergence, the labels as recorded.
    let replay = try Replayer(reducer: Desk()).replay(url, verify: true)
    #expect(replay.finalState.lead.label == "final")
    #expect(replay.finalState.items[1].label == "renamed")
  }

  /// Without checkpoints, every step's patch carries the new label, and the state the reader
  /// rebuilds from the patches is the store's state, byte for byte.
  @Test func aValueWhoseEqualsIgnoresAFieldIsPatchedAsItIs() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("desk.jsonl")
    let store = Store(initialState: Desk.State(), reducer: Desk())
    let recorder = try store.record(
      to: url, feature: "desk", options: RecordingOptions(checkpointInterval: 0))
    var states: [Desk.State] = []
    for action in [
      Desk.Action.renameLead("published"), .renameItem(1, "renamed"), .renameLead("final"),
    ] {
      store.send(action)
      states.append(store.state)
    }
    await recorder.close()

    let lines = try folder.lines(of: url)
    #expect(lines[1].hasSuffix(#","patch":[{"at":["lead","label"],"value":"published"}]}"#))
    #expect(lines[2].hasSuffix(#","patch":[{"at":["items",1,"label"],"value":"renamed"}]}"#))
    let reader = try ActionLogReader<Desk.State, Desk.Action, Never>(url: url)
    var rebuilt: [Desk.State] = []
    while case .transition(let step)? = try reader.next() {
      let state = try #require(try reader.recordedState())
      #expect(try StateDigest.of(state) == step.digest)
      rebuilt.append(state)
    }
    // `==` would call the old labels equal: compare the labels themselves.
    #expect(rebuilt.map(\.lead.label) == states.map(\.lead.label))
    #expect(rebuilt.map { $0.items.map(\.label) } == states.map { $0.items.map(\.label) })
    #expect(try rebuilt.map(StateDigest.of) == states.map(StateDigest.of))
  }

  /// The writer keeps each leaf's bytes under the leaf's own identity: a renamed row is
  /// written renamed however its `==` compares, and every other step's bytes are what a fresh
  /// encoding writes (every digest is the store state's, and a verified replay agrees).
  @Test func aListsRowsAreLoggedAsTheyAreWhenTheWriterRemembersLeaves() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("shelf.jsonl")
    let store = Store(initialState: Shelf.State(), reducer: Shelf())
    let recorder = try store.record(
      to: url, feature: "shelf", options: RecordingOptions(checkpointInterval: 3))
    var states: [Shelf.State] = []
    let actions: [Shelf.Action] = [
      .rename(5, "published"), .rename(130, "renamed"), .rename(5, "final"), .add(500),
      .rename(199, "last"), .remove(64), .rename(70, "after the removal"), .move(0, 150),
      .rename(0, "moved"), .remove(500), .rename(1, "first"),
    ]
    for action in actions {
      store.send(action)
      states.append(store.state)
      // One step per batch, so that each step's encoding can reuse the step before's leaves.
      await recorder.flush()
    }
    await recorder.close()

    let reader = try ActionLogReader<Shelf.State, Shelf.Action, Never>(url: url)
    var rebuilt: [Shelf.State] = []
    while case .transition(let step)? = try reader.next() {
      let state = try #require(try reader.recordedState())
      #expect(try StateDigest.of(state) == step.digest)
      rebuilt.append(state)
    }
    #expect(rebuilt.count == actions.count)
    #expect(rebuilt.map { $0.rows.map(\.label) } == states.map { $0.rows.map(\.label) })
    #expect(rebuilt.map(\.rows.ids) == states.map(\.rows.ids))
    #expect(try rebuilt.map(StateDigest.of) == states.map(StateDigest.of))
    let replay = try Replayer(reducer: Shelf()).replay(url, verify: true)
    #expect(replay.finalState.rows[id: 1]?.label == "first")
  }
}
