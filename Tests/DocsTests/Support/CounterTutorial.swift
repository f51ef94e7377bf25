import StateStore
import StateStoreTesting
import Testing

// The feature the "Build your own feature" article builds, block for block: the article's
// Swift blocks (its file blocks, without their imports) are runs of this file's lines
// (`BuildingAFeatureTests`), so the printed samples of the article (`DocSamples+Counter.swift`)
// come from the article's own code, and its test runs in this suite.

/// What the counter screen shows.
struct CounterState: Codable, Equatable, Sendable {
  var count = 0
  var fact: String?
  var isLoadingFact = false
}

/// What happened on the counter screen, or came back from its effects.
enum CounterAction: Codable, Equatable, Sendable {
  case decrementButtonTapped
  case incrementButtonTapped
  case factButtonTapped
  case factLoaded(number: Int, fact: String)
  case factFailed(number: Int)
}

/// Work the counter asks for; the effect handler carries it out.
enum CounterEffect: Codable, Equatable, StoreEffect {
  case fetchFact(Int)
}

/// The counter's logic: pure and synchronous.
struct CounterReducer: Reducer, Sendable {
  func reduce(into state: inout CounterState, action: CounterAction) -> [CounterEffect] {
    switch action {
    case .decrementButtonTapped:
      state.count -= 1
      state.fact = nil
      state.isLoadingFact = false
      return []
    case .incrementButtonTapped:
      state.count += 1
      state.fact = nil
      state.isLoadingFact = false
      return []
    case .factButtonTapped:
      state.isLoadingFact = true
      return [.fetchFact(state.count)]
    case .factLoaded(let number, let fact):
      // An answer about a number no longer shown changes nothing.
      guard number == state.count, state.isLoadingFact else { return [] }
      state.isLoadingFact = false
      state.fact = fact
      return []
    case .factFailed(let number):
      guard number == state.count, state.isLoadingFact else { return [] }
      state.isLoadingFact = false
      state.fact = "No fact about \(number) today."
      return []
    }
  }
}

/// Where facts about numbers come from.
protocol NumberFacts: Sendable {
  func fact(about number: Int) async throws -> String
}

/// Facts worked out on the device, so the example needs no network.
struct ArithmeticFacts: NumberFacts {
  func fact(about number: Int) async throws -> String {
    "\(number) is \(number.isMultiple(of: 2) ? "even" : "odd")."
  }
}

/// Carries out the counter's effects and sends what came of them back.
struct CounterEffectHandler: EffectHandler {
  let facts: any NumberFacts

  func handle(_ effect: CounterEffect, send: Send<CounterAction>) async {
    switch effect {
    case .fetchFact(let number):
      do {
        let fact = try await facts.fact(about: number)
        await send(.factLoaded(number: number, fact: fact))
      } catch {
        await send(.factFailed(number: number))
      }
    }
  }
}

@MainActor struct CounterTests {
  struct FixedFacts: NumberFacts {
    func fact(about number: Int) async throws -> String { "\(number) is a fine number." }
  }

  @Test func aFactArrivesForTheNumberShown() async {
    let store = TestStore(
      initialState: CounterState(), reducer: CounterReducer(),
      handler: CounterEffectHandler(facts: FixedFacts()))

    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.factButtonTapped, effects: [.fetchFact(1)]) { $0.isLoadingFact = true }
    await store.receive(.factLoaded(number: 1, fact: "1 is a fine number.")) {
      $0.isLoadingFact = false
      $0.fact = "1 is a fine number."
    }
    await store.finish()
  }
}
