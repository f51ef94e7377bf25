import StateStore
import Testing

/// The app-side half of the manual clock: what script mode relies on without a test store.
/// (Deadline order, cancellation and `run` are covered by `TestClockTests`.)
@MainActor
struct ManualClockTests {
  @Test func nextDeadlineIsTheEarliestSleepersDeadline() async throws {
    let clock = ManualClock()
    #expect(clock.nextDeadline == nil)
    let late = Task.detached { try await clock.sleep(for: .seconds(30)) }
    let early = Task.detached { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(2))
    #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(1)))
    await clock.advance(to: clock.nextDeadline!)
    try await early.value
    #expect(clock.now.offset == .seconds(1))
    #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(30)))
    late.cancel()
    _ = await late.result
    #expect(clock.nextDeadline == nil)
  }

  @Test func sleepersChangedIsCalledWhenATaskSleepsWakesOrIsCancelled() async throws {
    let counts = Guarded<[Int]>([])
    let box = Guarded<ManualClock?>(nil)
    let clock = ManualClock(sleepersChanged: {
      let count = box.withLock { $0?.sleeperCount ?? -1 }
      counts.withLock { $0.append(count) }
    })
    box.withLock { $0 = clock }
    let woken = Task.detached { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    try await woken.value
    let cancelled = Task.detached { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    cancelled.cancel()
    _ = await cancelled.result
    // Asleep, woken, asleep, cancelled: each call sees the count after the change.
    #expect(counts.withLock { $0 } == [1, 0, 1, 0])
  }

  @Test func aSleepThatIsAlreadyDueDoesNotCountAsASleeper() async throws {
    let calls = Guarded(0)
    let clock = ManualClock(
      now: ManualClock.Instant(offset: .seconds(5)),
      sleepersChanged: { calls.withLock { $0 += 1 } })
    try await clock.sleep(until: ManualClock.Instant(offset: .seconds(5)))
    #expect(calls.withLock { $0 } == 0)
    #expect(clock.sleeperCount == 0)
  }
}
