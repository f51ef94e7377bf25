import ActionLog
import StateStore

/// The printed timeline's text of each replayed step (`replay LOG`, a flight recorder's folder,
/// `--follow`): ``TransitionFormatter``'s, told when the log says the state changed.
///
/// The formatter's diff folds long runs of elements that `==` calls equal without rendering
/// them, and a host type's `==` may ignore the field that changed (a model compared by its
/// `id`): such a step would read "(no state change)". The log knows better: a step whose
/// recorded digest is not the one of the step before changed the recorded state. Where the
/// diff shows nothing, such a step's two states are diffed whole.
///
/// The digests describe the recorded states, and an unverified replay may differ from them:
/// a replayed step that changed nothing where the recording changed something is rendered
/// whole, and reads "(no state change the rendering shows)".
struct PrintedSteps {
  private let formatter = TransitionFormatter()
  /// The recorded digest of the step before, while the steps follow one another.
  private var lastDigest: String?

  /// The text of `step`, the next step of the replay.
  mutating func text<R: Reducer>(of step: ReplayStep<R>) -> String {
    let before = step.followsGap ? nil : lastDigest
    lastDigest = step.recordedDigest
    return formatter.format(
      step.transition, time: step.time, changedUnseen: { before != step.recordedDigest })
  }

  /// Forgets the step before: the next step starts another recording (a launch, a
  /// replacement of a followed log).
  mutating func restart() {
    lastDigest = nil
  }
}
