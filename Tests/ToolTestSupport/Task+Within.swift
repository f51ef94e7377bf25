import StateStore
import Testing

/// A task still running when a bounded wait for it gave up; the issue is already recorded
/// where the wait was.
package struct StillRunning: Error, CustomStringConvertible {
  package var description: String {
    "A bounded wait for a task gave up (see the issue before this)."
  }
}

extension Task {
  /// The task's result, or `nil` when it is still running after `timeout` of real time: the
  /// tests' one bounded wait for a task. The task is left running.
  ///
  /// The bound only turns a hang into a failure: pass one far above what a busy machine needs
  /// (on two loaded cores, the suite's tasks have waited over 30 s for a thread).
  ///
  /// - Parameter timeout: How long to wait at most, in real time.
  /// - Returns: The task's result, or `nil`.
  package func outcome(within timeout: Duration) async -> Result<Success, Failure>? {
    let waiter = Guarded<CheckedContinuation<Result<Success, Failure>?, Never>?>(nil)
    return await withCheckedContinuation { continuation in
      waiter.withLock { $0 = continuation }
      let timer = Task<Void, Never> {
        do { try await Task<Never, Never>.sleep(for: timeout) } catch { return }
        waiter.withLock { $0.take() }?.resume(returning: nil)
      }
      Task<Void, Never> {
        let result = await self.result
        timer.cancel()
        waiter.withLock { $0.take() }?.resume(returning: result)
      }
    }
  }

  /// The task's result, waited for at most `timeout` of real time.
  ///
  /// A task that a regression leaves asleep on a clock fails the test here — an issue is
  /// recorded and ``StillRunning`` thrown, so the test stops — instead of hanging the suite.
  /// Thirty seconds by default: far more than any task here takes, even on two busy cores.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait at most, in real time.
  ///   - sourceLocation: Where the issue is reported.
  /// - Returns: The task's result.
  /// - Throws: ``StillRunning`` when the task has not ended in time.
  package func result(
    within timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Result<Success, Failure> {
    guard let result = await outcome(within: timeout) else {
      Issue.record("The task was still running after \(timeout).", sourceLocation: sourceLocation)
      throw StillRunning()
    }
    return result
  }

  /// The task's value, waited for at most `timeout` of real time; see
  /// ``result(within:sourceLocation:)``.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait at most, in real time.
  ///   - sourceLocation: Where the issue is reported.
  /// - Returns: The task's value.
  /// - Throws: What the task threw, or ``StillRunning``.
  package func value(
    within timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> Success {
    try await result(within: timeout, sourceLocation: sourceLocation).get()
  }
}
