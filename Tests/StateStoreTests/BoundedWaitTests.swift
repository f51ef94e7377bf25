import Testing

@testable import StateStore

/// The package's one wait with a timeout: the first of the answer and the timeout ends it.
struct BoundedWaitTests {
  @Test func anAnswerThatIsThereAlreadyEndsTheWaitAtOnce() async {
    let value = await BoundedWait.first(timeout: .seconds(60), timedOut: 0) { $0.end(7) }
    #expect(value == 7)
  }

  @Test func theFirstAnswerEndsTheWaitAndALaterOneIsIgnored() async {
    let ends = Guarded<[Bool]>([])
    let value = await BoundedWait.first(timeout: .seconds(60), timedOut: "late") { wait in
      let first = wait.end("answer")
      let second = wait.end("again")
      ends.withLock { $0 = [first, second] }
    }
    #expect(value == "answer")
    #expect(ends.withLock { $0 } == [true, false])
  }

  @Test func anAnswerFromAnotherTaskEndsTheWait() async {
    let value = await BoundedWait.first(timeout: .seconds(60), timedOut: 0) { wait in
      Task.detached { wait.end(3) }
    }
    #expect(value == 3)
  }

  @Test func theTimeoutEndsAWaitNobodyAnswersAndSaysSo() async {
    let forgotten = Guarded(false)
    let value = await BoundedWait.first(
      timeout: .milliseconds(10), timedOut: -1, onTimeout: { forgotten.withLock { $0 = true } },
      start: { _ in })
    #expect(value == -1)
    #expect(forgotten.withLock { $0 })
  }

  /// The timer stops as soon as the answer comes, whether it came while the timer slept or
  /// before it began: no task sleeps on the clock for the rest of the timeout (issue 49 §5: a
  /// timer left sleeping went unnoticed).
  @Test(.timeLimit(.minutes(1)))
  func anAnsweredWaitLeavesNoTimerSleepingOnItsClock() async throws {
    let clock = ManualClock()
    let registered = Guarded<BoundedWait<Int>?>(nil)
    let waiting = Task {
      await BoundedWait.first(timeout: .seconds(60), clock: clock, timedOut: -1) { wait in
        registered.withLock { $0 = wait }
      }
    }
    try #require(await clock.waitForSleepers(1, timeout: .seconds(10)), "the timer sleeps")
    try #require(registered.withLock { $0 }).end(5)
    #expect(await waiting.value == 5)
    #expect(await Self.noSleepers(on: clock), "\(clock.sleeperCount) timer still sleeping")

    let answered = await BoundedWait.first(timeout: .seconds(60), clock: clock, timedOut: -1) {
      $0.end(6)
    }
    #expect(answered == 6)
    #expect(await Self.noSleepers(on: clock), "\(clock.sleeperCount) timer still sleeping")
  }

  /// Whether `clock` has no sleeper, given its tasks a few turns to get there.
  private static func noSleepers(on clock: ManualClock) async -> Bool {
    for _ in 0..<1_000 where clock.sleeperCount > 0 { await Task.yield() }
    return clock.sleeperCount == 0
  }

  // MARK: - Polling

  /// Wakes every sleep of a poller on `clock`, one at a time, until the clock reads `end`;
  /// each time, the poller must be asleep on the clock. Returns how many sleeps it woke.
  private func step(_ clock: ManualClock, to end: ManualClock.Instant) async throws -> Int {
    var steps = 0
    while clock.now < end {
      try #require(
        await clock.waitForSleepers(1, timeout: .seconds(10)),
        "the poller sleeps on its clock until \(clock.now.duration(to: end)) later")
      await clock.advance(to: try #require(clock.nextDeadline))
      steps += 1
    }
    return steps
  }

  @Test(.timeLimit(.minutes(1)))
  func aPollAsksAtOnceThenEveryIntervalUntilTheTimeoutOnItsClock() async throws {
    let clock = ManualClock()
    let start = clock.now
    let asks = Guarded<[Duration]>([])
    let poll = Task {
      await BoundedWait.poll(every: .seconds(2), timeout: .seconds(5), clock: clock) {
        asks.withLock { $0.append(start.duration(to: clock.now)) }
        return false
      }
    }
    let steps = try await step(clock, to: start.advanced(by: .seconds(5)))
    #expect(await poll.value == .timedOut)
    #expect(steps == 3)
    // The last sleep is cut short to end at the deadline, where it asks once more.
    #expect(asks.withLock { $0 } == [.zero, .seconds(2), .seconds(4), .seconds(5)])
    #expect(clock.sleeperCount == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func aPollEndsWhenItsConditionHoldsAndSleepsNoMore() async throws {
    let clock = ManualClock()
    let asks = Guarded(0)
    let poll = Task {
      await BoundedWait.poll(every: .seconds(1), timeout: .seconds(60), clock: clock) {
        asks.withLock { count in
          count += 1
          return count == 3
        }
      }
    }
    _ = try await step(clock, to: clock.now.advanced(by: .seconds(2)))
    #expect(await poll.value == .done)
    #expect(asks.withLock { $0 } == 3)
    #expect(clock.sleeperCount == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func aPollWhoseTaskIsCancelledSaysSo() async throws {
    let clock = ManualClock()
    let poll = Task {
      await BoundedWait.poll(every: .seconds(1), timeout: .seconds(60), clock: clock) { false }
    }
    try #require(await clock.waitForSleepers(1, timeout: .seconds(10)))
    poll.cancel()
    #expect(await poll.value == .cancelled)
  }

  @Test(.timeLimit(.minutes(1)))
  func whatTheConditionThrowsEndsThePoll() async {
    struct Refused: Error, Equatable {}
    await #expect(throws: Refused()) {
      _ = try await BoundedWait.poll(
        every: .seconds(1), timeout: .seconds(60), clock: ManualClock()
      ) { () throws(Refused) -> Bool in throw Refused() }
    }
  }
}
