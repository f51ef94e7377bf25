import ActionLog
import Foundation
import StateStore

/// Makes what the page shows of each step (``StepTexts``), on the replaying thread: the
/// action as the log holds it — its canonical JSON, in the canonical form of the log it came
/// from, for the Action tab — and the action and effects rendered on one line.
///
/// The recorder writes each action as canonical JSON, and a decoded action encodes back to the
/// same bytes, so the page shows what the log says without carrying each line's bytes through
/// the replay: secrets and masked personal data stay the masks the log has. One encoder per
/// form.
///
/// An action is rendered once per canonical JSON (``renderings``), and a step's effects once
/// per canonical JSON of them all (``effectRenderings``): a log repeats its actions
/// (every keystroke of a masked password, every tap of the same button), the reader decodes
/// each distinct line once into the same value (``DecodedValues``), and rendering is the
/// larger part of a step's texts. The cache is bounded like the reader's: long actions are
/// never kept, and past ``maximumKept`` renderings it starts again empty.
struct StepTextMaker {
  private var encoders: [CanonicalForm: CanonicalJSONEncoder] = [:]
  /// Why the first action that could not be encoded could not, and how many could not.
  private(set) var failure: (reason: String, count: Int)?
  /// The one-line renderings of actions met, by their canonical JSON.
  private var renderings: [String: String] = [:]
  /// The one-line renderings of effects met, by the canonical JSON of the step's effects (one
  /// array) and the form it is in: most steps return no effects or the same ones.
  private var effectRenderings: [EffectsKey: [String]] = [:]
  /// The renderings kept at most, before the cache starts again.
  static var maximumKept: Int { 8 * 1024 }
  /// The longest canonical JSON whose rendering is kept, in bytes.
  static var longestKept: Int { 4 * 1024 }

  /// What the page shows of `step`: its action and effects on one line each, the action's
  /// JSON, its time, and the bytes its state was verified by when they are in the page's form.
  mutating func texts<R: Reducer>(of step: ReplayStep<R>) -> StepTexts
  where R.Action: Encodable {
    texts(
      of: step.transition, time: step.time, form: step.canonicalForm,
      stateBytes: step.canonicalForm == .current ? step.stateBytes : nil,
      effectsBytes: step.effectsBytes)
  }

  /// What the page shows of `transition`, a step of a log written in `form`.
  ///
  /// - Parameters:
  ///   - stateBytes: The canonical JSON of the state after the step in the current form, when
  ///     the replay has it.
  ///   - effectsBytes: The canonical JSON of the step's effects in `form`, when the replay has
  ///     it: their renderings are then made once per distinct value.
  mutating func texts<State, Action: Encodable, Effect>(
    of transition: Transition<State, Action, Effect>, time: Duration?, form: CanonicalForm,
    stateBytes: [UInt8]? = nil, effectsBytes: [UInt8]? = nil
  ) -> StepTexts {
    let json = text(of: transition.action, form: form)
    let action: String
    if let json, let known = renderings[json] {
      action = known
    } else {
      action = Dump.renderOneLine(transition.action, limit: nil)
      if let json, json.utf8.count <= Self.longestKept {
        if renderings.count >= Self.maximumKept { renderings.removeAll(keepingCapacity: true) }
        renderings[json] = action
      }
    }
    return StepTexts(
      action: action, effects: effects(of: transition.effects, bytes: effectsBytes, form: form),
      actionJSON: json, time: time, stateBytes: stateBytes)
  }

  /// The one-line renderings of `effects`, whose canonical JSON in `form` is `bytes` when
  /// known.
  private mutating func effects<Effect>(
    of effects: [Effect], bytes: [UInt8]?, form: CanonicalForm
  ) -> [String] {
    guard let bytes, bytes.count <= Self.longestKept else {
      return effects.map { Dump.renderOneLine($0, limit: nil) }
    }
    let key = EffectsKey(bytes: bytes, form: form)
    if let known = effectRenderings[key] { return known }
    let rendered = effects.map { Dump.renderOneLine($0, limit: nil) }
    if effectRenderings.count >= Self.maximumKept {
      effectRenderings.removeAll(keepingCapacity: true)
    }
    effectRenderings[key] = rendered
    return rendered
  }

  private struct EffectsKey: Hashable {
    var bytes: [UInt8]
    var form: CanonicalForm
  }

  /// The canonical JSON of `action` in `form`; `nil` (counted in ``failure``) for an action
  /// with no canonical JSON.
  mutating func text<Action: Encodable>(of action: Action, form: CanonicalForm) -> String? {
    let encoder = encoders[form] ?? CanonicalJSONEncoder(form: form)
    encoders[form] = encoder
    do {
      return String(decoding: try encoder.encode(action), as: UTF8.self)
    } catch {
      failure = (
        failure?.reason ?? CanonicalJSON.failure(error, encoding: Action.self),
        (failure?.count ?? 0) + 1
      )
      return nil
    }
  }

  /// The warning for the actions that could not be encoded, if any.
  var warning: String? {
    guard let failure else { return nil }
    let steps = failure.count == 1 ? "1 step" : "\(failure.count) steps"
    return "the Action tab shows no JSON for \(steps): \(failure.reason)"
  }
}
