import ActionLog
import StateStore
import Testing
import ToolTestSupport

/// A tag compared by identity: its `==` looks at `id` only, so a retitled tag is "equal".
private struct Tag: Codable, Sendable, Equatable, Identifiable {
  var id: Int
  var text: String

  static func == (lhs: Tag, rhs: Tag) -> Bool { lhs.id == rhs.id }
}

/// A card compared by identity, holding a list of its own.
private struct Card: Codable, Sendable, Equatable, Identifiable {
  var id: Int
  var label: String
  var tags: IdentifiedList<Tag>

  static func == (lhs: Card, rhs: Card) -> Bool { lhs.id == rhs.id }
}

/// A list inside a value inside the state.
private struct Shelf: Codable, Sendable, Equatable {
  var tags = IdentifiedList<Tag>()
  var note = "shelf"
}

/// Lists at the top, nested in the rows of another list, inside a value and inside an array,
/// around scalars.
private struct Board: Codable, Sendable, Equatable {
  var cards = IdentifiedList<Card>()
  var archive = IdentifiedList<Card>()
  var pinned = IdentifiedList<Tag>()
  var shelf = Shelf()
  var shelves: [Shelf] = []
  var title = "board"
  /// Sorts between two lists, so its bytes lie between their leaves.
  var badge = "aa"

  init() {
    for id in 0..<300 {
      let tags: IdentifiedList<Tag> = [Tag(id: 0, text: "a\(id)"), Tag(id: 1, text: "b\(id)")]
      cards.append(Card(id: id, label: "card \(id)", tags: tags))
    }
    for id in 0..<130 { pinned.append(Tag(id: id, text: "pin \(id)")) }
    for id in 0..<70 { shelf.tags.append(Tag(id: id, text: "shelved \(id)")) }
    shelves = [shelf, shelf]
  }
}

/// The log's writer encodes each state reusing the leaves the step before left alone, patches
/// it without looking at the leaves both states share, and resumes its digest after the
/// leaves they share from the start. Whatever a step did to a list — a row changed where its
/// `==` cannot see, a move, a removal, an insertion at the front, rows moved between lists —
/// what it writes must be what a fresh whole encoding gives: the same bytes, the digest of
/// those bytes, and the patch the byte-by-byte comparison makes, which rebuilds the state.
struct EncodedStateTests {
  fileprivate static let changes: [(String, @Sendable (inout Board) -> Void)] = [
    ("nothing", { _ in }),
    ("a row's label, unseen by ==", { $0.cards[id: 5]?.label = "published" }),
    ("a row in the last leaf", { $0.cards[id: 299]?.label = "last" }),
    ("a row's label, its length kept", { $0.cards[id: 6]?.label = "card X" }),
    ("a pinned tag, its length kept", { $0.pinned[id: 100]?.text = "pin XYZ" }),
    ("a nested row's text", { $0.cards[id: 130]?.tags[id: 1]?.text = "nested" }),
    ("the title", { $0.title = "renamed board" }),
    ("a scalar between two lists, its length kept", { $0.badge = "bb" }),
    ("a pinned tag", { $0.pinned[id: 64]?.text = "pinned, changed" }),
    ("a move to the end", { $0.cards.move(fromOffsets: [0], toOffset: 300) }),
    ("a move back to the front", { $0.cards.move(fromOffsets: [299], toOffset: 0) }),
    ("a removal in the middle", { _ = $0.cards.remove(id: 100) }),
    (
      "an insertion at the front",
      { _ = $0.cards.insert(Card(id: 1_000, label: "first", tags: []), at: 0) }
    ),
    ("an append", { _ = $0.cards.append(Card(id: 1_001, label: "appended", tags: [])) }),
    (
      "a row moved to another list",
      {
        if let card = $0.cards.remove(id: 7) { _ = $0.archive.append(card) }
      }
    ),
    (
      "two lists at once",
      {
        $0.cards[id: 8]?.label = "eight"
        $0.pinned[id: 0]?.text = "zero"
      }
    ),
    ("rows removed by a rule", { $0.pinned.removeAll { $0.id % 3 == 0 } }),
    ("a list inside a value", { $0.shelf.tags[id: 69]?.text = "shelved, kept" }),
    ("a list inside an array", { $0.shelves[1].tags[id: 3]?.text = "second shelf" }),
    ("a list copied to another place", { $0.archive = $0.cards }),
    ("a row of the copy, unseen by ==", { $0.archive[id: 2]?.label = "card Z" }),
    ("an emptied list", { $0.archive.removeAll { _ in true } }),
    ("the first row, unseen by ==", { $0.cards[id: 1_000]?.label = "first, renamed" }),
    ("nothing again", { _ in }),
  ]

  @Test func everyStepIsWhatAFreshEncodingWrites() throws {
    let writer = CanonicalJSONEncoder(remembersLeaves: true)
    var board = Board()
    var before = try writer.encodeState(board, after: nil)
    for (name, change) in Self.changes {
      change(&board)
      let after = try writer.encodeState(board, after: before)
      let fresh = try CanonicalJSONEncoder().encode(board)
      #expect(after.bytes == fresh, "\(name): the bytes")
      #expect(after.digest == StateDigest.fnv1a(fresh), "\(name): the digest")
      #expect(!after.runs.isEmpty, "\(name): no leaf was placed")
      let patch = StatePatch.patch(from: before, to: after)
      #expect(patch == StatePatch.patch(from: before.bytes, to: fresh), "\(name): the patch")
      var rebuilt = StatePatch.Rebuilt(base: before.bytes[...])
      try rebuilt.apply(patch[...])
      #expect(rebuilt.bytes == fresh, "\(name): the rebuilt state")
      before = after
    }
  }

  /// A small change far into a large list patches only that row, and the patch says so.
  @Test func aChangedRowIsPatchedAlone() throws {
    let writer = CanonicalJSONEncoder(remembersLeaves: true)
    var board = Board()
    let before = try writer.encodeState(board, after: nil)
    board.cards[id: 250]?.label = "late"
    let after = try writer.encodeState(board, after: before)
    let patch = String(decoding: StatePatch.patch(from: before, to: after), as: UTF8.self)
    #expect(patch == #"[{"at":["cards",250,"label"],"value":"late"}]"#)
  }
}

/// The board, changed by picking one of the changes above.
private struct BoardEditor: Reducer {
  enum Action: Codable, Sendable, Equatable {
    case change(Int)
  }

  func reduce(into state: inout Board, action: Action) -> [Never] {
    if case .change(let index) = action { EncodedStateTests.changes[index].1(&state) }
    return []
  }
}

extension EncodedStateTests {
  /// Through the recorder, one step per batch: every step's recorded state, rebuilt from the
  /// log's patches and checkpoints, is the store's state, byte for byte, and its digest.
  @MainActor @Test func theRecorderWritesEveryStepAsItIs() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("board.jsonl")
    let store = Store(initialState: Board(), reducer: BoardEditor())
    let recorder = try store.record(
      to: url, feature: "board", options: RecordingOptions(checkpointInterval: 5))
    var states: [[UInt8]] = []
    for index in Self.changes.indices {
      store.send(.change(index))
      states.append(try CanonicalJSONEncoder().encode(store.state))
      await recorder.flush()
    }
    await recorder.close()

    let reader = try ActionLogReader<Board, BoardEditor.Action, Never>(url: url)
    var rebuilt: [[UInt8]] = []
    while case .transition(let step)? = try reader.next() {
      let state = try #require(try reader.recordedState())
      let bytes = try CanonicalJSONEncoder().encode(state)
      #expect(StateDigest.hex(StateDigest.fnv1a(bytes)) == step.digest)
      rebuilt.append(bytes)
    }
    #expect(rebuilt == states)
  }
}
