import StateStore

/// One replayed step: the recorded action, the states before and after it in the replay, and
/// the effects the reducer returned (which a replay never runs).
///
/// ```swift
/// let step = try session.next()
/// print(TransitionFormatter().format(step.transition))
/// ```
public struct ReplayStep<R: Reducer> {
  /// The line of the log the action came from.
  public var line: Int
  /// When the action was sent, since recording started, as the log recorded it; `nil` for a
  /// log recorded before steps had times.
  public var time: Duration?
  /// The action, the replayed states before and after it, and the effects the reducer returned
  /// during the replay; `sequenceNumber` and `origin` are the recorded ones.
  public var transition: Transition<R.State, R.Action, R.Effect>
  /// The effects the log recorded for this step.
  public var recordedEffects: [R.Effect]
  /// The values the log recorded the reducer reading at this step, which the replay handed it
  /// back (what it read is the transition's ``StateStore/Transition/inputs``).
  public var recordedInputs: StepInputs = StepInputs()
  /// The state digest the log recorded for this step.
  public var recordedDigest: String
  /// Whether the log holds a full state checkpoint for this step.
  public var isCheckpoint: Bool
  /// Whether the recorder dropped transitions just before this step; the replay resumed from
  /// the state recorded in the gap marker.
  public var followsGap: Bool
  /// The canonical form the step's log is written in (its header's digest algorithm): what
  /// re-encodes the step's values as the log holds them.
  package var canonicalForm: CanonicalForm = .current
  /// The canonical bytes of the replayed state after the step, in ``canonicalForm``, when a
  /// verified replay that keeps them (``ReplaySession/keepsStateBytes``) checked its digest
  /// over them; `nil` otherwise.
  package var stateBytes: [UInt8]?
  /// The canonical JSON of the effects the replay returned (one array), in ``canonicalForm``,
  /// when a verified replay that keeps bytes compared them with the recorded ones; `nil`
  /// otherwise.
  package var effectsBytes: [UInt8]?

  /// The step's sequence number, as recorded.
  public var sequenceNumber: Int { transition.sequenceNumber }
}

/// What replaying a whole log (or a log up to a step) produced.
public struct ReplayResult<R: Reducer> {
  /// The log's header.
  public var header: ActionLogHeader<R.State>
  /// The state after the last replayed step (the initial state for a log without steps).
  public var finalState: R.State
  /// How many steps were replayed.
  public var stepCount: Int
  /// Every step, when the replay was asked to keep them; empty otherwise.
  public var steps: [ReplayStep<R>]
  /// Warnings: a truncated last line, dropped transitions, a `stopped` marker.
  public var warnings: [ActionLogError]
}
