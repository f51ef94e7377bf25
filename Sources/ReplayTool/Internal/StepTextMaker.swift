import ActionLog
import Foundation
import StateStore

/// Makes what the page shows of each step (``StepTexts``), on the replaying thread, from
/// canonical JSON alone: the action as the log holds it — its canonical JSON, in the canonical
/// form of the log it came from, for the Action tab — and the action and each effect on one
/// line with its row label, read from that JSON (``CanonicalJSONText/oneLine(_:)``,
/// ``CanonicalJSONText/label(_:)``). No `Mirror` of the host's values takes part.
///
/// The recorder writes each action as canonical JSON, and a decoded action encodes back to the
/// same bytes, so the page shows what the log says without carrying each line's bytes through
/// the replay: secrets and masked personal data stay the masks the log has. One encoder per
/// form.
///
/// An action is rendered once per canonical JSON (``renderings``), and a step's effects once
/// per canonical JSON of them all (``effectRenderings``): a log repeats its actions (every
/// keystroke of a masked password, every tap of the same button). The caches are bounded: long
/// values are never kept, and past ``maximumKept`` renderings a cache starts again empty.
struct StepTextMaker {
  private var encoders: [CanonicalForm: CanonicalJSONEncoder] = [:]
  /// Why the first action that could not be encoded could not, and how many could not.
  private(set) var failure: (reason: String, count: Int)?
  /// The renderings of actions met, by their canonical JSON.
  private var renderings: [String: ShownValue] = [:]
  /// The renderings of effects met, by the canonical JSON of the step's effects (one array, in
  /// the current form): most steps return no effects or the same ones.
  private var effectRenderings: [[UInt8]: [ShownValue]] = [:]
  /// The renderings kept at most, before a cache starts again.
  static var maximumKept: Int { 8 * 1024 }
  /// The longest canonical JSON whose rendering is kept, in bytes.
  static var longestKept: Int { 4 * 1024 }

  /// What the page shows of `step`: its action and effects on one line each, the action's
  /// JSON, its time, and the bytes its state was verified by when they are in the page's form.
  mutating func texts<R: Reducer>(of step: ReplayStep<R>) -> StepTexts
  where R.Action: Encodable, R.Effect: Encodable {
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
  ///     it (else, or when `form` is not the current one, they are encoded here).
  mutating func texts<State, Action: Encodable, Effect: Encodable>(
    of transition: Transition<State, Action, Effect>, time: Duration?, form: CanonicalForm,
    stateBytes: [UInt8]? = nil, effectsBytes: [UInt8]? = nil
  ) -> StepTexts {
    let encoder = encoder(for: form)
    let json: String?
    do {
      json = String(decoding: try encoder.encode(transition.action), as: UTF8.self)
    } catch {
      failure = (
        failure?.reason ?? CanonicalJSON.failure(error, encoding: Action.self),
        (failure?.count ?? 0) + 1
      )
      json = nil
    }
    // Shown in the current form whatever form the log is in, as its states are: a log of an
    // earlier form shows the same rows.
    let current = self.encoder(for: .current)
    let action: ShownValue
    if let json, let known = renderings[json] {
      action = known
    } else {
      do {
        let bytes = form == .current ? Array((json ?? "").utf8) : []
        action = ShownValue(bytes.isEmpty ? try current.encode(transition.action) : bytes)
      } catch {
        action = ShownValue(text: CanonicalJSON.oneLine(transition.action, using: current))
      }
      if let json, json.utf8.count <= Self.longestKept {
        if renderings.count >= Self.maximumKept { renderings.removeAll(keepingCapacity: true) }
        renderings[json] = action
      }
    }
    let effects = self.effects(
      of: transition.effects, bytes: form == .current ? effectsBytes : nil, encoder: current)
    return StepTexts(
      action: action, effects: effects, actionJSON: json, time: time, stateBytes: stateBytes)
  }

  /// The renderings of `effects`, whose canonical JSON (one array, in `encoder`'s form) is
  /// `known` when the replay has it.
  private mutating func effects<Effect: Encodable>(
    of effects: [Effect], bytes known: [UInt8]?, encoder: CanonicalJSONEncoder
  ) -> [ShownValue] {
    let bytes: [UInt8]
    do {
      bytes = try known ?? encoder.encode(effects)
    } catch {
      return effects.map { ShownValue(text: CanonicalJSON.oneLine($0, using: encoder)) }
    }
    if let rendered = effectRenderings[bytes] { return rendered }
    let rendered = CanonicalJSONText.elements(of: bytes)?.map(ShownValue.init) ?? []
    guard bytes.count <= Self.longestKept else { return rendered }
    if effectRenderings.count >= Self.maximumKept {
      effectRenderings.removeAll(keepingCapacity: true)
    }
    effectRenderings[bytes] = rendered
    return rendered
  }

  private mutating func encoder(for form: CanonicalForm) -> CanonicalJSONEncoder {
    if let encoder = encoders[form] { return encoder }
    let encoder = CanonicalJSONEncoder(form: form)
    encoders[form] = encoder
    return encoder
  }

  /// The warning for the actions that could not be encoded, if any.
  var warning: String? {
    guard let failure else { return nil }
    let steps = failure.count == 1 ? "1 step" : "\(failure.count) steps"
    return "the Action tab shows no JSON for \(steps): \(failure.reason)"
  }
}

/// An action or an effect as the page shows it: on one line, and as its row's label (the cases
/// it is nested in, and the innermost one).
struct ShownValue: Sendable, Equatable {
  var text: String
  /// The cases around the leaf, `login › edit`; empty when it is not nested.
  var breadcrumb: String
  var leaf: String

  /// The rendering of `bytes`, a value's canonical JSON.
  init(_ bytes: [UInt8]) {
    self.init(text: CanonicalJSONText.oneLine(bytes) ?? "")
    if let label = CanonicalJSONText.label(bytes) {
      breadcrumb = label.path.joined(separator: " \u{203A} ")
      leaf = label.leaf
    }
  }

  /// A text with no label of its own (a value with no canonical JSON).
  init(text: String) {
    self.text = text
    breadcrumb = ""
    leaf = text
  }
}
