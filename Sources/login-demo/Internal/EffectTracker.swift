import StateStore

/// Knows when the store has nothing left to do but wait for the user or for the clock.
///
/// Script mode renders a screen only once the store is *idle*: every effect the reducer
/// returned has either finished or is blocked on something only the script can unblock — an
/// alert waiting for a tap, or a task asleep on the script's `ManualClock` — or only the outside
/// world can: a request to the real service of `--api` (``outsideCount``), which the next
/// command can cancel at once. `wait` waits for those too (``untilQuiet()``). Waiting is done
/// with continuations resumed by those events, never by sleeping, so the screens are the same on
/// every run.
///
/// Effects are counted when the reducer returns them (a transition observer, which runs before
/// the effects start) and counted off when ``TrackingEffectHandler`` sees the handler return —
/// after the actions it sent have been reduced.
@MainActor
final class EffectTracker {
  private var started = 0
  private var finished = 0
  private var waiters: [(isReady: @MainActor () -> Bool, CheckedContinuation<Void, Never>)] = []
  /// How many effects are blocked on the user or the clock right now.
  var blockedCount: @MainActor () -> Int = { 0 }
  /// How many effects wait for the outside world right now: requests to a real service.
  var outsideCount: @MainActor () -> Int = { 0 }

  /// Whether every effect still running is blocked on the user, the clock or the outside world.
  var isIdle: Bool { started - finished <= blockedCount() + outsideCount() }

  /// Whether every effect still running is blocked on the user or the clock: nothing waits for
  /// the outside world.
  var isQuiet: Bool { started - finished <= blockedCount() }

  /// Counts the effects of one transition.
  func effectsStarted(_ count: Int) {
    started += count
  }

  /// Counts one effect off.
  func effectFinished() {
    finished += 1
    check()
  }

  /// Re-evaluates idleness; call it whenever something may have become blocked.
  func check() {
    guard !waiters.isEmpty else { return }
    var waiting: [(isReady: @MainActor () -> Bool, CheckedContinuation<Void, Never>)] = []
    for waiter in waiters {
      if waiter.isReady() { waiter.1.resume() } else { waiting.append(waiter) }
    }
    waiters = waiting
  }

  /// Returns once the store is idle.
  func untilIdle() async {
    while !isIdle {
      await withCheckedContinuation { waiters.append(({ [unowned self] in isIdle }, $0)) }
    }
  }

  /// Returns once the store is quiet: idle, and no request to a real service in flight.
  func untilQuiet() async {
    while !isQuiet {
      await withCheckedContinuation { waiters.append(({ [unowned self] in isQuiet }, $0)) }
    }
  }
}

/// Runs another handler and tells an ``EffectTracker`` when each effect is done.
struct TrackingEffectHandler<Base: EffectHandler>: EffectHandler {
  let base: Base
  let tracker: EffectTracker

  func handle(_ effect: Base.Effect, send: Send<Base.Action>) async {
    await base.handle(effect, send: send)
    await tracker.effectFinished()
  }
}
