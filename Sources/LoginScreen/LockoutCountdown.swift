import LoginFeature

/// The whole seconds left of a lockout, as the screen counts them down on the app's clock.
///
/// The store's state says how long the lockout lasts from when it began (`lockedFor`: the
/// rules' duration, or what remained of it at a relaunch); the host notes the clock's time when
/// the form locks and subtracts. The reducer never reads a clock, so the countdown is the
/// host's, like a spinner: no action per second reaches the store or its log. `login-demo`
/// counts on its own clock; the timeline (`replay --html`) on the recorded step times.
package struct LockoutCountdown {
  /// When the current lockout began, on the app's clock; `nil` while not locked.
  private var start: Duration?
  private var length: Duration = .zero

  /// A countdown that has not started.
  package init() {}

  /// Notes a new state at time `now`: a lockout that begins starts the count.
  package mutating func update(_ state: LoginState, now: Duration) {
    guard state.isLocked else {
      start = nil
      return
    }
    if start == nil {
      start = now
      length = state.lockedFor ?? state.rules.lockoutDuration
    }
  }

  /// The whole seconds left at `now`, rounded up (a lockout with 0.2 s left reads 1 s);
  /// `nil` while not locked.
  package func secondsLeft(at now: Duration) -> Int? {
    guard let start else { return nil }
    return Self.wholeSeconds(length - (now - start))
  }

  /// `duration` in whole seconds, rounded up, at least 1: how a lockout reads while it lasts.
  package static func wholeSeconds(_ duration: Duration) -> Int {
    guard duration > .zero else { return 1 }
    let (seconds, attoseconds) = duration.components
    return Int(seconds) + (attoseconds > 0 ? 1 : 0)
  }

  /// The time until the shown number next changes, for a timer that redraws then.
  package func untilNextTick(at now: Duration) -> Duration? {
    guard let start else { return nil }
    let left = length - (now - start)
    guard left > .zero else { return nil }
    let (seconds, attoseconds) = left.components
    let fraction = Duration(secondsComponent: 0, attosecondsComponent: attoseconds)
    return attoseconds > 0 ? fraction : (seconds > 0 ? .seconds(1) : nil)
  }
}
