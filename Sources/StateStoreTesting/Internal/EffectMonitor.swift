import Dispatch
import Foundation
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
    /// Jobs enqueued since the monitor was made: tells ``settle()`` whether anything ran.
    var enqueuedJobs = 0
    var entered = 0
    var finished = 0
    var signalled = false
    var waiter: CheckedContinuation<Void, Never>?
    var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Threads blocked in ``waitUntilIdle(timeout:)``, each woken once no job is queued or
    /// running.
    var blockedWaiters: [DispatchSemaphore] = []
  }

  private let state = Guarded(State())

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    state.withLock { state in
      state.activeJobs += 1
      state.enqueuedJobs += 1
    }
    DispatchQueue.global().async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      var idleWaiters: [CheckedContinuation<Void, Never>] = []
      var blockedWaiters: [DispatchSemaphore] = []
      self.update { state in
        state.activeJobs -= 1
        if state.activeJobs == 0 {
          swap(&idleWaiters, &state.idleWaiters)
          swap(&blockedWaiters, &state.blockedWaiters)
        }
      }
      for waiter in idleWaiters { waiter.resume() }
      for waiter in blockedWaiters { waiter.signal() }
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

  /// Returns once the effects have run as far as they can without the clock moving: every
  /// effect is finished, or suspended on something other than the main actor.
  ///
  /// An effect that sends an action hops to the main actor and, once the action is reduced,
  /// runs on (to its next sleep, say). So after the effects are idle, an empty main-actor job —
  /// queued behind the deliveries — lets those run, and the wait repeats while that started
  /// effect jobs. A `TestClock` wakes the next sleeper only then, so a sleep that a woken
  /// effect starts after delivering its action still falls inside the same advance.
  ///
  /// Bounded: an effect that keeps sending without ever suspending elsewhere ends the wait
  /// after `limit` rounds.
  func settle(limit: Int = 10_000) async {
    await whenIdle()
    for _ in 0..<limit {
      let before = state.withLock { $0.enqueuedJobs }
      await MainActor.run {}
      await whenIdle()
      if state.withLock({ $0.enqueuedJobs }) == before { return }
    }
  }

  /// Effects that have entered their handler.
  var enteredCount: Int { state.withLock { $0.entered } }
  /// Effects whose handler has returned.
  var finishedCount: Int { state.withLock { $0.finished } }
  /// Whether no effect job is queued or running.
  var isIdle: Bool { state.withLock { $0.activeJobs == 0 } }

  /// Blocks the calling thread until no effect job is queued or running, for at most
  /// `timeout`; returns whether it got there.
  ///
  /// For a synchronous caller (a test store's `deinit`) that must not report an effect that is
  /// only returning from its last `send`. An effect waiting for the caller's thread (the main
  /// actor) is still running, and the wait ends at `timeout`.
  func waitUntilIdle(timeout: Duration) -> Bool {
    // Woken by the last job as it ends, not by polling.
    let idle = DispatchSemaphore(value: 0)
    let isIdleNow = state.withLock { state -> Bool in
      guard state.activeJobs > 0 else { return true }
      state.blockedWaiters.append(idle)
      return false
    }
    if isIdleNow { return true }
    // At most a day: the bound is for a test store's `deinit`, and must not overflow.
    let nanoseconds =
      min(max(timeout.components.seconds, 0), 86_400) * 1_000_000_000
      + max(timeout.components.attoseconds, 0) / 1_000_000_000
    if idle.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success { return true }
    // Timed out: forget the waiter, unless the last job took it meanwhile.
    let taken = state.withLock { state -> Bool in
      guard let index = state.blockedWaiters.firstIndex(where: { $0 === idle }) else {
        return true
      }
      state.blockedWaiters.remove(at: index)
      return false
    }
    return taken
  }

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
    let settle: @Sendable () async -> Void = { [monitor] in await monitor.settle() }
    await ManualClock.$afterWake.withValue(settle) {
      await withTaskExecutorPreference(monitor) {
        monitor.effectEntered()
        await base.handle(effect, send: send)
        // Counted in a job of the monitor's: once the monitor is idle, an effect that
        // returned is counted as finished.
        monitor.effectFinished()
      }
    }
  }
}
