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

  /// A board's store, a handle on its card through `path`, and what the handle publishes.
  @MainActor
  final class CardWatch {
    let store = Store(initialState: Board(), reducer: Table())
    let card: ScopedStore<Card, Move>
    private(set) var published: [Card] = []
    private var subscription: StoreSubscription?

    init(through path: KeyPath<Board, Card> & Sendable) {
      card = store.scope(state: path, action: { (move: Move) in move })
      subscription = card.observe { [unowned self] in published.append($0) }
    }

    var names: [String] { published.map(\.name) }
  }

  @Test func anEqualSliceStoredAsOtherBytesIsNotPublishedAndLaterChangesAre() {
    let watch = CardWatch(through: \.card)
    watch.store.send(.rebuildEqualCard)
    watch.store.send(.touchOther)
    watch.store.send(.rebuildEqualCard)
    #expect(watch.names.isEmpty)
    watch.store.send(.rename("b"))
    watch.store.send(.touchOther)
    watch.store.send(.rename(Card().name))
    watch.store.send(.rebuildEqualCard)
    #expect(watch.names == ["b", Card().name])
    #expect(watch.card.state.name == Card().name)
  }

  @Test func aSliceThatEqualsCallsChangedIsPublishedAfterEveryAction() {
    // Bytes are kept only once `==` found the slice unchanged: a NaN never is, so `==` decides
    // after every action, as it did before the shortcut.
    let watch = CardWatch(through: \.card)
    watch.store.send(.measure(.nan))
    for _ in 0..<10 { watch.store.send(.touchOther) }
    #expect(watch.published.count == 11)
    watch.store.send(.measure(1))
    for _ in 0..<10 { watch.store.send(.touchOther) }
    #expect(watch.published.count == 12)
    #expect(watch.card.state.measure == 1)
  }

  @Test func aHandleThroughAComputedPathComparesWithEquals() {
    let watch = CardWatch(through: \.cardCopy)
    watch.store.send(.touchOther)
    watch.store.send(.rebuildEqualCard)
    #expect(watch.names.isEmpty)
    watch.store.send(.rename("c"))
    #expect(watch.names == ["c"])
    #expect(watch.card.state.name == "c")
  }

  @Test func aGrandchildHandleComparesCopiesWithEquals() {
    let watch = CardWatch(through: \.card)
    let name = watch.card.scope(state: \.name, action: { (move: Move) in move })
    var names: [String] = []
    let subscription = name.observe { names.append($0) }
    watch.store.send(.rebuildEqualCard)
    watch.store.send(.touchOther)
    #expect(names.isEmpty)
    watch.store.send(.rename("d"))
    watch.store.send(.measure(2))
    #expect(names == ["d"])
    #expect(name.state == "d")
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
