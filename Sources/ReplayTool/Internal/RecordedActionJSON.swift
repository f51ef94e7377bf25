import ActionLog
import Foundation

/// A step's action as the log holds it: its canonical JSON, in the canonical form of the log
/// it came from, for the timeline's Action tab.
///
/// The recorder writes each action as canonical JSON, and a decoded action encodes back to the
/// same bytes, so the page shows what the log says without carrying each line's bytes through
/// the replay: secrets and masked personal data stay the masks the log has. One encoder per
/// form, used on the replaying thread only.
struct RecordedActionJSON {
  private var encoders: [CanonicalForm: CanonicalJSONEncoder] = [:]
  /// Why the first action that could not be encoded could not, and how many could not.
  private(set) var failure: (reason: String, count: Int)?

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
