/// When a recorder's writer must be woken, as a state machine: the part of the recorder's
/// buffer that decides whether offering a step schedules a drain.
///
/// Waking an idle `DispatchQueue` costs the main actor several microseconds, many times a send.
/// So the writer is woken only when it is idle, and after a drain that wrote it lingers: a
/// timer drains again after ``RecorderCore/linger``, and it lingers on for as long as each
/// linger saw a write. During a burst of sends the writer then wakes about once per linger,
/// never once per send; once a whole linger passes without a write it goes idle, and the next
/// step wakes it again. No lock, no clock, no queue here: the recorder's buffer holds this
/// behind its lock, and the shell schedules what each event returns.
@usableFromInline
package struct WriterWakeups: Equatable, Sendable {
  /// Whether a drain will run without a wake-up: one is queued or running, or a linger timer
  /// is armed.
  @usableFromInline package private(set) var isDrainScheduled = false
  /// Whether a linger timer is armed.
  package private(set) var isLingering = false
  /// Whether a drain wrote since the linger timer was armed.
  private var wroteWhileLingering = false

  /// An idle writer.
  package init() {}

  /// Something was buffered for the writer: whether to wake it (schedule a drain).
  @usableFromInline
  package mutating func buffered() -> Bool {
    if isDrainScheduled { return false }
    isDrainScheduled = true
    return true
  }

  /// A drain is scheduled without a step (the first header, a flush, the end): steps offered
  /// meanwhile need not wake the writer.
  package mutating func drainScheduled() {
    isDrainScheduled = true
  }

  /// A drain found nothing more to write and ends: whether to arm the linger timer.
  ///
  /// - Parameters:
  ///   - wrote: Whether this drain wrote anything.
  ///   - isOpen: Whether the recording still takes steps (no linger after it stopped).
  package mutating func drainEnded(wrote: Bool, isOpen: Bool) -> Bool {
    if isLingering {
      if wrote { wroteWhileLingering = true }
      return false
    }
    if wrote, isOpen {
      isLingering = true
      return true
    }
    isDrainScheduled = false
    return false
  }

  /// The linger timer fired, and a drain follows: whether to arm the timer again (a drain
  /// wrote during the linger, so steps are still coming).
  package mutating func lingerEnded(isOpen: Bool) -> Bool {
    defer { wroteWhileLingering = false }
    if wroteWhileLingering, isOpen { return true }
    isLingering = false
    return false
  }
}
