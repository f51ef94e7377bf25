import Foundation
import StateStore

/// A feature whose reducer reads every input the store hands it: an added card gets a new id,
/// the date and a die roll; a reroll draws a random number. For the tests of reducer inputs: a
/// test store that fixes them, a log that records them, a replay that hands them back.
package struct Card: Identifiable, Equatable, Codable, Sendable {
  package let id: UUID
  package var createdAt: Date
  package var roll: Int

  package init(id: UUID, createdAt: Date, roll: Int) {
    self.id = id
    self.createdAt = createdAt
    self.roll = roll
  }
}

package struct Deck: Equatable, Codable, Sendable {
  package var cards: IdentifiedList<Card> = []
  package var title = ""

  package init() {}
}

package enum DeckAction: Equatable, Codable, Sendable {
  /// A card with a new id, the date and a roll of a die.
  case addTapped
  /// The card's die rolled again.
  case rerollTapped(UUID)
  /// Reads no input.
  case titleChanged(String)
}

package struct DeckReducer: ReducerWithInputs {
  package init() {}

  package func reduce(
    into state: inout Deck, action: DeckAction, inputs: inout ReducerInputs
  ) -> [Never] {
    switch action {
    case .addTapped:
      let id = inputs.newID()
      state.cards.append(
        Card(id: id, createdAt: inputs.now, roll: Int.random(in: 1...6, using: &inputs)))
    case .rerollTapped(let id):
      state.cards[id: id]?.roll = Int.random(in: 1...6, using: &inputs)
    case .titleChanged(let title):
      state.title = title
    }
    return []
  }
}
