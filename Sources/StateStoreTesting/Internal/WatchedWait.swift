/// A test store's timeout, counted in the time the store could watch.
///
/// A test store waits on the main actor, waking at least every ``slice``. A wake that comes on
/// time counts in full. A wake that comes late counts as at most ``longestCountedWake``: the
/// main actor, or the threads its timer runs on, were busy with other work (other tests in
/// parallel, a build beside the suite), and while the store could not run, neither could the
/// effects whose answers it waits for, which need the same threads and hop to the same main
/// actor to send. So a loaded machine makes a wait longer in real time, not a passing test
/// fail: five seconds of a test store's timeout are five seconds in which the effects could run.
///
/// A wait never outlasts ``realTimeFactor`` times its timeout, or ``shortestRealTimeLimit`` for
/// a short one, in real time, whatever the load: nothing waits for ever. (A 500 ms timeout's
/// ten seconds were too few on a loaded two-core machine: the suite's other tests held both
/// cores for longer.)
struct WatchedWait {
  /// The longest a wait sleeps between two looks at the time.
  static let slice = Duration.milliseconds(50)
  /// The most one wake counts, however late it came.
  static let longestCountedWake = slice * 2
  /// How many times its timeout a wait may take in real time.
  static let realTimeFactor = 20
  /// The least real time a wait may take, however short its timeout.
  static let shortestRealTimeLimit = Duration.seconds(60)

  /// The time the wait may count.
  let timeout: Duration
  /// The time counted so far.
  private(set) var watched = Duration.zero
  private var lastWake: ContinuousClock.Instant
  private let realTimeLimit: ContinuousClock.Instant

  /// Starts a wait at `now`.
  init(timeout: Duration, now: ContinuousClock.Instant) {
    self.timeout = timeout
    self.lastWake = now
    self.realTimeLimit = now + max(timeout * Self.realTimeFactor, Self.shortestRealTimeLimit)
  }

  /// Counts the time since the last wake, at most ``longestCountedWake``.
  ///
  /// - Parameter now: The time of this wake.
  /// - Returns: Whether the wait goes on: time is left to count, and the real-time limit has
  ///   not passed.
  mutating func woke(at now: ContinuousClock.Instant) -> Bool {
    let elapsed = max(now - lastWake, .zero)
    watched += min(elapsed, Self.longestCountedWake)
    lastWake = now
    return watched < timeout && now < realTimeLimit
  }

  /// When to wake next, from `now`: after a slice, or when the rest of the timeout ends if
  /// that comes first.
  func nextWake(after now: ContinuousClock.Instant) -> ContinuousClock.Instant {
    now + min(Self.slice, timeout - watched)
  }
}
