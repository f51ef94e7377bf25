/// A clock whose time moves only when its owner says so.
///
/// Inject it where a feature would use a `ContinuousClock` to make time a thing you step
/// through: a test advances it past a timeout, and `login-demo`'s script mode advances it with
/// `wait` and `advance 30s`, so a script prints the same screens on every run, however busy the
/// machine is. It links no test framework, so an app may ship it; in tests it is known as
/// `TestClock` (`StateStoreTesting`).
///
/// ```swift
/// let clock = ManualClock()
/// let timer = Task { try await clock.sleep(for: .seconds(30)) }
/// _ = await clock.waitForSleepers(1)
/// await clock.advance(by: .seconds(30))   // the timer's sleep has returned
/// ```
///
/// ## Guarantees
///
/// - `sleep` returns only when the clock is advanced to or past its deadline (at once if the
///   deadline has passed), and throws `CancellationError` as soon as its task is cancelled.
/// - ``advance(to:)`` wakes the sleepers whose deadlines it reaches one at a time, in order of
///   deadline (equal deadlines in the order they went to sleep). Before it moves on to the next
///   one, and before it returns, the woken task has resumed: its `sleep` call has returned and
///   ``now`` reads that sleeper's deadline. No fixed number of yields is involved.
/// - When the sleeper is an effect of a `TestStore` with a handler, `advance` also waits until
///   the woken effect has run as far as it can without the clock moving — its actions
///   delivered and reduced on the main actor, and the effect on to its next sleep, a fake it
///   awaits, or its end — before it wakes the next sleeper. So every sleep that falls due
///   inside the span runs, in deadline order, including sleeps a woken effect starts after
///   sending: a 30-second countdown advanced by 30 seconds ticks 30 times, and its actions are
///   waiting for `receive` when `advance` returns.
/// - A test store's `send` and `receive` return only after the effects they started have run
///   up to their first suspension, so their sleeps are registered before the test advances.
///   `receive` also lets the effect that sent the action run on to its next suspension, so a
///   repeating timer is asleep again before the test advances by the next interval.
/// - Other tasks (not effects of a test store) run concurrently with the caller once their
///   `sleep` returns: await their result some other way. ``sleeperCount`` says how many are
///   asleep, ``nextDeadline`` when the first of them is due.
public final class ManualClock: Clock, Sendable {
  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
    let afterWake: (@Sendable () async -> Void)?
  }

  private struct State {
    var now = Instant()
    var nextID = 0
    var sleepers: [Sleeper] = []
    var wakeAcknowledgements: [Int: CheckedContinuation<Void, Never>] = [:]
    var sleeperWaiters: [Int: SleeperWaiter] = [:]

    mutating func makeID() -> Int {
      nextID += 1
      return nextID
    }

    /// Takes out the waiters whose count of sleepers has been reached.
    mutating func satisfiedWaiters() -> [BoundedWait<Bool>] {
      let ready = sleeperWaiters.filter { $0.value.count <= sleepers.count }
      for id in ready.keys { sleeperWaiters[id] = nil }
      return ready.values.map(\.wait)
    }
  }

  /// A ``waitForSleepers(_:timeout:)`` call waiting.
  private struct SleeperWaiter {
    var count: Int
    var wait: BoundedWait<Bool>
  }

  /// What ``advance(to:)`` awaits after a sleeper of this task has resumed, before it wakes the
  /// next one. A `TestStore` sets it for its effects: it returns once they have all suspended.
  @TaskLocal package static var afterWake: (@Sendable () async -> Void)?

  private let state = Guarded(State())
  private let sleepersChanged: @Sendable () -> Void

  /// Creates a clock that reads `now` until it is advanced.
  ///
  /// - Parameters:
  ///   - now: The starting instant.
  ///   - sleepersChanged: Called, on whichever thread made the change and outside the clock's
  ///     lock, after a task went to sleep on the clock or stopped sleeping (woken or
  ///     cancelled). Script mode uses it to notice that an effect is now only waiting for time.
  public init(now: Instant = Instant(), sleepersChanged: @escaping @Sendable () -> Void = {}) {
    self.sleepersChanged = sleepersChanged
    state.withLock { $0.now = now }
  }

  /// The clock's current time.
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: the clock moves only in the steps its owner gives it.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The earliest deadline of a sleeping task, or `nil` when none is asleep.
  public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

  /// Suspends until the clock is advanced to `deadline` or past it.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored: a manual clock is exact.
  /// - Throws: `CancellationError` if the task is cancelled before the deadline is reached.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> Int? in
      deadline > state.now ? state.makeID() : nil
    }
    guard let id else { return }
    let afterWake = Self.afterWake
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (cancelled, waiters) = state.withLock {
          state -> (Bool, [BoundedWait<Bool>]) in
          // The cancellation handler may have run before the sleeper was registered.
          if Task.isCancelled { return (true, []) }
          state.sleepers.append(
            Sleeper(
              id: id, deadline: deadline, continuation: continuation, afterWake: afterWake))
          return (false, state.satisfiedWaiters())
        }
        if cancelled {
          continuation.resume(throwing: CancellationError())
          return
        }
        for waiter in waiters { waiter.end(true) }
        sleepersChanged()
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      guard let sleeper else { return }
      sleeper.continuation.resume(throwing: CancellationError())
      sleepersChanged()
    }
    // Woken by `advance`: tell it this task is running again.
    state.withLock { $0.wakeAcknowledgements.removeValue(forKey: id) }?.resume()
  }

  /// Waits until at least `count` tasks are sleeping on the clock, so the caller can advance
  /// it knowing the work it wants to wake has gone to sleep.
  ///
  /// The wait is woken by the sleepers themselves, not by polling; `timeout` (real time) only
  /// bounds a wait for a task that never goes to sleep.
  ///
  /// ```swift
  /// let login = store.send(.loginButtonTapped)
  /// #expect(await clock.waitForSleepers(1))
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many sleepers to wait for.
  ///   - timeout: How long to wait at most, in real time; a minute by default. It only bounds
  ///     how long a failing test waits: a passing one returns as soon as the sleepers are
  ///     there, and a machine busy with other work took more than ten seconds for a few task
  ///     hops.
  /// - Returns: Whether `count` sleepers were reached before the timeout.
  public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(60)) async -> Bool {
    let id = state.withLock { $0.makeID() }
    return await BoundedWait.first(
      timeout: timeout, timedOut: false,
      onTimeout: { [state] in _ = state.withLock { $0.sleeperWaiters.removeValue(forKey: id) } },
      start: { wait in
        let reached = state.withLock { state -> Bool in
          guard state.sleepers.count < count else { return true }
          state.sleeperWaiters[id] = SleeperWaiter(count: count, wait: wait)
          return false
        }
        if reached { wait.end(true) }
      })
  }

  /// Moves time forward by `duration`, waking every sleeper it reaches, in deadline order.
  ///
  /// - Parameter duration: How far to move; a negative duration does nothing.
  public func advance(by duration: Duration) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking every sleeper it reaches, in deadline order.
  ///
  /// Each woken task has resumed before the next one is woken and before this returns (see
  /// the guarantees in the type's documentation). Moving backwards does nothing.
  ///
  /// - Parameter deadline: The new time.
  public func advance(to deadline: Instant) async {
    while let sleeper = popSleeper(until: deadline) {
      await wake(sleeper)
    }
    state.withLock { $0.now = max($0.now, deadline) }
  }

  /// Advances to each sleeper's deadline in turn until no task is sleeping on the clock.
  ///
  /// A task that sleeps again after waking is woken again, so an endless timer makes this
  /// return only after `limit` wake-ups.
  ///
  /// - Parameter limit: The most sleepers to wake; a guard against endless timers.
  public func run(limit: Int = 10_000) async {
    var woken = 0
    while woken < limit, let sleeper = popSleeper(until: nil) {
      await wake(sleeper)
      woken += 1
    }
  }

  private func popSleeper(until deadline: Instant?) -> Sleeper? {
    state.withLock { state -> Sleeper? in
      var best: Int?
      for index in state.sleepers.indices {
        let candidate = state.sleepers[index]
        if let deadline, candidate.deadline > deadline { continue }
        if let current = best {
          let chosen = state.sleepers[current]
          if (candidate.deadline, candidate.id) < (chosen.deadline, chosen.id) { best = index }
        } else {
          best = index
        }
      }
      guard let best else { return nil }
      let sleeper = state.sleepers.remove(at: best)
      state.now = max(state.now, sleeper.deadline)
      return sleeper
    }
  }

  private func wake(_ sleeper: Sleeper) async {
    await withCheckedContinuation { (acknowledgement: CheckedContinuation<Void, Never>) in
      state.withLock { $0.wakeAcknowledgements[sleeper.id] = acknowledgement }
      sleeper.continuation.resume()
      sleepersChanged()
    }
    await sleeper.afterWake?()
  }
}
