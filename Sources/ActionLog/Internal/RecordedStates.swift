import Foundation

/// The state a log recorded, followed as its reader goes: a base (the header's state, a gap's,
/// a checkpoint) and the patches of the steps since, applied when the state is asked for, so a
/// reader that never asks pays only for keeping the patches.
///
/// Every line was checked when it was read (``RecordedStateCheck``): a line whose patch or
/// checkpoint fails is reported there, by ``ActionLogReader/next()``, and ``fail(_:)`` keeps
/// that error for every ask up to the next base. A step without a patch or a checkpoint (a line
/// recorded before steps had patches) makes the state unknown up to the next base.
struct RecordedStates {
  /// Where a step line's patch and checkpoint are.
  typealias Parts = (patch: [UInt8]?, checkpoint: Range<Int>?)

  /// Patches kept unapplied at most, in bytes: past it they are applied as they come.
  static let pendingLimit = 1 << 20

  /// The line of the last entry: the header's, a gap's or a step's.
  private(set) var line: Int
  private var rebuilt: StatePatch.Rebuilt?
  private var pending: [(line: Int, patch: [UInt8])] = []
  private var pendingBytes = 0
  /// The bytes of the last state asked for, until the next entry.
  private var known: [UInt8]?
  private var failure: ActionLogError?

  /// Starts from `base`, the canonical JSON of the state at `line`; `nil` when the line does not
  /// hold it as the recorder writes it.
  init(base: [UInt8]?, line: Int = 1) {
    self.line = line
    rebuilt = base.map { StatePatch.Rebuilt(base: $0[...]) }
    known = base
  }

  /// Follows the step on `line`, checked when it was read: its patch or checkpoint, found
  /// where `parts` says.
  mutating func step(line: Int, in bytes: Data, parts: Parts) {
    self.line = line
    known = nil
    func slice(_ range: Range<Int>) -> [UInt8] {
      Array(bytes[(bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)])
    }
    if let checkpoint = parts.checkpoint {
      let base = slice(checkpoint)
      rebuilt = StatePatch.Rebuilt(base: base[...])
      pending = []
      pendingBytes = 0
      failure = nil
      return
    }
    guard let patch = parts.patch else {
      // Recorded before steps had patches: unknown up to the next base.
      rebuilt = nil
      pending = []
      pendingBytes = 0
      failure = nil
      return
    }
    guard rebuilt != nil, failure == nil else { return }
    pending.append((line, patch))
    pendingBytes += patch.count
    if pendingBytes > Self.pendingLimit { applyPending() }
  }

  /// Keeps `failure`, the verdict on the step on `line`, for every ask up to the next base.
  mutating func fail(_ failure: ActionLogError, line: Int) {
    self.line = line
    known = nil
    rebuilt = nil
    pending = []
    pendingBytes = 0
    self.failure = failure
  }

  /// The canonical JSON of the state after the last entry, or `nil` when the log does not hold
  /// it.
  mutating func bytes() throws(ActionLogError) -> [UInt8]? {
    if let failure { throw failure }
    if let known { return known }
    guard rebuilt != nil else { return nil }
    applyPending()
    if let failure { throw failure }
    guard let bytes = rebuilt?.bytes else { return nil }
    rebuilt = StatePatch.Rebuilt(base: bytes[...])
    known = bytes
    return bytes
  }

  private mutating func applyPending() {
    defer {
      pending = []
      pendingBytes = 0
    }
    for (line, patch) in pending {
      do throws(StatePatch.Malformed) {
        try rebuilt?.apply(patch[...])
      } catch {
        failure = .malformedLine(
          line: line, reason: "its patch does not apply to the recorded state: \(error.reason)")
        rebuilt = nil
        return
      }
    }
  }

  /// Where the patch and the checkpoint of a step line in another layout are.
  static func parts(of line: Data) -> Parts {
    let bytes = Array(line)[...]
    let members = JSONValueBytes.members(of: bytes.indices, in: bytes) ?? []
    func value(_ key: ActionLogFormat.Key) -> Range<Int>? {
      JSONValueBytes.value(of: key.rawValue, among: members, in: bytes)
    }
    return (value(.patch).map { Array(bytes[$0]) }, value(.checkpoint))
  }
}
