import StateStore
import Testing

/// Many senders, effects finishing out of order, stores dropped mid-flight.
@MainActor
struct StoreStressTests {
  @Test func everyActionIsReducedOnceInTheOrderTheStoreReceivedIt() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    var reduced: [Journal.Action] = []
    var sequenceNumbers: [Int] = []
    let subscription = store.observeTransitions { transition in
      reduced.append(transition.action)
      sequenceNumbers.append(transition.sequenceNumber)
    }

    // 20 tasks × 50 sends. Each send is logged on the main actor right before the store gets
    // it, which is the order the store receives user actions in.
    let log = SendLog()
    let senders = (0..<20).map { sender in
      Task { @MainActor in
        for index in 0..<50 {
          let action: Journal.Action =
            index.isMultiple(of: 5)
            ? .emit([.twice("s\(sender)-\(index)")])
            : .append("s\(sender)-\(index)")
          log.received.append(action)
          log.tasks.append(store.send(action))
          await Task.yield()
        }
      }
    }
    for sender in senders { await sender.value }
    for task in log.tasks { await task.finishOrFail() }
    let received = log.received

    #expect(sequenceNumbers == Array(1...sequenceNumbers.count))
    let userActions = reduced.filter {
      if case .answered = $0 { return false }
      return true
    }
    #expect(userActions == received)
    // Every effect answered twice, each answer reduced exactly once.
    let answers = reduced.compactMap { action -> String? in
      guard case .answered(let name) = action else { return nil }
      return name
    }
    #expect(answers.count == 20 * 10 * 2)
    #expect(Set(answers).count == answers.count)
    // Within one effect, its two answers arrive in the order it sent them.
    for sender in 0..<20 {
      for index in stride(from: 0, to: 50, by: 5) {
        let first = answers.firstIndex(of: "s\(sender)-\(index).1")
        let second = answers.firstIndex(of: "s\(sender)-\(index).2")
        #expect(first != nil && second != nil && first! < second!)
      }
    }
    #expect(store.runningEffectCount == 0)
    subscription.cancel()
  }

  @Test func effectsThatFinishOutOfOrderAreAllDelivered() async {
    let probe = Probe()
    let store = makeJournalStore(probe: probe)
    let names = (0..<100).map { "held-\($0)" }
    let task = store.send(.emit(names.map(Journal.Effect.held)))
    for name in names { await probe.waitUntilStarted(name) }
    var random = SystemRandomNumberGenerator()
    for name in names.shuffled(using: &random) { probe.release(name) }
    await task.finishOrFail()
    #expect(Set(store.state.entries) == Set(names.map { "answered \($0)" }))
    #expect(store.state.entries.count == 100)
  }

  @Test func tenThousandStoresWithEffectsInFlightAreAllDeallocated() async {
    let probe = Probe()
    let witness = Probe()
    var weakStores: [WeakStore] = []
    var tasks: [StoreTask] = []
    for index in 0..<10_000 {
      let store = makeJournalStore(probe: probe, witness: witness)
      tasks.append(store.send(.emit([.held("store-\(index)")])))
      weakStores.append(WeakStore(store))
    }
    // Every store is gone as soon as its last reference is: effects hold none.
    #expect(weakStores.allSatisfy { $0.store == nil })
    for task in tasks { await task.finishOrFail() }
    // Their effects were cancelled, and nothing reached a reducer after the stores went away.
    #expect(probe.started.count == 10_000)
    #expect(probe.cancelled.count == 10_000)
    #expect(witness.started.count == 10_000)
  }
}

@MainActor
private final class SendLog {
  var received: [Journal.Action] = []
  var tasks: [StoreTask] = []
}

@MainActor
private struct WeakStore {
  weak var store: Store<Journal>?

  init(_ store: Store<Journal>) {
    self.store = store
  }
}
