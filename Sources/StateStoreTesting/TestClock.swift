import StateStore

/// A clock whose time moves only when a test says so.
///
/// Inject it where the feature would use a `ContinuousClock`, then drive time from the test:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: .init(), reducer: Lockout(), handler: Handler(clock: clock))
/// await store.send(.locked)
/// await clock.advance(by: .seconds(30))
/// await store.receive(.cooldownEnded) { $0.isLocked = false }
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
/// - When the sleeper is an effect of a ``TestStore`` with a handler, `advance` also waits until
///   the woken effect has run up to its next suspension (its next sleep, a fake it awaits, its
///   end, or the hop to the main actor that delivers an action) before it wakes the next
///   sleeper. An action such an effect sends is queued on the main actor before `advance`
///   returns, so it is reduced before the test's next line runs. An effect that sleeps again
///   only after its action was delivered may miss the rest of the same advance: step through a
///   repeating timer one interval at a time.
/// - A test store's `send` and `receive` return only after the effects they started have run
///   up to their first suspension, so their sleeps are registered before the test advances.
/// - Other tasks (not effects of a test store) run concurrently with the test once their `sleep`
///   returns: await their result some other way. ``sleeperCount`` says how many are asleep.
public final class TestClock: Clock, Sendable {
  /// A point in the test clock's time: the duration since the clock was created.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates the instant `offset` after the clock's start.
    ///
    /// - Parameter offset: The time since the start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: How much later.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    ///
    /// - Parameter other: The later instant.
    /// - Returns: `other - self`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: Another instant.
    /// - Returns: `true` when `lhs` is earlier.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// `+` and the offset, for example `+30.0 seconds`.
    public var description: String { "+\(offset)" }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
    let monitor: EffectMonitor?
  }

  private struct State {
    var now = Instant()
    var nextID = 0
    var sleepers: [Sleeper] = []
    var wakeAcknowledgements: [Int: CheckedContinuation<Void, Never>] = [:]
    var sleeperWaiters: [Int: (count: Int, continuation: CheckedContinuation<Bool, Never>)] = [:]

    /// Takes out the waiters whose count of sleepers has been reached.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Bool, Never>] {
      let ready = sleeperWaiters.filter { $0.value.count <= sleepers.count }
      for id in ready.keys { sleeperWaiters[id] = nil }
      return ready.values.map(\.continuation)
    }
  }

  private let state = Guarded(State())

  /// Creates a clock that reads `now` until it is advanced.
  ///
  /// - Parameter now: The starting instant.
  public init(now: Instant = Instant()) {
    state.withLock { $0.now = now }
  }

  /// The clock's current time.
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: the clock moves only in the steps a test gives it.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline` or past it.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored: the test clock is exact.
  /// - Throws: `CancellationError` if the task is cancelled before the deadline is reached.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> Int? in
      guard deadline > state.now else { return nil }
      state.nextID += 1
      return state.nextID
    }
    guard let id else { return }
    let monitor = EffectMonitor.current
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (cancelled, waiters) = state.withLock {
          state -> (Bool, [CheckedContinuation<Bool, Never>]) in
          // The cancellation handler may have run before the sleeper was registered.
          if Task.isCancelled { return (true, []) }
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation, monitor: monitor))
          return (false, state.satisfiedWaiters())
        }
        for waiter in waiters { waiter.resume(returning: true) }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    // Woken by `advance`: tell it this task is running again.
    state.withLock { $0.wakeAcknowledgements.removeValue(forKey: id) }?.resume()
  }

  /// Waits until at least `count` tasks are sleeping on the clock, so a test can advance it
  /// knowing the work it wants to wake has gone to sleep.
  ///
  /// The wait is woken by the sleepers themselves, not by polling; `timeout` (real time) only
  /// bounds a test whose task never goes to sleep.
  ///
  /// ```swift
  /// let login = store.send(.loginButtonTapped)
  /// #expect(await clock.waitForSleepers(1))
  /// await clock.advance(by: .seconds(1))
  /// ```
  ///
  /// - Parameters:
  ///   - count: How many sleepers to wait for.
  ///   - timeout: How long to wait at most, in real time.
  /// - Returns: Whether `count` sleepers were reached before the timeout.
  public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(1)) async -> Bool {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let reached = state.withLock { state -> Bool in
        guard state.sleepers.count < count else { return true }
        state.sleeperWaiters[id] = (count, continuation)
        return false
      }
      if reached {
        continuation.resume(returning: true)
        return
      }
      Task { [state] in
        try? await Task.sleep(for: timeout)
        state.withLock { $0.sleeperWaiters.removeValue(forKey: id) }?.continuation
          .resume(returning: false)
      }
    }
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
    }
    // An effect of a TestStore runs on the store's executor: wait until it suspends again.
    await sleeper.monitor?.whenIdle()
  }
}

extension TestClock.Instant {
  /// The instant `rhs` after `lhs`.
  ///
  /// - Parameters:
  ///   - lhs: An instant.
  ///   - rhs: A duration.
  /// - Returns: `lhs.advanced(by: rhs)`.
  public static func + (lhs: TestClock.Instant, rhs: Duration) -> TestClock.Instant {
    lhs.advanced(by: rhs)
  }
}
