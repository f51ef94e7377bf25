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
}
