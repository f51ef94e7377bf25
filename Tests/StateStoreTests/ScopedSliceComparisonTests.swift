import StateStore
import Testing

/// How a handle decides that its slice changed: the bytes the store holds first, then `==`.
@MainActor @Suite(.serialized)
struct ScopedSliceComparisonTests {
  /// A slice whose `==` counts its calls (only the test of the shortcut compares this type).
  struct Card: Sendable {
    nonisolated(unsafe) static var comparisons = 0

    var name = "a name long enough to live in its own buffer"
    var isStarred = false
    var count = 0
    var measure = 0.0
  }

  struct Board: Equatable, Sendable {
    var card = Card()
    var other = 0
    /// The card through a computed property: a key path without an offset.
    var cardCopy: Card { card }
  }

  enum Move: Sendable {
    case rename(String)
    /// Builds a new card equal to the one there: its name in a new buffer.
    case rebuildEqualCard
    case touchOther
    case measure(Double)
  }

  struct Table: Reducer {
    func reduce(into state: inout Board, action: Move) -> [Never] {
      switch action {
      case .rename(let name): state.card.name = name
      case .rebuildEqualCard:
        let card = state.card
        state.card = Card(
          name: String(decoding: Array(card.name.utf8), as: UTF8.self),
          isStarred: card.isStarred, count: card.count, measure: card.measure)
      case .touchOther: state.other += 1
      case .measure(let value): state.card.measure = value
      }
      return []
    }
  }

  @Test func anEqualSliceStoredAsOtherBytesIsNotPublishedAndLaterChangesAre() {
    let store = Store(initialState: Board(), reducer: Table())
    let card = store.scope(state: \.card, action: { (move: Move) in move })
    var names: [String] = []
    let subscription = card.observe { names.append($0.name) }
    store.send(.rebuildEqualCard)
    store.send(.touchOther)
    store.send(.rebuildEqualCard)
    #expect(names.isEmpty)
    store.send(.rename("b"))
    store.send(.touchOther)
    store.send(.rename(Card().name))
    store.send(.rebuildEqualCard)
    #expect(names == ["b", Card().name])
    #expect(card.state.name == Card().name)
    withExtendedLifetime(subscription) {}
  }

  @Test func aSliceStoredAsTheSameBytesIsNotComparedWithEquals() {
    let store = Store(initialState: Board(), reducer: Table())
    let card = store.scope(state: \.card, action: { (move: Move) in move })
    Card.comparisons = 0
    for _ in 0..<100 { store.send(.touchOther) }
    #expect(Card.comparisons == 0, "the store's bytes are those the handle took")
    store.send(.rebuildEqualCard)
    #expect(Card.comparisons == 1, "other bytes: compared once, then taken again")
    for _ in 0..<100 { store.send(.touchOther) }
    #expect(Card.comparisons == 1)
    store.send(.rename("b"))
    store.send(.touchOther)
    #expect(Card.comparisons == 3, "a changed slice is compared until an action leaves it")
    for _ in 0..<100 { store.send(.touchOther) }
    #expect(Card.comparisons == 3)
    #expect(card.state.name == "b")
  }

  @Test func aSliceThatEqualsCallsChangedIsPublishedAfterEveryAction() {
    // Bytes are kept only once `==` found the slice unchanged: a NaN never is, so `==` decides
    // after every action, as it did before the shortcut.
    let store = Store(initialState: Board(), reducer: Table())
    let card = store.scope(state: \.card, action: { (move: Move) in move })
    var published = 0
    let subscription = card.observe { _ in published += 1 }
    store.send(.measure(.nan))
    for _ in 0..<10 { store.send(.touchOther) }
    #expect(published == 11)
    store.send(.measure(1))
    for _ in 0..<10 { store.send(.touchOther) }
    #expect(published == 12)
    #expect(card.state.measure == 1)
    withExtendedLifetime(subscription) {}
  }

  @Test func aHandleThroughAComputedPathComparesWithEquals() {
    let store = Store(initialState: Board(), reducer: Table())
    let card = store.scope(state: \.cardCopy, action: { (move: Move) in move })
    var names: [String] = []
    let subscription = card.observe { names.append($0.name) }
    store.send(.touchOther)
    store.send(.rebuildEqualCard)
    #expect(names.isEmpty)
    store.send(.rename("c"))
    #expect(names == ["c"])
    #expect(card.state.name == "c")
    withExtendedLifetime(subscription) {}
  }
}

extension ScopedSliceComparisonTests.Card: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    comparisons += 1
    return lhs.name == rhs.name && lhs.isStarred == rhs.isStarred && lhs.count == rhs.count
      && lhs.measure == rhs.measure
  }
}
