import StateStore
import Testing
import ToolTestSupport

/// A composed feature running in a store: child effects run, answer as parent actions, and
/// are cancelled per place.
@MainActor
struct StoreCompositionTests {
  @Test func childEffectsAnswerAsEmbeddedParentActions() async {
    let store = makeDeskStore()
    await store.send(.left(.emit([.echo("l")]))).finishOrFail()
    await store.send(.right(.emit([.twice("r")]))).finishOrFail()
    #expect(store.state.left.entries == ["answered l"])
    #expect(store.state.right.entries == ["answered r.1", "answered r.2"])
  }

  @Test func twoInstancesOfOneFeatureNeverCancelEachOther() async {
    let probe = Probe()
    let store = makeDeskStore(probe: probe)
    let left = store.send(.left(.emit([.request("l1")])))
    let right = store.send(.right(.emit([.request("r1")])))
    await probe.waitUntilStarted("l1")
    await probe.waitUntilStarted("r1")

    // The left form's next request replaces the left one only.
    let left2 = store.send(.left(.emit([.request("l2")])))
    await probe.waitUntilStarted("l2")
    #expect(probe.cancelled == ["l1"])

    // Cancelling the left group leaves the right request running.
    store.send(.left(.emit([.cancelRequests])))
    await left2.finishOrFail()
    #expect(probe.cancelled == ["l1", "l2"])
    probe.release("r1")
    await right.finishOrFail()
    await left.finishOrFail()
    #expect(store.state.right.entries == ["answered r1"])
    #expect(store.state.left.entries.isEmpty)
  }

  @Test func anOptionalChildsEffectsEndWhenItGoesAway() async {
    let probe = Probe()
    let store = makeDeskStore(probe: probe)
    let outside = store.send(.left(.emit([.held("outside")])))
    store.send(.openDrawer)
    let inside = store.send(.drawer(.emit([.held("plain"), .request("grouped")])))
    await probe.waitUntilStarted("plain")
    await probe.waitUntilStarted("grouped")
    #expect(store.runningEffectCount == 3)

    store.send(.closeDrawer)
    // Bounded: a dismissal that cancels nothing fails here instead of hanging the suite.
    #expect(await inside.finish(within: .seconds(60)), "closing the drawer cancelled nothing")
    #expect(probe.cancelled == ["grouped", "plain"])
    #expect(store.state.drawer == nil)

    // What the closed drawer's effects would have sent is gone; the left child still runs.
    probe.release("plain")
    probe.release("outside")
    await outside.finishOrFail()
    #expect(store.state.left.entries == ["answered outside"])
    #expect(store.state.drawer == nil)
    #expect(store.runningEffectCount == 0)
  }

  @Test func aReopenedOptionalChildStartsAfresh() async {
    let probe = Probe()
    let store = makeDeskStore(probe: probe)
    store.send(.openDrawer)
    let old = store.send(.drawer(.emit([.held("old")])))
    await probe.waitUntilStarted("old")
    store.send(.closeDrawer)
    #expect(await old.finish(within: .seconds(60)), "closing the drawer cancelled nothing")
    store.send(.openDrawer)
    await store.send(.drawer(.emit([.echo("new")]))).finishOrFail()
    #expect(store.state.drawer?.entries == ["answered new"])
    #expect(probe.cancelled == ["old"])
  }

  @Test func anActionForAnAbsentChildSentToTheStoreIsIgnoredReportedAndStartsNothing() async {
    let warnings = WarningLog()
    let store = makeDeskStore()
    await RuntimeWarning.$reporter.withValue(warnings.reporter) {
      // No drawer: the action is dropped by the reducer, with a warning, and nothing runs.
      await store.send(.drawer(.emit([.echo("x")]))).finishOrFail()
    }
    #expect(store.state == Desk.State())
    #expect(store.runningEffectCount == 0)
    #expect(warnings.messages.count == 1)
  }

  @Test func aStoreCancelsAChildsGroupOrEverythingItStartedByNamespace() async {
    let probe = Probe()
    let store = makeDeskStore(probe: probe)
    store.send(.openDrawer)
    let tasks = [
      store.send(.left(.emit([.request("l")]))),
      store.send(.right(.emit([.request("r"), .held("rh")]))),
      store.send(.drawer(.emit([.held("d")]))),
    ]
    for name in ["l", "r", "rh", "d"] { await probe.waitUntilStarted(name) }

    store.cancel("request", in: ["left"])
    await tasks[0].finishOrFail()
    #expect(probe.cancelled == ["l"])

    store.cancel("request")  // the root namespace has no such group
    store.cancelAll(in: ["right"])
    await tasks[1].finishOrFail()
    #expect(probe.cancelled == ["l", "r", "rh"])

    store.cancelAll(in: [])
    await tasks[2].finishOrFail()
    #expect(probe.cancelled == ["d", "l", "r", "rh"])
    #expect(store.runningEffectCount == 0)
  }

  @Test func liftedHandlersCombineIntoTheParentsHandler() async {
    let probe = Probe()
    let journal = JournalHandler(probe: probe)
    let handler = journal.lifted(into: Desk.left)
      .combined(with: journal.lifted(into: Desk.right))
      .combined(with: journal.lifted(into: Desk.drawer))
    let store = Store(initialState: Desk.State(), reducer: Desk(), handler: handler)
    store.send(.openDrawer)
    await store.send(.left(.emit([.echo("a")]))).finishOrFail()
    await store.send(.right(.emit([.echo("b")]))).finishOrFail()
    await store.send(.drawer(.emit([.echo("c")]))).finishOrFail()
    await store.send(.closeDrawer).finishOrFail()
    #expect(store.state.left.entries == ["answered a"])
    #expect(store.state.right.entries == ["answered b"])
    // Each effect was carried out once, by the one handler that knows it.
    #expect(probe.started == ["a", "b", "c"])
  }

  @Test func anEmbeddingSendDropsActionsFromCancelledTasks() async {
    let delivered = Guarded<[Desk.Action]>([])
    let send = Send<Desk.Action> { action in delivered.withLock { $0.append(action) } }
    let child = send.embedding(Desk.right.action)
    await child(.append("kept"))
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await child(.append("dropped"))
    }
    await task.value
    #expect(delivered.withLock { $0 } == [.right(.append("kept"))])
  }
}
