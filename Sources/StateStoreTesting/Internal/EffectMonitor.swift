import Dispatch
import StateStore

/// Runs a test store's effects and knows when they have all suspended.
///
/// Effects run with this executor as their task-executor preference, so every job of an
/// effect's nonisolated code passes through ``enqueue(_:)``. When no job is queued or running,
/// each effect is either finished or suspended (asleep on a `TestClock`, waiting on a fake,
/// or hopping to the main actor to send). The counters and the single waiter let the test
/// store await those moments without polling or fixed yields.
final class EffectMonitor: TaskExecutor {
  private struct State {
    var activeJobs = 0
    var entered = 0
    var finished = 0
    var signalled = false
    var waiter: CheckedContinuation<Void, Never>?
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Guarded(State())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    state.withLock { $0.activeJobs += 1 }
    DispatchQueue.global().async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      var idleWaiters: [CheckedContinuation<Void, Never>] = []
      self.update { state in
        state.activeJobs -= 1
        if state.activeJobs == 0 { swap(&idleWaiters, &state.idleWaiters) }
      }
      for waiter in idleWaiters { waiter.resume() }
    }
  }

  /// Returns once no effect job is queued or running: every effect has finished or suspended.
  func whenIdle() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let idle = state.withLock { state -> Bool in
        guard state.activeJobs > 0 else { return true }
        state.idleWaiters.append(continuation)
        return false
      }
      if idle { continuation.resume() }
    }
  }

  /// Effects that have entered their handler.
  var enteredCount: Int { state.withLock { $0.entered } }
  /// Effects whose handler has returned.
  var finishedCount: Int { state.withLock { $0.finished } }
  /// Whether no effect job is queued or running.
  var isIdle: Bool { state.withLock { $0.activeJobs == 0 } }

  func effectEntered() { update { $0.entered += 1 } }
  func effectFinished() { update { $0.finished += 1 } }

  /// Wakes the waiter, or lets the next ``wait()`` return at once.
  func signal() { update { _ in } }

  /// Suspends until the next ``signal()`` (or returns at once if one came since the last wait).
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = state.withLock { state -> Bool in
        if state.signalled {
          state.signalled = false
          return true
        }
        state.waiter = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  private func update(_ change: (inout State) -> Void) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      change(&state)
      guard let waiter = state.waiter else {
        state.signalled = true
        return nil
      }
      state.waiter = nil
      return waiter
    }
    waiter?.resume()
  }
}

/// Wraps a feature's handler so the test store can follow every effect.
struct MonitoredHandler<Base: EffectHandler>: EffectHandler {
  let base: Base
  let monitor: EffectMonitor

  func handle(_ effect: Base.Effect, send: Send<Base.Action>) async {
    // A `TestClock` that wakes this effect lets it run until it suspends again.
    let settle: @Sendable () async -> Void = { [monitor] in await monitor.whenIdle() }
    await ManualClock.$afterWake.withValue(settle) {
      await withTaskExecutorPreference(monitor) {
        monitor.effectEntered()
        await base.handle(effect, send: send)
      }
    }
    monitor.effectFinished()
  }
}
