import StateStore
import StateStoreTesting
import Testing

@MainActor
struct TestStoreTests {
  @Test func sendPassesWhenTheClosureDescribesTheNewState() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await store.send(.increment) {
      $0.count = 1
      $0.isEven = false
    }
    await store.send(.noop)
    await store.send(.setCount(4)) {
      $0.count = 4
      $0.isEven = true
    }
    #expect(store.state == CounterState(count: 4, isEven: true))
    await store.finish()
  }

  @Test func sendFailsWithADiffWhenTheStateDiffers() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await expectFailures(
      [
        """
        State after send(CounterAction.increment) differs from the expected state.

            CounterState(
          −   count: 2,
          −   isEven: true
          +   count: 1,
          +   isEven: false
            )

        (Expected: −, Actual: +)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.send(.increment) { $0.count = 2 }
    }
  }

  @Test func sendWithoutAClosureFailsWhenTheStateChanged() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await expectFailures(
      [
        """
        State after send(CounterAction.setCount(3)) differs from the expected state.

            CounterState(
          −   count: 0,
          −   isEven: true
          +   count: 3,
          +   isEven: false
            )

        (Expected: −, Actual: +)
        Add a trailing closure that mutates the expected state to match, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.send(.setCount(3))
    }
  }

  @Test func aClosureThatChangesSomethingFailsWhenTheStateDidNot() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await expectFailures(
      [
        """
        State after send(CounterAction.noop) differs from the expected state.

            CounterState(
          −   count: 1,
          +   count: 0,
              isEven: true
            )

        (Expected: −, Actual: +)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.send(.noop) { $0.count = 1 }
    }
  }

  @Test func aClosureThatChangesNothingFailsWhenNothingChanged() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await expectFailures(
      [
        """
        send(CounterAction.noop) left the state unchanged, and so did the trailing closure.

        Omit the trailing closure when an action changes nothing.
        """
      ], line: #line + 2
    ) {
      await store.send(.noop) { $0.count = 0 }
    }
  }

  @Test func aFailedStepDoesNotCascadeIntoTheNextOne() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    await expectFailures(
      [
        """
        State after send(CounterAction.increment) differs from the expected state.

            CounterState(
          −   count: 5,
          +   count: 1,
              isEven: false
            )

        (Expected: −, Actual: +)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ]
    ) {
      await store.send(.increment) {
        $0.count = 5
        $0.isEven = false
      }
    }
    await store.send(.increment) {
      $0.count = 2
      $0.isEven = true
    }
  }

  @Test func secretsAreMaskedInFailureMessages() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    await expectFailures(
      [
        """
        State after send(SearchAction.queryChanged("a")) differs from the expected state.

            SearchState(
              query: "a",
              results: [],
              isSearching: true,
          −   token: Secret(aaaaaa0)
          +   token: Secret(Aaa0a)
            )

        (Expected: −, Actual: +)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ]
    ) {
      await store.send(.queryChanged("a"), effects: [.search("a")]) {
        $0.query = "a"
        $0.isSearching = true
        $0.token = "hunter2"
      }
    }
  }

  // MARK: - Effects as data

  @Test func sendAssertsTheExactEffectsInOrder() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    await store.send(.queryChanged("a"), effects: [.search("a")]) {
      $0.query = "a"
      $0.isSearching = true
    }
    await store.send(.resultsLoaded(["A"]), effects: []) {
      $0.results = ["A"]
      $0.isSearching = false
    }
    await store.finish()
  }

  @Test func sendFailsWhenTheEffectsDiffer() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    await expectFailures(
      [
        """
        Effects returned by send(SearchAction.cancelTapped) differ from the expected effects.

            [
          −   [0]: SearchEffect.search("a")
          +   [0]: SearchEffect.cancelSearch
            ]

        (Expected: −, Actual: +)
        Expect the effects the reducer returned, in order, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.send(.cancelTapped, effects: [.search("a")])
    }
  }

  @Test func unassertedEffectsFailAtTheSendThatReturnedThem() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    let sendLine = #line + 12
    await expectFailures(
      [
        """
        send(SearchAction.queryChanged("a")) returned 1 effect that the test did not assert.

          SearchEffect.search("a")

        Assert them with the effects: argument, or call skipEffects() to ignore them.
        """
      ], line: sendLine
    ) {
      await store.send(.queryChanged("a")) {
        $0.query = "a"
        $0.isSearching = true
      }
      await store.send(.cancelTapped, effects: [.cancelSearch]) { $0.isSearching = false }
    }
  }

  @Test func skippedEffectsDoNotFail() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    store.skipEffects()
    await store.send(.cancelTapped, effects: [.cancelSearch]) { $0.isSearching = false }
    await store.finish()
  }

  @Test func finishReportsUnassertedEffects() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    await expectFailures(
      [
        """
        send(SearchAction.cancelTapped) returned 1 effect that the test did not assert.

          SearchEffect.cancelSearch

        Assert them with the effects: argument, or call skipEffects() to ignore them.
        """
      ]
    ) {
      await store.send(.cancelTapped)
      await store.finish()
    }
  }

  // MARK: - Non-exhaustive

  @Test func nonExhaustiveModeChecksOnlyWhatTheClosureSets() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    store.exhaustivity = .off
    await store.send(.queryChanged("a")) { $0.isSearching = true }
    await store.send(.queryChanged("ab"))
    await store.send(.resultsLoaded(["AB"])) { $0.results = ["AB"] }
    await store.finish()
  }

  @Test func nonExhaustiveModeStillFailsOnAWrongValue() async {
    let store = TestStore(initialState: SearchState(), reducer: Search())
    store.exhaustivity = .off
    await expectFailures(
      [
        """
        State after send(SearchAction.queryChanged("a")) differs from the expected state.

            SearchState(
              query: "a",
              results: [],
          −   isSearching: false,
          +   isSearching: true,
              token: Secret(Aaa0a)
            )

        (Expected: −, Actual: +)
        The trailing closure sets values the state does not have: correct them, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.send(.queryChanged("a")) { $0.isSearching = false }
    }
  }
}
