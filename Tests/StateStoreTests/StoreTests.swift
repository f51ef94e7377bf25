import StateStore
import Testing

@MainActor
struct StoreTests {
  @Test func sendReducesBeforeItReturns() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    store.send(.append("a"))
    #expect(store.state.entries == ["a"])
    #expect(store.lastSequenceNumber == 1)
  }

  @Test func actionsSentWhileNotifyingAreQueuedAndReducedInOrder() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    var seenInsideCallback: [[String]] = []
    let subscription = store.observe { state in
      guard state.entries == ["a"] else { return }
      store.send(.append("from observer 1"))
      store.send(.append("from observer 2"))
      // Not reduced yet: the reducer is never entered re-entrantly.
      seenInsideCallback.append(store.state.entries)
    }
    store.send(.append("a"))
    #expect(seenInsideCallback == [["a"]])
    #expect(store.state.entries == ["a", "from observer 1", "from observer 2"])
    #expect(store.lastSequenceNumber == 3)
    subscription.cancel()
  }

  @Test func actionsSentFromTransitionObserversAreQueuedToo() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    var sequence: [Int] = []
    let subscription = store.observeTransitions { transition in
      sequence.append(transition.sequenceNumber)
      if transition.action == .append("first") { store.send(.append("second")) }
    }
    store.send(.append("first"))
    store.send(.append("third"))
    #expect(store.state.entries == ["first", "second", "third"])
    #expect(sequence == [1, 2, 3])
    subscription.cancel()
  }

  @Test func transitionsCarryOriginEffectsAndBothStates() async {
    let store = makeJournalStore()
    var transitions: [Transition<Journal.State, Journal.Action, Journal.Effect>] = []
    let subscription = store.observeTransitions { transitions.append($0) }
    await store.send(.emit([.echo("x")])).finishOrFail()

    #expect(
      transitions == [
        Transition(
          sequenceNumber: 1, origin: .user, action: .emit([.echo("x")]),
          effects: [.echo("x")], stateBefore: Journal.State(), stateAfter: Journal.State()),
        Transition(
          sequenceNumber: 2, origin: .effect, action: .answered("x"), effects: [],
          stateBefore: Journal.State(), stateAfter: Journal.State(entries: ["answered x"])),
      ])
    subscription.cancel()
  }

  @Test func storeWithoutHandlerRunsNoEffects() async {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    let task = store.send(.emit([.echo("x")]))
    await task.finishOrFail()
    #expect(store.runningEffectCount == 0)
    #expect(store.state.entries.isEmpty)
  }

  @Test func releasedSubscriptionStopsCallbacks() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    var calls = 0
    var subscription: StoreSubscription? = store.observe { _ in calls += 1 }
    store.send(.append("a"))
    subscription = nil
    store.send(.append("b"))
    #expect(calls == 1)
    #expect(subscription == nil)
  }

  @Test func cancelledSubscriptionStopsCallbacksAndCancelIsIdempotent() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    var states: [[String]] = []
    let subscription = store.observe { states.append($0.entries) }
    store.send(.append("a"))
    subscription.cancel()
    subscription.cancel()
    store.send(.append("b"))
    #expect(states == [["a"]])
  }
}
