import StateStore

/// The bytes a recording may hold for its writer, and what the writer measured, shared by the
/// cores of one recording (a flight recorder's segments share one).
///
/// A pending transition holds its state (copy-on-write: a changed state is a copy of its
/// own), so it is charged the size of the last state the writer encoded, in canonical JSON,
/// plus the average line written. The charge stays held until the writer has written the
/// batch it is in, so the batch in flight and the one filling share the limit. One transition
/// is always admitted when nothing is held, however large it is.
@usableFromInline
final class RecorderBudget: Sendable {
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

  /// What the budget counts, behind the package's one lock type.
  struct Counts {
    var held = 0
    var stateBytes: Int?
    var lineBytes = 0
    var lineCount = 0
  }

  private let counts = Guarded(Counts())

  init(limit: Int) {
    self.limit = limit
  }

  /// Whether a state's size has been measured yet.
  var hasMeasured: Bool { counts.withLock { $0.stateBytes != nil } }

  /// The bytes held now.
  var heldBytes: Int { counts.withLock { $0.held } }

  /// Takes room for a transition, and for a gap marker before it when `withGap`; `nil` when
  /// there is none.
  @usableFromInline
  func admit(withGap: Bool) -> (transition: Charge, gap: Charge?)? {
    counts.withLock { counts in
      let state = counts.stateBytes ?? 0
      let line =
        counts.lineCount > 0 ? counts.lineBytes / counts.lineCount : Self.firstLineEstimate
      let transition = Charge(memory: state + line + Self.itemOverhead, line: line)
      let gap = withGap ? Charge(memory: state + Self.itemOverhead, line: state + 64) : nil
      let total = transition.memory + (gap?.memory ?? 0)
      guard counts.held == 0 || counts.held + total <= limit else { return nil }
      counts.held += total
      return (transition, gap)
    }
  }

  /// The expected size of a header line holding a state like the last one measured.
  var headerLineEstimate: Int { counts.withLock { ($0.stateBytes ?? 0) + 256 } }

  /// Gives back what a written (or discarded) batch held.
  @usableFromInline
  func release(_ bytes: Int) {
    guard bytes > 0 else { return }
    counts.withLock { $0.held -= bytes }
  }

  /// What the writer measured: the size of the last state it encoded, and the step lines of a
  /// batch (count and bytes, newlines included).
  func measured(stateBytes state: Int?, lines: Int, bytes: Int) {
    counts.withLock { counts in
      if let state { counts.stateBytes = state }
      counts.lineCount += lines
      counts.lineBytes += bytes
      // A long recording keeps the average of its recent lines, not of its first ones.
      if counts.lineCount > 4_096 {
        counts.lineCount /= 2
        counts.lineBytes /= 2
      }
    }
  }
}
