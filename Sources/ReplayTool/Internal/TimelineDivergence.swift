import ActionLog
import StateStore

/// The first step whose replay differs from the recording, with what the page shows of it
/// side by side: the recorded diff and the replayed diff, the recorded effects and the
/// replayed ones.
struct TimelineDivergence<R: Reducer>
where
  R.State: Codable & Equatable, R.Action: Codable,
  R.Effect: Codable
{
  /// The step's position on the page, 0-based.
  let index: Int
  /// The step's recorded sequence number.
  let sequenceNumber: Int
  /// The divergence's one-line message, as `replay --verify` prints it.
  let headline: String
  /// Why it diverges, without the step and the action.
  let reason: String
  /// The step, replayed without checks; `nil` if the log ended before it (cannot happen for
  /// a divergence the verified replay found, but the page must not trap on it).
  let step: ReplayStep<R>?
  /// The state the log records for the step (its checkpoint, or what its patch rebuilds);
  /// `nil` in a log recorded before steps had patches, or why the patches do not rebuild it.
  let recorded: Result<R.State?, ActionLogError>
  /// The canonical JSON of the state before the step, of the replayed state after it, and of
  /// the recorded one (when the log holds it): what the page's diffs are made of. `nil` when a
  /// state has no canonical JSON.
  private let bytes: (before: [UInt8], replayed: [UInt8], recorded: [UInt8]?)?

  /// Takes the divergent step from `session`, an unverified session positioned just before it.
  ///
  /// - Throws: What reading the step throws.
  init(_ error: ActionLogError, index: Int, session: ReplaySession<R>) throws(ActionLogError) {
    self.index = index
    self.headline = String(error.description.split(separator: "\n").first ?? "")
    if case .divergence(let step, _, let reason, _) = error {
      sequenceNumber = step
      self.reason = reason
    } else {
      sequenceNumber = index + 1
      reason = headline
    }
    let step = try session.next()
    self.step = step
    do {
      recorded = .success(step == nil ? nil : try session.recordedState())
    } catch {
      recorded = .failure(error)
    }
    guard let step else {
      bytes = nil
      return
    }
    do {
      let recordedBytes: [UInt8]?
      if case .success(let state?) = recorded {
        recordedBytes = try session.recordedStateBytes() ?? session.canonicalBytes(of: state)
      } else {
        recordedBytes = nil
      }
      bytes = (
        try session.canonicalBytes(of: step.transition.stateBefore),
        try session.canonicalBytes(of: step.transition.stateAfter), recordedBytes
      )
    } catch {
      bytes = nil
    }
  }

  /// The page's `verify` object.
  func json() -> String {
    var fields = [
      "\"status\":\"diverged\"", "\"index\":\(index)", "\"number\":\(sequenceNumber)",
      "\"headline\":" + JSONText.string(headline), "\"cause\":" + JSONText.string(reason),
    ]
    if let step {
      let transition = step.transition
      let replayedDiff = bytes.flatMap { CanonicalJSONText.diff(from: $0.before, to: $0.replayed) }
      let recordedSide: String
      var recordedState: R.State?
      if case .success(let state) = recorded { recordedState = state }
      if recordedState != nil {
        recordedSide = side(
          diff: bytes.flatMap { bytes in
            bytes.recorded.flatMap { CanonicalJSONText.diff(from: bytes.before, to: $0) }
          },
          note: step.isCheckpoint
            ? "the full state the log holds for this step (a checkpoint)"
            : "the state the log records for this step (its patch applied to the state before)")
      } else if case .failure(let error) = recorded {
        recordedSide = side(
          diff: nil, note: "the log's patches do not rebuild this step's state: \(error)",
          hasState: false)
      } else if reason.hasPrefix("the replayed state's digest") {
        recordedSide = side(
          diff: nil,
          note: "the log holds only this step's digest \(step.recordedDigest), not its state: "
            + "the recorded state cannot be shown (a checkpoint line would hold it)",
          hasState: false)
      } else {
        recordedSide = side(
          diff: replayedDiff, note: "the same state: its digest matches the recording")
      }
      fields.append("\"recorded\":" + recordedSide)
      fields.append(
        "\"replayed\":"
          + side(
            diff: replayedDiff, note: "what the current reducer does with the recorded action"))
      let encoder = CanonicalJSONEncoder()
      let recorded = step.recordedEffects.map { CanonicalJSON.oneLine($0, using: encoder) }
      let replayed = transition.effects.map { CanonicalJSON.oneLine($0, using: encoder) }
      fields.append(
        "\"recordedEffects\":" + JSONText.array(Self.marked(recorded, "\u{2212}", replayed)))
      fields.append("\"replayedEffects\":" + JSONText.array(Self.marked(replayed, "+", recorded)))
      // The fields that differ, as `replay --verify` prints them: recorded −, replayed +.
      let fieldDiff = bytes.flatMap { bytes in
        bytes.recorded.flatMap { CanonicalJSONText.diff(from: $0, to: bytes.replayed) }
      }
      if let fieldDiff {
        let lines = fieldDiff.split(separator: "\n", omittingEmptySubsequences: false)
        fields.append("\"fieldDiff\":" + JSONText.array(lines.map(String.init)))
      }
    }
    return "{" + fields.joined(separator: ",") + "}"
  }

  /// `effects`, each marked with `sign` when `others` lacks it (counted as a multiset), else
  /// with a space: the marks `replay --verify` uses, − for recorded, + for replayed.
  static func marked(_ effects: [String], _ sign: String, _ others: [String]) -> [String] {
    var unmatched: [String: Int] = [:]
    for other in others { unmatched[other, default: 0] += 1 }
    return effects.map { effect in
      if let count = unmatched[effect], count > 0 {
        unmatched[effect] = count - 1
        return "  " + effect
      }
      return sign + " " + effect
    }
  }

  private func side(diff: String?, note: String, hasState: Bool = true) -> String {
    let lines = diff.map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
    return "{\"hasState\":\(hasState),\"note\":" + JSONText.string(note) + ",\"diff\":"
      + JSONText.array(lines.map(String.init)) + "}"
  }
}
