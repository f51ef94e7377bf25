import Foundation

/// The bytes a recording may hold for its writer, and what the writer measured, shared by the
/// cores of one recording (a flight recorder's segments share one).
///
/// A pending transition holds its state (copy-on-write: a changed state is a copy of its
/// own), so it is charged the size of the last state the writer encoded, in canonical JSON,
/// plus the average line written. The charge stays held until the writer has written the
/// batch it is in, so the batch in flight and the one filling share the limit. One transition
/// is always admitted when nothing is held, however large it is.
@usableFromInline
final class RecorderBudget: @unchecked Sendable {
  /// What one buffered item is charged: memory while it waits, and the bytes its line is
  /// expected to take in the file.
  @usableFromInline
  struct Charge {
    @usableFromInline var memory: Int
    @usableFromInline var line: Int
  }

  /// What a buffered item costs besides its state and its line: the item itself and its
  /// share of the buffer's array.
  static let itemOverhead = 64

  /// A step line's expected size before the writer has written one: a step holds an action,
  /// its effects and a digest, not the state (a checkpoint does, once in a while).
  static let firstLineEstimate = 256

  /// The most bytes that may be held.
  let limit: Int

  private let lock = NSLock()
  private var held = 0
  private var stateBytes: Int?
  private var lineBytes = 0
  private var lineCount = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// Whether a state's size has been measured yet.
  var hasMeasured: Bool { lock.withLock { stateBytes != nil } }

  /// The bytes held now.
  var heldBytes: Int { lock.withLock { held } }

  /// Takes room for a transition, and for a gap marker before it when `withGap`; `nil` when
  /// there is none.
  @usableFromInline
  func admit(withGap: Bool) -> (transition: Charge, gap: Charge?)? {
    lock.lock()
    defer { lock.unlock() }
    let state = stateBytes ?? 0
    let line = lineCount > 0 ? lineBytes / lineCount : Self.firstLineEstimate
    let transition = Charge(memory: state + line + Self.itemOverhead, line: line)
    let gap = withGap ? Charge(memory: state + Self.itemOverhead, line: state + 64) : nil
    let total = transition.memory + (gap?.memory ?? 0)
    guard held == 0 || held + total <= limit else { return nil }
    held += total
    return (transition, gap)
  }

  /// The expected size of a header line holding a state like the last one measured.
  var headerLineEstimate: Int { lock.withLock { (stateBytes ?? 0) + 256 } }

  /// Gives back what a written (or discarded) batch held.
  func release(_ bytes: Int) {
    guard bytes > 0 else { return }
    lock.withLock { held -= bytes }
  }

  /// What the writer measured: the size of the last state it encoded, and the step lines of a
  /// batch (count and bytes, newlines included).
  func measured(stateBytes state: Int?, lines: Int, bytes: Int) {
    lock.withLock {
      if let state { stateBytes = state }
      lineCount += lines
      lineBytes += bytes
      // A long recording keeps the average of its recent lines, not of its first ones.
      if lineCount > 4_096 {
        lineCount /= 2
        lineBytes /= 2
      }
    }
  }
}
