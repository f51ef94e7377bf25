import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A reducer reads the date, new ids and random numbers from the inputs its store hands it;
/// the composition tools pass them on; each step's reads reach the store's observers.
@MainActor struct ReducerInputsTests {
  static let date = Date(timeIntervalSince1970: 1_800_000_000)

  @Test func aControlledStoreHandsOutItsDateCountedIdsAndSeededNumbers() {
    let store = Store(initialState: Deck(), reducer: DeckReducer())
    store.inputs = .controlled(ControlledInputs(now: Self.date, nextID: 5, seed: 42))
    var steps: [StoreStep<Deck, DeckAction, Never>] = []
    let subscription = store.observeSteps { steps.append($0) }
    defer { subscription.cancel() }

    store.send(.addTapped)
    store.send(.addTapped)
    store.send(.titleChanged("Deck"))

    var random = SeededGenerator(seed: 42)
    let rolls = [Int.random(in: 1...6, using: &random), Int.random(in: 1...6, using: &random)]
    #expect(
      store.state.cards.array == [
        Card(id: ControlledInputs.id(5), createdAt: Self.date, roll: rolls[0]),
        Card(id: ControlledInputs.id(6), createdAt: Self.date, roll: rolls[1]),
      ])
    #expect(ControlledInputs.id(5).uuidString == "00000000-0000-0000-0000-000000000005")
    // Each step's reads, in order; a step that read nothing has none.
    #expect(steps.map(\.inputs.ids) == [[ControlledInputs.id(5)], [ControlledInputs.id(6)], []])
    #expect(steps.map(\.inputs.now) == [Self.date, Self.date, nil])
    #expect(steps.map(\.inputs.random.count) == [1, 1, 0])
    #expect(steps[2].inputs.isEmpty)
    // The store counts on: its source holds the next id.
    guard case .controlled(let after) = store.inputs else {
      Issue.record("the store's inputs stay controlled")
      return
    }
    #expect(after.nextID == 7)
  }

  @Test func aLiveStoreHandsOutTheSystemsValues() {
    let store = Store(initialState: Deck(), reducer: DeckReducer())
    let before = Date()
    store.send(.addTapped)
    store.send(.addTapped)
    let cards = store.state.cards.array
    #expect(cards.count == 2)
    #expect(cards[0].id != cards[1].id)
    #expect(cards[0].createdAt >= before && cards[0].createdAt <= Date())
    #expect(cards.allSatisfy { (1...6).contains($0.roll) })
  }

  @Test func aStepReadsOneDateHoweverOftenItAsks() {
    struct TwoReads: ReducerWithInputs {
      func reduce(
        into state: inout [Date], action: Int, inputs: inout ReducerInputs
      ) -> [Never] {
        state += [inputs.now, inputs.now]
        return []
      }
    }
    var inputs = ReducerInputs(.live)
    var dates: [Date] = []
    _ = TwoReads().reduce(into: &dates, action: 0, inputs: &inputs)
    #expect(dates.count == 2 && dates[0] == dates[1])
    #expect(inputs.read == StepInputs(now: dates[0]))
  }

  /// Scopes, `combined(with:)`, `ifLet` and `forEach` pass the store's inputs on, in the
  /// order the children run: ids are handed out once each.
  @Test func compositionPassesTheInputsOnInOrder() {
    let store = Store(initialState: Table(), reducer: TableReducer())
    store.inputs = .controlled(ControlledInputs(now: Self.date))
    store.send(.both(.addTapped))
    store.send(.drawer(.addTapped))
    store.send(.rows(.row(7, .addTapped)))
    #expect(store.state.left.cards.ids == [ControlledInputs.id(0)])
    #expect(store.state.right.cards.ids == [ControlledInputs.id(1)])
    #expect(store.state.drawer.map { Array($0.cards.ids) } == [ControlledInputs.id(2)])
    #expect(store.state.rows[id: 7].map { Array($0.deck.cards.ids) } == [ControlledInputs.id(3)])
  }

  @Test func aReducerCalledWithoutAStoresInputsWarnsWhenItReadsOne() {
    let warnings = WarningLog()
    var deck = Deck()
    RuntimeWarning.$reporter.withValue(warnings.reporter) {
      _ = DeckReducer().reduce(into: &deck, action: .titleChanged("reads nothing"))
      _ = DeckReducer().reduce(into: &deck, action: .addTapped)
    }
    #expect(deck.cards.count == 1, "the system's values were used")
    #expect(
      warnings.messages == [
        "a reducer read a new id from inputs no store handed it (it was called through "
          + "reduce(into:action:)): it got the system's, which no action log records.",
        "a reducer read the date from inputs no store handed it (it was called through "
          + "reduce(into:action:)): it got the system's, which no action log records.",
        "a reducer read a random number from inputs no store handed it (it was called through "
          + "reduce(into:action:)): it got the system's, which no action log records.",
      ])
  }

  @Test func aStepsInputsEncodeWhatItReadAndNothingElse() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    func json(_ inputs: StepInputs) throws -> String {
      String(decoding: try encoder.encode(inputs), as: UTF8.self)
    }
    #expect(try json(StepInputs()) == "{}")
    let read = StepInputs(
      now: Date(timeIntervalSinceReferenceDate: 12.5), ids: [ControlledInputs.id(1)],
      random: [7, .max])
    #expect(
      try json(read)
        == #"{"ids":["00000000-0000-0000-0000-000000000001"],"now":12.5,"random":[7,18446744073709551615]}"#
    )
    #expect(try JSONDecoder().decode(StepInputs.self, from: encoder.encode(read)) == read)
    #expect(try JSONDecoder().decode(StepInputs.self, from: Data("{}".utf8)) == StepInputs())
  }
}

// MARK: - A parent of decks

struct Table: Equatable, Sendable {
  var left = Deck()
  var right = Deck()
  var drawer: Deck? = Deck()
  var rows: IdentifiedList<DeckRow> = [DeckRow(id: 7)]
}

struct DeckRow: Identifiable, Equatable, Sendable {
  let id: Int
  var deck = Deck()
}

enum TableAction: Equatable, Sendable {
  case both(DeckAction)
  case drawer(DeckAction)
  case rows(RowAction<Int, DeckAction>)
}

/// `Scope`s combined, an `ifLet` and a `forEach`, in a parent of its own that passes the
/// inputs on to its body.
struct TableReducer: ReducerWithInputs {
  static let both = CaseKey(embed: TableAction.both) {
    if case .both(let a) = $0 { a } else { nil }
  }
  static let left = ChildFeature("left", of: TableCore.self, state: \.left, action: both)
  static let right = ChildFeature("right", of: TableCore.self, state: \.right, action: both)
  static let drawer = ChildFeature(
    "drawer", of: TableCore.self, state: \.drawer,
    action: CaseKey(embed: TableAction.drawer) { if case .drawer(let a) = $0 { a } else { nil } })
  static let rows = ChildFeature(
    "rows", of: TableCore.self, state: \.rows,
    action: CaseKey(embed: TableAction.rows) { if case .rows(let a) = $0 { a } else { nil } })

  let body = Scope(TableReducer.left) { DeckReducer() }
    .combined(with: Scope(TableReducer.right) { DeckReducer() })
    .combined(
      with: TableCore().ifLet(TableReducer.drawer) { DeckReducer() }
        .forEach(TableReducer.rows) { RowDeckReducer() })

  func reduce(into state: inout Table, action: TableAction, inputs: inout ReducerInputs) -> [Never]
  {
    body.reduce(into: &state, action: action, inputs: &inputs)
  }
}

struct TableCore: Reducer {
  func reduce(into state: inout Table, action: TableAction) -> [Never] { [] }
}

struct RowDeckReducer: ReducerWithInputs {
  func reduce(
    into state: inout DeckRow, action: DeckAction, inputs: inout ReducerInputs
  ) -> [Never] {
    DeckReducer().reduce(into: &state.deck, action: action, inputs: &inputs)
  }
}
