import Foundation

/// The clock an action log's step times are measured on: each step records how long after the
/// recording started it was sent, in milliseconds.
///
/// The monotonic `ContinuousClock` by default. An app that runs on a clock of its own — a test
/// on a `TestClock`, a demo on a `ManualClock` whose time only a script moves — passes it, so the
/// log's times agree with the app's: a 30-second lockout on that clock is 30 seconds in the log.
///
/// ```swift
/// let options = RecordingOptions(clock: RecordingClock(manualClock))
/// ```
public struct RecordingClock: Sendable, Equatable {
  private let token = UUID()
  private let start: @Sendable () -> @Sendable () -> Duration

  /// Times steps on `clock`.
  ///
  /// - Parameter clock: Any clock whose durations are `Duration`.
  public init<C: Clock>(_ clock: C) where C.Duration == Duration {
    start = {
      let started = clock.now
      return { started.duration(to: clock.now) }
    }
  }

  /// The monotonic clock: real time, unaffected by changes of the device's time.
  public static let continuous = RecordingClock(ContinuousClock())

  /// A stopwatch started now: each call answers the time since.
  func startStopwatch() -> @Sendable () -> Duration {
    start()
  }

  /// Whether both are the same clock: made by the same call (``continuous`` is one).
  ///
  /// - Parameters:
  ///   - left: A clock.
  ///   - right: Another.
  /// - Returns: Whether they are one.
  public static func == (left: RecordingClock, right: RecordingClock) -> Bool {
    left.token == right.token
  }
}
