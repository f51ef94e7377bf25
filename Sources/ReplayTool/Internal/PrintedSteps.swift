import ActionLog
import StateStore

/// The printed timeline's text of each replayed step (`replay LOG`, a flight recorder's folder,
/// `--follow`): the action, the diff of the state, and the effects.
///
/// The state's diff is made of canonical bytes, as a verdict is: the state before and after
/// the step are encoded in the log's canonical form and diffed as lists of fields
/// (``CanonicalJSONText``), so a step reads "(no state change)" exactly when its bytes did not
/// change, whatever a host type's `==` says. The action and the effects are read from their
/// canonical JSON too, one line each (``CanonicalJSONText/oneLine(_:)``): no `Mirror` of the
/// host's values.
///
/// <!-- not output: the shape of a step; the goldens of `ReplayCommandTests` hold real ones -->
/// ```text
/// #4 0:00.001 user edit(field: "password", value: "Aaaa0a")
///     passwordEdited: true
///     … (1 unchanged)
///   − password: "A"
///   + password: "Aaaa0a"
/// ```
struct PrintedSteps {
  private let current = CanonicalJSONEncoder()
  private var encoder: CanonicalJSONEncoder?
  /// The canonical JSON of the state after the step before, while the steps follow one another.
  private var lastBytes: [UInt8]?

  /// The text of `step`, the next step of the replay.
  mutating func text<R: Reducer>(of step: ReplayStep<R>) -> String
  where R.State: Encodable, R.Action: Encodable, R.Effect: Encodable {
    let transition = step.transition
    let encoder = encoder(for: step.canonicalForm)
    // The action and the effects in the current form, whatever form the log is in: a log of an
    // earlier form prints the same lines.
    var lines = [
      TransitionFormatter.headline(
        transition, time: step.time,
        action: CanonicalJSON.oneLine(transition.action, using: current))
    ]
    let before = step.followsGap ? nil : lastBytes
    do {
      let old = try before ?? encoder.encode(transition.stateBefore)
      let new = try encoder.encode(transition.stateAfter)
      lastBytes = new
      if let diff = CanonicalJSONText.diff(from: old, to: new) {
        lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
      } else {
        lines.append("  (no state change)")
      }
    } catch {
      lastBytes = nil
      lines.append(
        "  (the state has no canonical JSON: "
          + CanonicalJSON.failure(error, encoding: R.State.self) + ")")
    }
    lines += TransitionFormatter.effectLines(
      transition.effects.map { CanonicalJSON.oneLine($0, using: current) })
    return lines.joined(separator: "\n")
  }

  /// Forgets the step before: the next step starts another recording (a launch, a
  /// replacement of a followed log).
  mutating func restart() {
    lastBytes = nil
  }

  private mutating func encoder(for form: CanonicalForm) -> CanonicalJSONEncoder {
    if let encoder, encoder.form == form { return encoder }
    let made = CanonicalJSONEncoder(form: form, remembersLeaves: true)
    encoder = made
    lastBytes = nil
    return made
  }
}
