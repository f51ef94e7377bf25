/// A wait for something that answers once, bounded in time: the first of the answer and the
/// timeout ends it, and the later one is ignored. The package's one way to wait with a
/// timeout for an answer another task gives (`Store`'s `finish(within:)`, a `ManualClock`'s
/// `waitForSleepers`, `HeldCalls`' `waitForCall`).
///
/// ```swift
/// let reached = await BoundedWait.first(timeout: .seconds(60), timedOut: false) { wait in
///   register { wait.end(true) }  // whatever answers calls `end` once it can
/// }
/// ```
///
/// The timer is a task sleeping on `clock` (real time by default); it is cancelled as soon as
/// the answer comes, so no task sleeps on for the rest of the timeout.
package final class BoundedWait<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Value, Never>?
    var timer: Task<Void, Never>?
    var isOver = false
  }

  private let state = Guarded(State())

  private init() {}

  /// Waits for the first of the answer and the timeout.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait at most, on `clock`.
  ///   - clock: The clock the timeout runs on; real time by default.
  ///   - timedOut: What the wait returns when the timeout comes first.
  ///   - onTimeout: Called when the timeout comes first, to forget the waiter `start`
  ///     registered.
  ///   - start: Registers the wait with what answers it, which calls ``end(_:)``; it may call
  ///     it at once (the answer is there already).
  /// - Returns: The answer, or `timedOut`.
  package static func first<C: Clock<Duration>>(
    timeout: Duration, clock: C = ContinuousClock(), timedOut: Value,
    onTimeout: @escaping @Sendable () -> Void = {},
    start: @Sendable (BoundedWait<Value>) -> Void
  ) async -> Value {
    let wait = BoundedWait<Value>()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
      wait.state.withLock { $0.continuation = continuation }
      start(wait)
      // Registered first, then timed: an answer that came in `start` leaves no timer behind.
      let timer = Task {
        do { try await clock.sleep(for: timeout) } catch { return }
        if wait.end(timedOut) { onTimeout() }
      }
      let isOver = wait.state.withLock { state -> Bool in
        if !state.isOver { state.timer = timer }
        return state.isOver
      }
      if isOver { timer.cancel() }
    }
  }

  /// Ends the wait with `value`, unless it has ended already.
  ///
  /// - Returns: Whether this call ended it.
  @discardableResult
  package func end(_ value: Value) -> Bool {
    let (continuation, timer) = state.withLock { state in
      state.isOver = true
      return (state.continuation.take(), state.timer.take())
    }
    timer?.cancel()
    continuation?.resume(returning: value)
    return continuation != nil
  }
}
