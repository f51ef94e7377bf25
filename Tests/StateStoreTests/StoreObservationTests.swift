import Observation
import StateStore
import Testing

@MainActor
struct StoreObservationTests {
  /// Reads the store's state inside `withObservationTracking`, counting the change it hears.
  private func track(_ store: Store<Journal>, counting changes: Counter) {
    withObservationTracking {
      _ = store.state
    } onChange: {
      changes.increment()
    }
  }

  @Test func observationTrackingFiresOnSend() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    let changes = Counter()
    track(store, counting: changes)
    store.send(.append("a"))
    #expect(changes.value == 1)
  }

  /// A store tells Observation of its steps only once its state was read (no dependency can
  /// exist before): tracking that begins after sends nobody read still hears the next one.
  @Test func trackingThatBeginsAfterUnreadSendsHearsTheNextSend() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    store.send(.append("a"))
    store.send(.append("b"))
    let changes = Counter()
    track(store, counting: changes)
    #expect(changes.value == 0)
    store.send(.append("c"))
    #expect(changes.value == 1)
    track(store, counting: changes)
    store.send(.append("d"))
    #expect(changes.value == 2)
  }

  @Test func observersSeeEveryStateInOrder() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    var seen: [[String]] = []
    let first = store.observe { seen.append($0.entries) }
    store.send(.append("a"))
    store.send(.append("b"))
    #expect(seen == [["a"], ["a", "b"]])
    first.cancel()
  }

  /// Observers cancelled in the order they subscribed (as a list's rows release theirs), some
  /// out of order and some twice, leave exactly the others called, in the order they
  /// subscribed: on a store's state, its transitions and a handle's slice alike.
  @Test func cancelledObserversAreSkippedAndTheRestKeepTheirOrder() {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    let handle = store.scope(state: \.entries, action: { (entry: String) in .append(entry) })
    var called: [String] = []
    var subscriptions: [(name: String, subscription: StoreSubscription)] = []
    for index in 0..<300 {
      switch index % 3 {
      case 0: subscriptions.append(("s\(index)", store.observe { _ in called.append("s\(index)") }))
      case 1:
        subscriptions.append(
          ("t\(index)", store.observeTransitions { _ in called.append("t\(index)") }))
      default:
        subscriptions.append(("h\(index)", handle.observe { _ in called.append("h\(index)") }))
      }
    }
    // The first 200 in the order they subscribed, then every seventh of the rest, each of
    // those twice.
    for index in 0..<200 { subscriptions[index].subscription.cancel() }
    for index in stride(from: 200, to: 300, by: 7) {
      subscriptions[index].subscription.cancel()
      subscriptions[index].subscription.cancel()
    }
    let left = (200..<300).filter { ($0 - 200) % 7 != 0 }.map { subscriptions[$0].name }

    store.send(.append("a"))
    // The store calls its state observers, then the handles, then the transition observers.
    let expected =
      left.filter { $0.hasPrefix("s") } + left.filter { $0.hasPrefix("h") }
      + left.filter { $0.hasPrefix("t") }
    #expect(called == expected)
    #expect(called.count == 85)

    called = []
    for index in 200..<300 { subscriptions[index].subscription.cancel() }
    store.send(.append("b"))
    #expect(called.isEmpty)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func stateStreamStartsWithTheCurrentStateAndFollowsEveryChange() async {
    let store = Store(initialState: Journal.State(entries: ["initial"]), reducer: Journal())
    let stream = store.states()
    store.send(.append("a"))
    store.send(.append("b"))
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.entries == ["initial"])
    #expect(await iterator.next()?.entries == ["initial", "a"])
    #expect(await iterator.next()?.entries == ["initial", "a", "b"])
  }

  @Test func stateStreamFinishesWhenTheStoreGoesAway() async {
    var store: Store<Journal>? = Store(initialState: Journal.State(), reducer: Journal())
    let stream = store!.states()
    store?.send(.append("a"))
    store = nil
    var received: [[String]] = []
    for await state in stream { received.append(state.entries) }
    #expect(received == [[], ["a"]])
  }

  @Test func stateStreamKeepsOnlyTheNewestWhenAsked() async {
    let store = Store(initialState: Journal.State(), reducer: Journal())
    let stream = store.states(bufferingPolicy: .bufferingNewest(1))
    store.send(.append("a"))
    store.send(.append("b"))
    var iterator = stream.makeAsyncIterator()
    #expect(await iterator.next()?.entries == ["a", "b"])
  }

  @Test func effectOriginIsReportedForActionsFromHandlers() async {
    let store = makeJournalStore()
    var origins: [ActionOrigin] = []
    let subscription = store.observeTransitions { origins.append($0.origin) }
    await store.send(.emit([.twice("x")])).finishOrFail()
    #expect(origins == [.user, .effect, .effect])
    subscription.cancel()
  }

  @Test func aPersonsAnswerAnEffectCarriesKeepsTheUserOriginThroughAChild() async {
    // A handler that waits for a person (an alert) sends the answer as the person's, and an
    // embedding `Send` keeps the origin on its way into the parent.
    struct Answering: EffectHandler {
      func handle(_ effect: Journal.Effect, send: Send<Journal.Action>) async {
        await send(.answered("machine"))
        await send(.answered("person"), origin: .user)
      }
    }
    let store = Store(
      initialState: Desk.State(), reducer: Desk(),
      handler: Answering().lifted(into: Desk.left))
    var steps: [String] = []
    let subscription = store.observeTransitions {
      steps.append("\($0.origin) \(Dump.renderOneLine($0.action))")
    }
    await store.send(.left(.emit([.echo("e")]))).finishOrFail()
    #expect(
      steps == [
        #"user Desk.Action.left(Journal.Action.emit([Journal.Effect.echo("e")]))"#,
        #"effect Desk.Action.left(Journal.Action.answered("machine"))"#,
        #"user Desk.Action.left(Journal.Action.answered("person"))"#,
      ])
    subscription.cancel()
  }
}

private final class Counter: Sendable {
  private let storage = Guarded(0)
  var value: Int { storage.withLock { $0 } }
  func increment() { storage.withLock { $0 += 1 } }
}
