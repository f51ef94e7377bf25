/// How a ``BoundedWait/poll(every:timeout:clock:until:)`` ended.
package enum PollOutcome: Equatable, Sendable {
  /// The condition held.
  case done
  /// The timeout passed first.
  case timedOut
  /// The waiting task was cancelled.
  case cancelled
}

extension BoundedWait where Value == PollOutcome {
  /// Asks `isDone` at once and again every `interval` on `clock` until it says yes or
  /// `timeout` has passed: the bounded wait for a condition that nothing announces (a `flock`
  /// another process holds wakes no one when it is released).
  ///
  /// ```swift
  /// let outcome = try BoundedWait.poll(every: .milliseconds(2), timeout: .seconds(5)) {
  ///   flock(descriptor, LOCK_EX | LOCK_NB) == 0
  /// }
  /// ```
  ///
  /// `isDone` is asked once more at the deadline, so a condition that holds by then is not
  /// missed; the last sleep is cut short to end there. A test drives the wait with a
  /// `ManualClock`: every sleep returns only when the clock is advanced.
  ///
  /// - Parameters:
  ///   - interval: The sleep between two questions, on `clock`.
  ///   - timeout: How long to ask at most, on `clock`.
  ///   - clock: The clock both run on; real time by default.
  ///   - isDone: Whether the wait is over; what it throws ends the wait.
  /// - Returns: ``PollOutcome/done``, ``PollOutcome/timedOut``, or ``PollOutcome/cancelled``
  ///   when the task was cancelled while it slept.
  package static func poll<C: Clock<Duration>, Failure: Error>(
    every interval: Duration, timeout: Duration, clock: C = ContinuousClock(),
    until isDone: () throws(Failure) -> Bool
  ) async throws(Failure) -> PollOutcome {
    let deadline = clock.now.advanced(by: timeout)
    while true {
      if try isDone() { return .done }
      let left = clock.now.duration(to: deadline)
      guard left > .zero else { return .timedOut }
      do {
        try await clock.sleep(for: min(interval, left))
      } catch {
        return .cancelled
      }
    }
  }
}
