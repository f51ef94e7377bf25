import StateStore
import Testing

@MainActor
struct StoreEffectsTests {
  @Test func finishAwaitsEffectsAndTheActionsTheySent() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    await store.send(.emit([.twice("t"), .chain("c")])).finishOrFail()
    // chain → emit([.echo("c.child")]) → answered: two levels below the first send.
    #expect(
      Set(store.state.entries) == ["answered t.1", "answered t.2", "answered c.child"])
    #expect(
      store.state.entries.firstIndex(of: "answered t.1")! < store.state.entries.firstIndex(
        of: "answered t.2")!)
    #expect(store.runningEffectCount == 0)
  }

  @Test func finishWithoutEffectsReturnsAtOnce() async {
    let store = makeJournalStore()
    let task = store.send(.append("a"))
    #expect(!task.hasEffects)
    await task.finishOrFail()
    #expect(store.state.entries == ["a"])
  }

  @Test func cancellingAStoreTaskCancelsItsEffectsAndDropsTheirActions() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let task = store.send(.emit([.held("h")]))
    await probe.waitUntilStarted("h")
    task.cancel()
    await task.finishOrFail()
    #expect(task.isCancelled)
    #expect(probe.cancelled == ["h"])
    #expect(store.state.entries.isEmpty)
    #expect(store.runningEffectCount == 0)
  }

  @Test func cancellingOneTaskLeavesOthersRunning() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let first = store.send(.emit([.held("first")]))
    let second = store.send(.emit([.held("second")]))
    await probe.waitUntilStarted("first")
    await probe.waitUntilStarted("second")
    first.cancel()
    probe.release("second")
    await second.finishOrFail()
    await first.finishOrFail()
    #expect(store.state.entries == ["answered second"])
    #expect(probe.cancelled == ["first"])
  }

  @Test func newEffectInAGroupCancelsTheOneInFlight() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let first = store.send(.emit([.request("one")]))
    await probe.waitUntilStarted("one")
    let second = store.send(.emit([.request("two")]))
    await first.finishOrFail()
    #expect(probe.cancelled == ["one"])
    probe.release("two")
    await second.finishOrFail()
    #expect(store.state.entries == ["answered two"])
  }

  @Test func cancellingEffectCancelsTheGroupAndStillReachesTheHandler() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let request = store.send(.emit([.request("r")]))
    await probe.waitUntilStarted("r")
    await store.send(.emit([.cancelRequests])).finishOrFail()
    await request.finishOrFail()
    #expect(probe.cancelled == ["r"])
    #expect(probe.started == ["r", "cancelRequests"])
    #expect(store.state.entries.isEmpty)
  }

  @Test func effectsAreAppliedInTheOrderTheReducerReturnedThem() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    // The cancel comes after the request: the request is cancelled.
    let task = store.send(.emit([.request("before"), .cancelRequests]))
    await task.finishOrFail()
    #expect(probe.cancelled == ["before"])

    // The cancel comes first: the request that follows it runs.
    let next = store.send(.emit([.cancelRequests, .request("after")]))
    await probe.waitUntilStarted("after")
    probe.release("after")
    await next.finishOrFail()
    #expect(store.state.entries == ["answered after"])
  }

  @Test func cancelByIDCancelsOnlyThatGroup() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let request = store.send(.emit([.request("r")]))
    let held = store.send(.emit([.held("h")]))
    await probe.waitUntilStarted("r")
    await probe.waitUntilStarted("h")
    store.cancel("request")
    await request.finishOrFail()
    #expect(probe.cancelled == ["r"])
    #expect(store.runningEffectCount == 1)
    probe.release("h")
    await held.finishOrFail()
    #expect(store.state.entries == ["answered h"])
  }

  @Test func cancelAllCancelsEveryEffect() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let task = store.send(.emit([.held("a"), .request("b")]))
    await probe.waitUntilStarted("a")
    await probe.waitUntilStarted("b")
    #expect(store.runningEffectCount == 2)
    store.cancelAll()
    await task.finishOrFail()
    #expect(probe.cancelled == ["a", "b"])
    #expect(store.runningEffectCount == 0)
    #expect(store.state.entries.isEmpty)
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let probe = Probe()
    var store: Store<Journal>? = makeJournalStore(probe: probe)
    weak let weakStore = store
    let task = store?.send(.emit([.held("orphan")]))
    await probe.waitUntilStarted("orphan")
    store = nil
    #expect(weakStore == nil)
    await task?.finishOrFail()
    #expect(probe.cancelled == ["orphan"])
  }

  @Test func sendDeliversToItsClosureOnTheMainActor() async {
    var delivered: [Journal.Action] = []
    let send = Send<Journal.Action> { delivered.append($0) }
    await JournalHandler(probe: Probe()).handle(.twice("direct"), send: send)
    #expect(delivered == [.answered("direct.1"), .answered("direct.2")])
  }

  @Test func actionsSentAfterTheStoreIsGoneAreNeverReduced() async {
    let probe = Probe()
    let witness = Probe()
    var store: Store<Journal>? = makeJournalStore(probe: probe, witness: witness)
    weak let weakStore = store
    let task = store?.send(.emit([.stubborn("late")]))
    await probe.waitUntilStarted("late")
    store = nil
    #expect(weakStore == nil)
    probe.release("late")
    await task?.finishOrFail()
    // The handler ignored cancellation and sent anyway; nothing reached a reducer.
    #expect(probe.started == ["late", "late sent"])
    #expect(witness.started.count == 1)
    #expect(witness.started.first?.hasPrefix("reduced emit(") == true)
  }

  @Test func actionsSentByACancelledEffectAreDropped() async {
    let probe = Probe()
    let witness = Probe()
    let store = makeJournalStore(probe: probe, witness: witness)
    let task = store.send(.emit([.stubborn("ignored")]))
    await probe.waitUntilStarted("ignored")
    task.cancel()
    probe.release("ignored")
    await task.finishOrFail()
    #expect(probe.started == ["ignored", "ignored sent"])
    #expect(store.state.entries.isEmpty)
    #expect(witness.started.count == 1)
  }

  @Test func cancelledQueuedActionStartsNoEffects() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    var queued: StoreTask?
    let subscription = store.observe { state in
      if state.entries == ["trigger"], queued == nil {
        queued = store.send(.emit([.echo("never")]))
        queued?.cancel()
      }
    }
    store.send(.append("trigger"))
    await queued?.finishOrFail()
    #expect(probe.started.isEmpty)
    #expect(store.state.entries == ["trigger"])
    subscription.cancel()
  }
}
