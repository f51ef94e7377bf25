import Foundation

/// The verdict on each step line's recorded state, given as the line is read, in the order
/// read: a checkpoint against the digest on its own line, and a patch against the digest the
/// state it rebuilds must have. A line that fails is named with the field at fault, so a lying
/// patch or checkpoint is reported at its own line, never at a later one.
///
/// The state is rebuilt from the header's state, a gap's or a checkpoint, and the patches
/// since; its digest is taken over the rebuilt parts in place (``StatePatch/Rebuilt/digest``).
/// A step without a patch or a checkpoint (a line recorded before steps had patches) leaves the
/// state unknown, and unchecked, up to the next base. The reader runs it where it decodes the
/// lines, so a prefetching reader checks on its background thread.
struct RecordedStateCheck {
  private var rebuilt: StatePatch.Rebuilt?

  /// Starts from `base`, the canonical JSON of the header's state; `nil` when the header does
  /// not hold it as the recorder writes it.
  init(base: [UInt8]?) {
    rebuilt = base.map { StatePatch.Rebuilt(base: $0[...]) }
  }

  /// Starts again from a gap marker's state.
  mutating func restart(from base: [UInt8]?) {
    rebuilt = base.map { StatePatch.Rebuilt(base: $0[...]) }
  }

  /// Checks the step on `line`: its checkpoint, or its patch applied to the state before it,
  /// against its `digest`.
  ///
  /// - Parameters:
  ///   - line: The step's line number.
  ///   - digest: The digest the line records.
  ///   - bytes: The line.
  ///   - parts: Where its patch and checkpoint are (``RecordedStates/parts(of:)``).
  /// - Returns: ``ActionLogError/malformedLine(line:reason:)`` naming the field at fault, or
  ///   `nil` when the line holds (or has nothing to check).
  mutating func check(
    step line: Int, digest: String, in bytes: Data, parts: RecordedStates.Parts
  ) -> ActionLogError? {
    if let checkpoint = parts.checkpoint {
      let start = bytes.startIndex
      let state = Array(bytes[(start + checkpoint.lowerBound)..<(start + checkpoint.upperBound)])
      rebuilt = StatePatch.Rebuilt(base: state[...])
      guard StateDigest.hash(StateDigest.fnv1a(state), isWrittenAs: digest) else {
        rebuilt = nil
        return .malformedLine(
          line: line,
          reason: "its 'checkpoint' does not have the digest its 'digest' records (one of the "
            + "two was changed)")
      }
      return nil
    }
    guard let patch = parts.patch else {
      // Recorded before steps had patches: unknown up to the next base.
      rebuilt = nil
      return nil
    }
    guard rebuilt != nil else { return nil }
    do throws(StatePatch.Malformed) {
      try rebuilt?.apply(patch[...])
    } catch {
      rebuilt = nil
      return .malformedLine(
        line: line,
        reason: "its 'patch' does not apply to the recorded state before it: \(error.reason)")
    }
    guard let rebuilt, StateDigest.hash(rebuilt.digest, isWrittenAs: digest) else {
      self.rebuilt = nil
      return .malformedLine(
        line: line,
        reason: "the state its 'patch' rebuilds does not have the digest its 'digest' records "
          + "(one of the two was changed)")
    }
    return nil
  }
}
