import StateStore
import StateStoreTesting
import Testing

@MainActor
struct TestStoreReceiveTests {
  @Test func receiveAwaitsEveryActionAnEffectSends() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped, effects: [.load(steps: 2)])
    await store.receive(.progressed(1)) { $0.progress = [1] }
    await store.receive(.progressed(2)) { $0.progress = [1, 2] }
    await store.receive(.finished) { $0.isDone = true }
    await store.finish()
  }

  @Test func receiveFailsWithADiffWhenAnotherActionArrived() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped)
    await expectFailures(
      [
        """
        Received an action that differs from the expected one.

          − LoaderAction.progressed(2)
          + LoaderAction.progressed(1)

        (Expected: −, Actual: +)
        Expect the action that arrived, or fix the effect handler or the reducer.
        """
      ], line: #line + 2
    ) {
      await store.receive(.progressed(2)) { $0.progress = [2] }
    }
    store.exhaustivity = .off
    await store.finish()
  }

  @Test func receiveChecksTheStateTheActionLedTo() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: SearchHandler(clock: clock))
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    await clock.advance(by: .milliseconds(300))
    await expectFailures(
      [
        """
        State after receive(SearchAction.resultsLoaded(
          [
            [0]: "A"
          ]
        )) differs from the expected state.

            SearchState(
              query: "a",
              results: [
                [0]: "A"
              ],
          −   isSearching: true,
          +   isSearching: false,
              token: Secret(Aaa0a)
            )

        (Expected: −, Actual: +)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.receive(.resultsLoaded(["A"])) { $0.results = ["A"] }
    }
    await store.finish()
  }

  @Test func receiveTimesOutNamingWhatArrivedAndWhatStillRuns() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: SearchHandler(clock: clock))
    await store.send(.queryChanged("a"), effects: [.search("a")]) {
      $0.query = "a"
      $0.isSearching = true
    }
    await expectFailures(
      [
        """
        Timed out after 0.05 seconds waiting to receive SearchAction.cancelTapped.

        Received since the last send:
          (none)
        Still running: 1 effect.

        If an effect sleeps on a TestClock, advance the clock first; if it waits on a fake, \
        resolve it; or pass a longer timeout.
        """
      ], line: #line + 2
    ) {
      await store.receive(.cancelTapped, timeout: .milliseconds(50))
    }
    await store.send(.cancelTapped, effects: [.cancelSearch]) { $0.isSearching = false }
    await store.finish()
  }

  @Test func receiveFailsAtOnceWhenNoEffectIsRunning() async {
    let store = TestStore(initialState: SearchState(), reducer: Search(), handler: SilentHandler())
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    // The headline says it: "no effect is running" comes from a wait that ended as the last
    // effect finished; one that ran to its 30 s would say "Timed out after 30.0 seconds".
    await expectFailures(
      [
        """
        Expected to receive SearchAction.cancelTapped, but no effect is running to send it.

        Received since the last send:
          (none)

        Check that the reducer returns the effect that sends it, and that the handler sends it.
        """
      ]
    ) {
      await store.receive(.cancelTapped, timeout: .seconds(30))
    }
  }

  @Test func receiveWithoutAHandlerExplainsWhy() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await expectFailures(
      [
        """
        receive(CounterAction.increment) needs effects that run, but this test store has no \
        effect handler.

        Create the TestStore with a handler (fakes) to run effects, or send the effect's answer \
        with send(_:).
        """
      ]
    ) {
      await store.receive(.increment)
    }
  }

  @Test func sendingBeforeReceivingWhatArrivedFails() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped)
    await store.receive(.progressed(1)) { $0.progress = [1] }
    await store.receive(.progressed(2)) { $0.progress = [1, 2] }
    // Wait for the last action without asserting it, then send. An action sent to the store
    // behind the test store's back arrived too: it must be received like an effect's.
    _ = await store.store.state(where: \.isDone)
    await store.store.send(.loadTapped).finish()
    await expectFailures(
      [
        """
        Before send(LoaderAction.progressed(9)), 5 actions sent by effects were not received.

          LoaderAction.finished
          LoaderAction.loadTapped
          LoaderAction.progressed(1)
          LoaderAction.progressed(2)
          LoaderAction.finished

        Assert each with receive(_:assert:) first, or call skipReceivedActions().
        """
      ]
    ) {
      await store.send(.progressed(9)) { $0.progress = [1, 2, 1, 2, 9] }
    }
    await store.finish()
  }

  @Test func nonExhaustiveReceiveSkipsToTheExpectedAction() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    store.exhaustivity = .off
    await store.send(.loadTapped)
    await store.receive(.finished) {
      $0.progress = [1, 2]
      $0.isDone = true
    }
    await store.finish()
  }

  @Test func nonExhaustiveTimeoutNamesTheSkippedActions() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    store.exhaustivity = .off
    await store.send(.loadTapped)
    await expectFailures(
      [
        """
        Expected to receive LoaderAction.progressed(3), but no effect is running to send it.

        Received since the last send:
          LoaderAction.progressed(1)
          LoaderAction.progressed(2)
          LoaderAction.finished

        Check that the reducer returns the effect that sends it, and that the handler sends it.
        """
      ]
    ) {
      await store.receive(.progressed(3))
    }
  }
}

@MainActor
struct TestStoreReceiveWhereTests {
  @Test func receiveWhereMatchesWithAPredicate() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped)
    let isProgress: (LoaderAction) -> Bool = {
      if case .progressed = $0 { true } else { false }
    }
    await store.receive(where: isProgress, assert: { $0.progress = [1] })
    store.exhaustivity = .off
    await store.receive(
      where: { $0 == .finished },
      assert: {
        $0.progress = [1, 2]
        $0.isDone = true
      })
    await store.finish()
  }

  @Test func receiveWhereNamesTheActionThatDidNotMatch() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped)
    await expectFailures(
      [
        """
        Received an action that does not match the predicate.

          LoaderAction.progressed(1)

        Expect the action that arrived, or fix the effect handler or the reducer.
        """
      ], line: #line + 2
    ) {
      await store.receive(where: { $0 == .finished })
    }
    store.exhaustivity = .off
    await store.finish()
  }

  @Test func receiveWhereTimesOutWithADescription() async {
    let store = TestStore(initialState: SearchState(), reducer: Search(), handler: SilentHandler())
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    await expectFailures(
      [
        """
        Expected to receive an action that matches the predicate, but no effect is running to \
        send it.

        Received since the last send:
          (none)

        Check that the reducer returns the effect that sends it, and that the handler sends it.
        """
      ]
    ) {
      await store.receive(where: { _ in true })
    }
  }
}

/// A feature whose one effect sends `tick` every few milliseconds, 400 times or until it is
/// cancelled: actions keep arriving that a receive may skip.
private struct Chatter: Reducer {
  enum Action: Equatable, Sendable {
    case start
    case tick
    case never
  }
  enum Effect: StoreEffect, Equatable { case chatter }

  func reduce(into state: inout Int, action: Action) -> [Effect] {
    switch action {
    case .start: return [.chatter]
    case .tick:
      state += 1
      return []
    case .never: return []
    }
  }
}

private struct ChatterHandler: EffectHandler {
  func handle(_ effect: Chatter.Effect, send: Send<Chatter.Action>) async {
    for _ in 0..<400 where !Task.isCancelled {
      await send(.tick)
      do {
        try await Task.sleep(for: .milliseconds(10))
      } catch {
        return  // cancelled
      }
    }
  }
}

@MainActor struct NonExhaustiveReceiveTimeoutTests {
  /// A non-exhaustive receive counts its timeout from the call, not from the last action it
  /// skipped: while unmatched actions keep arriving, it still times out (issue 49 §5: a wait
  /// that started again at every skipped action waited forever).
  @Test func aTimeoutRunsOutWhileSkippedActionsKeepArriving() async {
    let store = TestStore(initialState: 0, reducer: Chatter(), handler: ChatterHandler())
    store.exhaustivity = .off
    let task = await store.send(.start)
    let failures = FailureReporter.Recorder()
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.receive(.never, timeout: .milliseconds(300))
    }
    task.cancel()
    #expect(failures.messages.count == 1)
    #expect(
      failures.messages.first?.hasPrefix(
        "Timed out after 0.3 seconds waiting to receive Chatter.Action.never.") == true,
      "\(failures.messages)")
    // It gave up while the chatter still ran: a wait that started again at each skipped tick
    // would give up only once the ticks stopped, with no effect running.
    #expect(failures.messages.first?.contains("Still running: 1 effect.") == true)
    #expect(store.state > 0, "ticks arrived while it waited")
    await store.finish()
  }
}
