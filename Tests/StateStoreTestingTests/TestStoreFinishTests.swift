import StateStore
import StateStoreTesting
import Testing

@MainActor
struct TestStoreFinishTests {
  @Test func finishFailsForActionsThatWereNotReceived() async {
    let store = TestStore(initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
    await store.send(.loadTapped)
    await store.receive(.progressed(1)) { $0.progress = [1] }
    await expectFailures(
      [
        """
        The test finished with 2 actions sent by effects that were not received.

          LoaderAction.progressed(2)
          LoaderAction.finished

        Assert each with receive(_:assert:), or call skipReceivedActions() before finish().
        """
      ], line: #line + 2
    ) {
      await store.finish()
    }
  }

  @Test func finishFailsForEffectsStillRunningAndCancelsThem() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: StuckHandler(clock: clock))
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    #expect(clock.sleeperCount == 1)
    await expectFailures(
      [
        """
        The test finished with 1 effect still running after waiting 0.05 seconds.

        Advance the TestClock or resolve the fake it waits on, cancel it with \
        skipInFlightEffects(), or pass a longer timeout to finish(timeout:).
        """
      ], line: #line + 2
    ) {
      await store.finish(timeout: .milliseconds(50))
    }
    // finish() cancelled the effect: a second finish waits for it to stop.
    store.exhaustivity = .off
    await store.finish()
    #expect(clock.sleeperCount == 0)
  }

  @Test func finishWaitsForEffectsToEnd() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: StuckHandler(clock: clock))
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    store.skipInFlightEffects()
    await store.finish()
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingAGroupStopsTheRequest() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: SearchHandler(clock: clock))
    await store.send(.queryChanged("a"), effects: [.search("a")]) {
      $0.query = "a"
      $0.isSearching = true
    }
    await store.send(.cancelTapped, effects: [.cancelSearch]) { $0.isSearching = false }
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(store.story.performedLines == [])
  }

  @Test func nonExhaustiveFinishIgnoresWhatWasNotAsserted() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: StuckHandler(clock: clock))
    store.exhaustivity = .off
    await store.send(.queryChanged("a"))
    await store.finish(timeout: .milliseconds(10))
    #expect(clock.sleeperCount == 0)
  }

  @Test func releasingAnUnfinishedStoreReportsAtItsCreation() async {
    let failures = FailureReporter.Recorder()
    let createdLine = #line + 2
    await FailureReporter.$current.withValue(failures.reporter) {
      let store = TestStore(
        initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
      await store.send(.loadTapped).finish()
    }
    #expect(failures.failures.map(\.location.line) == [createdLine])
    #expect(
      failures.messages == [
        """
        The test finished with 3 actions sent by effects that were not received.

          LoaderAction.progressed(1)
          LoaderAction.progressed(2)
          LoaderAction.finished

        Assert each with receive(_:assert:), or call skipReceivedActions() before finish().

        (Reported where the test store was created: it was released without await \
        store.finish().)
        """
      ])
  }

  @Test func aStoreReleasedAfterTheLastReceiveNeverReportsAnEffectThatFinished() async {
    // The effect's last `send` is received, and the store is released while the effect is
    // returning from that send: it has finished from the test's point of view. (This used to
    // report "1 effect still running" in 3–9% of releases.)
    let failures = FailureReporter.Recorder()
    await FailureReporter.$current.withValue(failures.reporter) {
      for _ in 0..<1_000 {
        let store = TestStore(
          initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
        await store.send(.loadTapped)
        await store.receive(.progressed(1)) { $0.progress = [1] }
        await store.receive(.progressed(2)) { $0.progress = [1, 2] }
        await store.receive(.finished) { $0.isDone = true }
      }
    }
    #expect(failures.messages == [])
  }

  @Test func releasingAStoreWithEffectsRunningReportsThem() async {
    let failures = FailureReporter.Recorder()
    let clock = TestClock()
    await FailureReporter.$current.withValue(failures.reporter) {
      let store = TestStore(
        initialState: SearchState(), reducer: Search(), handler: StuckHandler(clock: clock))
      await store.send(.queryChanged("a")) {
        $0.query = "a"
        $0.isSearching = true
      }
    }
    #expect(
      failures.messages == [
        """
        The test finished with 1 effect still running.

        Await store.finish() at the end of the test, advance the TestClock or resolve the fake \
        it waits on, or cancel it with skipInFlightEffects().

        (Reported where the test store was created: it was released without await \
        store.finish().)
        """
      ])
  }

  @Test func aReleasedStoreFailsTheSwiftTestingTestItRanIn() async {
    await expectFailures(
      [
        """
        The test finished with 1 action sent by effects that was not received.

          LoaderAction.finished

        Assert each with receive(_:assert:), or call skipReceivedActions() before finish().

        (Reported where the test store was created: it was released without await \
        store.finish().)
        """
      ], line: #line + 2
    ) {
      let store = TestStore(
        initialState: LoaderState(), reducer: Loader(), handler: LoaderHandler())
      await store.send(.loadTapped).finish()
      await store.receive(.progressed(1)) { $0.progress = [1] }
      await store.receive(.progressed(2)) { $0.progress = [1, 2] }
    }
  }
}

/// A failing assertion on a large state shows what differs, with a few neighbours, and folds
/// the rest.
@MainActor
struct TestStoreLargeStateTests {
  struct Rename: Reducer {
    func reduce(into state: inout [String], action: Int) -> [Never] {
      state[action] = "renamed"
      return []
    }
  }

  @Test func aWrongExpectationOnAThousandItemsShowsTheItemAndFoldsTheRest() async {
    let failures = FailureReporter.Recorder()
    let store = TestStore(initialState: (0..<1_000).map { "item \($0)" }, reducer: Rename())
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(500) { $0[500] = "expected" }
    }
    #expect(
      failures.messages == [
        """
        State after send(500) differs from the expected state.

            [
              … (497 unchanged),
              [497]: "item 497",
              [498]: "item 498",
              [499]: "item 499",
          −   [500]: "expected",
          +   [500]: "renamed",
              [501]: "item 501",
              [502]: "item 502",
              [503]: "item 503",
              … (496 unchanged)
            ]

        (Expected: −, Actual: +)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ])
  }
}
