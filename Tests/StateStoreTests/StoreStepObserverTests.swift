import StateStore
import Testing

/// `observeSteps` hands over what a recorder needs without making the store keep the state
/// before an action: the reducer's write then finds the state's storage its own.
@MainActor
struct StoreStepObserverTests {
  /// Storage a reducer can ask "am I the only one holding you?".
  final class Storage: Sendable {}

  struct Probe: Reducer {
    struct State: Sendable {
      var storage = Storage()
      var count = 0
      var uniqueWrites: [Bool] = []
    }

    func reduce(into state: inout State, action: Int) -> [Never] {
      state.uniqueWrites.append(isKnownUniquelyReferenced(&state.storage))
      state.count += action
      return []
    }
  }

  @Test func aStepObserverLeavesTheReducersStateItsOwn() {
    let store = Store(initialState: Probe.State(), reducer: Probe())
    store.send(1)
    var steps: [StoreStep<Probe.State, Int, Never>] = []
    let subscription = store.observeSteps { steps.append($0) }
    store.send(2)
    steps.removeAll()  // a host that keeps a step holds the state after: let it go
    store.send(3)
    steps.removeAll()
    #expect(store.state.uniqueWrites == [true, true, true])
    subscription.cancel()
  }

  @Test func aTransitionObserverMakesTheStoreKeepTheStateBefore() {
    let store = Store(initialState: Probe.State(), reducer: Probe())
    store.send(1)
    let subscription = store.observeTransitions { _ in }
    store.send(2)
    store.send(3)
    #expect(store.state.uniqueWrites == [true, false, false])
    subscription.cancel()
    // Once it is gone, the store stops keeping it.
    store.send(4)
    #expect(store.state.uniqueWrites.last == true)
  }

  @Test func stepsCarryTheActionEffectsAndStateAfterInOrderWithTransitions() {
    let store = Store(initialState: Probe.State(), reducer: Probe())
    var seen: [String] = []
    let first = store.observeSteps {
      seen.append("step \($0.sequenceNumber): \($0.stateAfter.count)")
    }
    let second = store.observeTransitions {
      seen.append("transition \($0.sequenceNumber): \($0.stateBefore.count)→\($0.stateAfter.count)")
    }
    let third = store.observeSteps {
      seen.append("step' \($0.sequenceNumber) \($0.action) \($0.origin)")
    }
    store.send(5)
    store.send(2)
    #expect(
      seen == [
        "step 1: 5", "transition 1: 0→5", "step' 1 5 user",
        "step 2: 7", "transition 2: 5→7", "step' 2 2 user",
      ])
    for subscription in [first, second, third] { subscription.cancel() }
    store.send(1)
    #expect(seen.count == 6)
  }
}
