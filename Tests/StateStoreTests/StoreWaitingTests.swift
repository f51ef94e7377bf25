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
    await task.finish()
    #expect(store.state.entries == ["answered answer", "answered alert"])
  }

  @Test func aStateThatPassesByIsNotMissed() async {
    let store = makeJournalStore()
    store.send(.emit([.twice("t")]))
    // The second answer may be reduced before this task runs again; the first still counts.
    let state = await store.state(where: { $0.entries.last == "answered t.1" })
    #expect(state?.entries == ["answered t.1"])
    await store.state(where: { $0.entries.count == 2 })
    #expect(store.state.entries == ["answered t.1", "answered t.2"])
  }

  @Test func aCancelledWaitReturnsNil() async {
    let store = makeJournalStore()
    let wait = Task { await store.state(where: { $0.entries.contains("never") }) }
    wait.cancel()
    #expect(await wait.value == nil)
  }
}
