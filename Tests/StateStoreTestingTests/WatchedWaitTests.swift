import Foundation
import StateStore
import Testing

@testable import StateStoreTesting

/// A test store's timeout counts the time the store could watch: a late wake (a busy main
/// actor, a loaded machine) counts as at most 100 ms.
struct WatchedWaitTests {
  let start = ContinuousClock.now

  /// Wakes `wait` at each of `offsets` from `start`, and returns whether it went on each time.
  func wake(_ wait: inout WatchedWait, after offsets: Duration...) -> [Bool] {
    offsets.map { wait.woke(at: start + $0) }
  }

  @Test func wakesThatComeOnTimeCountInFull() {
    var wait = WatchedWait(timeout: .milliseconds(200), now: start)
    let goesOn = wake(
      &wait, after: .milliseconds(50), .milliseconds(100), .milliseconds(150))
    #expect(goesOn == [true, true, true])
    #expect(wait.watched == .milliseconds(150))
    let last = wake(&wait, after: .milliseconds(200))
    #expect(last == [false])
  }

  @Test func aLateWakeCountsAsTheLongestCountedWake() {
    var wait = WatchedWait(timeout: .seconds(1), now: start)
    let late = wake(&wait, after: .seconds(5))
    #expect(late == [true])
    #expect(wait.watched == WatchedWait.longestCountedWake)
    #expect(WatchedWait.longestCountedWake == .milliseconds(100))
    let onTime = wake(&wait, after: .seconds(5) + .milliseconds(30))
    #expect(onTime == [true])
    #expect(wait.watched == .milliseconds(130))
  }

  @Test func theRealTimeLimitEndsAWaitThatOnlyWokeLate() {
    var wait = WatchedWait(timeout: .seconds(5), now: start)
    // Twenty times the timeout: 100 seconds. Each late wake counts 100 ms, so the fourth
    // leaves 4.6 s to count, but it comes at the limit.
    let goesOn = wake(&wait, after: .seconds(25), .seconds(50), .seconds(75), .seconds(100))
    #expect(goesOn == [true, true, true, false])
    #expect(wait.watched == .milliseconds(400))
  }

  /// A short timeout still gets a minute of real time: on a loaded machine the suite's other
  /// tests held both cores for longer than twenty times 500 ms.
  @Test func aShortTimeoutGetsAMinuteOfRealTimeAtLeast() {
    var wait = WatchedWait(timeout: .seconds(1), now: start)
    let goesOn = wake(&wait, after: .seconds(20), .seconds(40), .seconds(60))
    #expect(goesOn == [true, true, false])
    #expect(WatchedWait.shortestRealTimeLimit == .seconds(60))
  }

  @Test func theNextWakeIsASliceAwayOrTheRestOfTheTimeout() {
    var wait = WatchedWait(timeout: .milliseconds(120), now: start)
    #expect(wait.nextWake(after: start) == start + WatchedWait.slice)
    let goesOn = wake(&wait, after: .milliseconds(100))
    #expect(goesOn == [true])
    let now = start + .milliseconds(100)
    #expect(wait.nextWake(after: now) == now + .milliseconds(20))
  }

  @Test func aZeroTimeoutEndsAtTheFirstWake() {
    var wait = WatchedWait(timeout: .zero, now: start)
    let goesOn = wake(&wait, after: .zero)
    #expect(goesOn == [false])
  }

  @Test func aClockThatSeemsToGoBackCountsNothing() {
    var wait = WatchedWait(timeout: .seconds(1), now: start + .seconds(1))
    let goesOn = wake(&wait, after: .zero)
    #expect(goesOn == [true])
    #expect(wait.watched == .zero)
  }
}

/// The same rule, seen from a test: an answer that comes while the main actor was busy for
/// longer than the timeout is still received.
@MainActor
struct BusyMainActorTests {
  /// Sends `.progressed(1)` once the gate opens.
  struct GatedHandler: EffectHandler {
    let gate: AsyncStream<Void>

    func handle(_ effect: LoaderEffect, send: Send<LoaderAction>) async {
      for await _ in gate { break }
      await send(.progressed(1))
    }
  }

  /// Blocks the calling thread, as other work on it would.
  nonisolated static func keepTheThreadBusy(seconds: Double) {
    Thread.sleep(forTimeInterval: seconds)
  }

  @Test func anAnswerHeldUpByABusyMainActorIsReceivedWithinTheTimeout() async {
    let (gate, open) = AsyncStream.makeStream(of: Void.self)
    let store = TestStore(
      initialState: LoaderState(), reducer: Loader(), handler: GatedHandler(gate: gate))
    await store.send(.loadTapped)
    // Runs once `receive` waits: the main actor is busy for three times the timeout, as on a
    // loaded machine, and the answer can come only after that.
    Task { @MainActor in
      Self.keepTheThreadBusy(seconds: 1.5)
      open.yield()
    }
    await store.receive(.progressed(1), timeout: .milliseconds(500)) { $0.progress = [1] }
    await store.finish()
  }
}
