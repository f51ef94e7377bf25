import Foundation
import StateStore
import StateStoreTesting
import Testing
import ToolTestSupport

/// A test store controls what its reducer reads: the date it sets, ids `0, 1, 2, …`, and a
/// generator seeded with 0 unless it seeds another.
@MainActor struct TestStoreInputsTests {
  @Test func aTestStoreSetsTheDateCountsIdsAndSeedsRandomNumbers() async {
    let store = TestStore(initialState: Deck(), reducer: DeckReducer())
    var random = SeededGenerator(seed: 0)
    let first = Int.random(in: 1...6, using: &random)
    await store.send(.addTapped) {
      $0.cards = [
        Card(
          id: ControlledInputs.id(0), createdAt: Date(timeIntervalSinceReferenceDate: 0),
          roll: first)
      ]
    }

    let date = Date(timeIntervalSince1970: 1_800_000_000)
    store.inputs.now = date
    let second = Int.random(in: 1...6, using: &random)
    await store.send(.addTapped) {
      $0.cards.append(Card(id: ControlledInputs.id(1), createdAt: date, roll: second))
    }

    store.inputs.nextID = 100
    store.inputs.random = SeededGenerator(seed: 7)
    var seven = SeededGenerator(seed: 7)
    let third = Int.random(in: 1...6, using: &seven)
    await store.send(.addTapped) {
      $0.cards.append(Card(id: ControlledInputs.id(100), createdAt: date, roll: third))
    }
    #expect(store.state.cards.ids.last?.uuidString == "00000000-0000-0000-0000-000000000064")
    #expect(store.inputs.nextID == 101)
    await store.finish()
  }

  @Test func twoTestStoresReadTheSameValues() async {
    let one = TestStore(initialState: Deck(), reducer: DeckReducer())
    let two = TestStore(initialState: Deck(), reducer: DeckReducer())
    one.exhaustivity = .off
    two.exhaustivity = .off
    for _ in 0..<5 {
      await one.send(.addTapped)
      await two.send(.addTapped)
    }
    #expect(one.state == two.state)
    #expect(one.state.cards.ids == (0..<5).map { ControlledInputs.id($0) })
    await one.finish()
    await two.finish()
  }
}
