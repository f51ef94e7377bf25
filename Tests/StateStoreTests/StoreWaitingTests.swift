import StateStore
import Testing

/// `state(where:)`: the state a host waits for, without waiting for every effect.
@MainActor
struct StoreWaitingTests {
  @Test func theCurrentStateCountsWhenItAlreadyMeetsTheCondition() async {
    let store = makeJournalStore()
    store.send(.append("a"))
    let state = await store.state(where: { $0.entries.contains("a") })
    #expect(state?.entries == ["a"])
  }

  @Test func itReturnsAtTheAnswerWhileAnotherEffectOfTheActionStillRuns() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    // An answer that comes at once, and an effect that waits like an alert nobody closes.
    let task = store.send(.emit([.echo("answer"), .held("alert")]))
    let state = await store.state(where: { $0.entries.contains("answered answer") })
    #expect(state?.entries == ["answered answer"])
    // `task.finish()` would still be waiting here.
    #expect(store.runningEffectCount >= 1)
    probe.release("alert")
    await task.finishOrFail()
    #expect(store.state.entries == ["answered answer", "answered alert"])
  }

  @Test(.timeLimit(.minutes(5))) func aStateThatPassesByIsNotMissed() async {
    let store = makeJournalStore()
    var sent = false
    // On its first call (the current state), the condition sends two actions at once: the
    // state after the first is gone before the wait sees anything, and still counts.
    let state = await store.state(where: { state in
      if !sent {
        sent = true
        store.send(.append("a"))
        store.send(.append("b"))
      }
      return state.entries.last == "a"
    })
    #expect(state?.entries == ["a"])
    #expect(store.state.entries == ["a", "b"])
  }

  @Test func aCancelledWaitReturnsNil() async {
    let store = makeJournalStore()
    let wait = Task { await store.state(where: { $0.entries.contains("never") }) }
    wait.cancel()
    #expect(await wait.value == nil)
  }
}
