import StateStore
import StateStoreTesting
import Testing
import ToolTestSupport

/// What woken tasks saw, in order.
final class Log: Sendable {
  let entries = Guarded<[String]>([])
  func append(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

@MainActor
struct TestClockTests {
  @Test func timeMovesOnlyWhenAdvanced() async {
    let clock = TestClock()
    #expect(clock.now == TestClock.Instant())
    await clock.advance(by: .seconds(2))
    #expect(clock.now.offset == .seconds(2))
    await clock.advance(to: TestClock.Instant(offset: .seconds(1)))
    #expect(clock.now.offset == .seconds(2))
    await clock.advance(to: clock.now + .milliseconds(500))
    #expect(clock.now.description == "+2.5 seconds")
  }

  @Test func advanceWakesExactlyTheSleepersWhoseDeadlinesItReaches() async throws {
    let clock = TestClock()
    let log = Log()
    var tasks: [Task<Void, any Error>] = []
    for (name, seconds) in [("c", 3), ("a", 1), ("b", 2), ("a2", 1)] {
      tasks.append(
        Task.detached {
          try await clock.sleep(for: .seconds(seconds))
          log.append("\(name)")
        })
      #expect(await clock.waitForSleepers(tasks.count))
    }
    await clock.advance(by: .milliseconds(1500))
    #expect(clock.now.offset == .milliseconds(1500))
    try #require(clock.sleeperCount == 2)
    try await tasks[1].value(within: .seconds(30))
    try await tasks[3].value(within: .seconds(30))
    #expect(Set(log.all) == ["a", "a2"])
    await clock.advance(by: .seconds(10))
    for task in tasks { try await task.value(within: .seconds(30)) }
    #expect(Set(log.all) == ["a", "a2", "b", "c"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func everySleeperDueAtOneAdvanceWakes() async throws {
    let clock = TestClock()
    let log = Log()
    var tasks: [Task<Void, any Error>] = []
    for (name, milliseconds) in [("c", 900), ("a", 100), ("b", 500), ("d", 900)] {
      tasks.append(
        Task.detached {
          try await clock.sleep(for: .milliseconds(milliseconds))
          log.append(name)
        })
      #expect(await clock.waitForSleepers(tasks.count, timeout: .seconds(30)))
    }
    await clock.advance(by: .seconds(1))
    // Every woken sleep has returned before `advance` does; none is left asleep (and none is
    // waited for below).
    try #require(clock.sleeperCount == 0)
    #expect(clock.now.offset == .seconds(1))
    for task in tasks { try await task.value(within: .seconds(30)) }
    // Woken tasks run on concurrently with `advance`: what they log comes in any order.
    #expect(Set(log.all) == ["a", "b", "c", "d"])
  }

  @Test func effectsWokenByAdvanceRunInDeadlineOrder() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(),
      handler: SearchHandler(clock: clock, results: { [$0] }))
    store.exhaustivity = .off
    // A new search cancels the one in flight, so two stores share the clock instead.
    let other = TestStore(
      initialState: SearchState(), reducer: Search(),
      handler: DelayedHandler(clock: clock, delay: .milliseconds(100)))
    other.exhaustivity = .off
    await store.send(.queryChanged("slow"))
    await other.send(.queryChanged("fast"))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .milliseconds(100))
    // The woken effect's action is reduced before advance returns to the test.
    #expect(other.state.results == ["fast"])
    #expect(store.state.results == [])
    await clock.advance(by: .milliseconds(200))
    #expect(store.state.results == ["slow"])
    await store.finish()
    await other.finish()
  }

  @Test func waitingForSleepersReturnsWhenTheyAreAsleepOrAtTheTimeout() async throws {
    let clock = TestClock()
    #expect(await clock.waitForSleepers(0))
    #expect(await clock.waitForSleepers(1, timeout: .milliseconds(20)) == false)
    let first = Task { try await clock.sleep(for: .seconds(1)) }
    let second = Task { try await clock.sleep(for: .seconds(2)) }
    // A generous timeout: on a busy two-core machine the two tasks may take a while to start.
    #expect(await clock.waitForSleepers(2))
    #expect(clock.sleeperCount == 2)
    await clock.advance(by: .seconds(2))
    try #require(clock.sleeperCount == 0)
    _ = try await (first.result(within: .seconds(30)), second.result(within: .seconds(30)))
  }

  @Test func sleepingPastTheDeadlineReturnsAtOnce() async throws {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(5)))
    try await clock.sleep(until: TestClock.Instant(offset: .seconds(5)))
    try await clock.sleep(for: .zero)
    #expect(clock.sleeperCount == 0)
  }

  @Test func cancellingASleeperThrowsCancellationError() async throws {
    let clock = TestClock()
    let task = Task.detached { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    task.cancel()
    let result = try await task.result(within: .seconds(30))
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(clock.sleeperCount == 0)
  }

  @Test func anAlreadyCancelledTaskDoesNotSleep() async throws {
    let clock = TestClock()
    let task = Task.detached {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    let result = try await task.result(within: .seconds(30))
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(clock.sleeperCount == 0)
  }

  @Test func runWakesEverySleeperInOrder() async throws {
    let clock = TestClock()
    let task = Task.detached {
      try await clock.sleep(for: .seconds(7))
    }
    #expect(await clock.waitForSleepers(1))
    await clock.run()
    try await task.value(within: .seconds(30))
    #expect(clock.now.offset == .seconds(7))
  }

  @Test func aSearchIsDebouncedByTheClock() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: SearchState(), reducer: Search(), handler: SearchHandler(clock: clock))
    await store.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    await store.send(.queryChanged("ab")) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(299))
    #expect(store.state.results == [])
    await clock.advance(by: .milliseconds(1))
    await store.receive(.resultsLoaded(["AB"])) {
      $0.results = ["AB"]
      $0.isSearching = false
    }
    await store.finish()
    #expect(store.story.performedLines == [#"api.search("ab")"#])
  }
}

/// Sleeps `delay` and answers with the query itself.
struct DelayedHandler: EffectHandler {
  let clock: TestClock
  let delay: Duration

  func handle(_ effect: SearchEffect, send: Send<SearchAction>) async {
    guard case .search(let query) = effect else { return }
    do { try await clock.sleep(for: delay) } catch { return }
    await send(.resultsLoaded([query]))
  }
}

/// A countdown: one effect that sleeps a second and sends a tick, `seconds` times.
struct Countdown: Reducer {
  enum Action: Equatable, Sendable {
    case start(Int)
    case tick
  }
  enum Effect: StoreEffect, Equatable { case count(Int) }
  func reduce(into state: inout Int, action: Action) -> [Effect] {
    switch action {
    case .start(let seconds): return [.count(seconds)]
    case .tick:
      state += 1
      return []
    }
  }
}

struct CountdownHandler: EffectHandler {
  let clock: TestClock
  func handle(_ effect: Countdown.Effect, send: Send<Countdown.Action>) async {
    guard case .count(let seconds) = effect else { return }
    for _ in 0..<seconds {
      do { try await clock.sleep(for: .seconds(1)) } catch { return }
      await send(.tick)
    }
  }
}

@MainActor
struct TestClockSpanTests {
  @Test func advancingACountdownByItsLengthRunsEveryTickInTheSpan() async throws {
    // Each tick's next sleep starts only after the tick was delivered on the main actor: a
    // sleep that starts inside the span and falls due inside it runs in the same advance.
    let clock = TestClock()
    let store = TestStore(
      initialState: 0, reducer: Countdown(), handler: CountdownHandler(clock: clock))
    await store.send(.start(30), effects: [.count(30)])
    await clock.advance(by: .seconds(30))
    // Every tick has been reduced by now: if one is missing, thirty receives would each wait
    // out their timeout for it, so the test stops here instead.
    try #require(store.state == 30, "advance ran \(store.state) of the 30 ticks in its span")
    for tick in 1...30 {
      await store.receive(.tick) { $0 = tick }
    }
    #expect(clock.now.offset == .seconds(30))
    await store.finish()
  }

  @Test func anAdvanceShorterThanTheCountdownStopsAtItsEnd() async throws {
    let clock = TestClock()
    let store = TestStore(
      initialState: 0, reducer: Countdown(), handler: CountdownHandler(clock: clock))
    store.exhaustivity = .off
    await store.send(.start(30))
    await clock.advance(by: .milliseconds(12_500))
    try #require(store.state == 12)
    await clock.advance(by: .seconds(100))
    #expect(store.state == 30)
    await store.finish()
  }
}
