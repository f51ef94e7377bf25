import Foundation
import StateStore

/// Replays an action log through a reducer, step by step, without running any effect, and
/// checks every step against the recording.
///
/// The reducer is the only thing that runs: each recorded action is reduced into the replayed
/// state, and the effects it returns are compared with the recorded ones, never carried out.
/// With verification on (the default) every step's ``StateDigest`` and every checkpoint must
/// match; the first mismatch throws ``ActionLogError/divergence(step:action:reason:diff:)``
/// with the step, the action and the diff:
///
/// <!-- sample: replay-divergence -->
/// ```text
/// step 4 (edit(field: "password", value: "Aaaa0")): the replayed state differs from the recorded state
///   … (4 unchanged)
/// − password: "Aaaa0a"
/// + password: "Aaaa0"
///   … (4 unchanged)
/// (recorded: −, replayed: +)
/// ```
///
/// ```swift
/// let replayer = Replayer(reducer: LoginReducer())
/// let session = try replayer.steps(of: logURL)
/// while let step = try session.next() {
///   print(TransitionFormatter().format(step.transition))
/// }
/// let result = try replayer.replay(logURL)   // the final state, for a snapshot
/// ```
///
/// Replaying does blocking file reads; call it from a background task, not the main actor.
public struct Replayer<R: Reducer>
where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
  /// The reducer the actions are fed into.
  public let reducer: R

  /// Creates a replayer for `reducer`.
  ///
  /// - Parameter reducer: The feature's reducer, the same that recorded the log.
  public init(reducer: R) {
    self.reducer = reducer
  }

  /// Opens the log at `url` for a step-by-step replay.
  ///
  /// The session reads and decodes the log ahead on a second thread while the steps before are
  /// reduced and checked; the steps, warnings and errors are those of reading it in order.
  ///
  /// - Parameters:
  ///   - url: The log file.
  ///   - verify: Whether to check digests, checkpoints and effects at every step.
  ///   - options: The line limit and the expected feature.
  /// - Returns: A session; call ``ReplaySession/next()`` for each step.
  /// - Throws: The header errors of ``ActionLogReader/init(url:options:)``.
  public func steps(
    of url: URL, verify: Bool = true, options: ActionLogReadOptions = .init()
  ) throws(ActionLogError) -> ReplaySession<R> {
    ReplaySession(
      reducer: reducer,
      reader: try ActionLogReader(url: url, options: options, follows: false, prefetches: true),
      verifies: verify)
  }

  /// Opens the log at `url` for a replay that follows it as it is written (`replay
  /// --follow`): ``ReplaySession/next()`` returns `nil` at the end written so far, and again
  /// steps once more are appended; ``ReplaySession/hasEnded`` says when the recording ended.
  ///
  /// - Throws: The header errors of ``ActionLogReader/init(url:options:)``.
  package func following(
    _ url: URL, verify: Bool = true, options: ActionLogReadOptions = .init()
  ) throws(ActionLogError) -> ReplaySession<R> {
    ReplaySession(
      reducer: reducer,
      reader: try ActionLogReader(url: url, options: options, follows: true),
      verifies: verify)
  }

  /// Replays the log at `url` to its end (or through step `step`) and returns the final
  /// state.
  ///
  /// Use it to turn a recorded log into a regression test: snapshot `finalState`.
  ///
  /// - Parameters:
  ///   - url: The log file.
  ///   - verify: Whether to check digests, checkpoints and effects at every step.
  ///   - step: Stop after the first step whose sequence number is at least this; `nil` for
  ///     the whole log.
  ///   - keepingSteps: Whether to return every step (memory grows with the log).
  ///   - options: The line limit and the expected feature.
  /// - Returns: The final state, the step count, the steps if kept, and the warnings.
  /// - Throws: Any ``ActionLogError`` that is not a warning.
  public func replay(
    _ url: URL,
    verify: Bool = true,
    through step: Int? = nil,
    keepingSteps: Bool = false,
    options: ActionLogReadOptions = .init()
  ) throws(ActionLogError) -> ReplayResult<R> {
    let session = try steps(of: url, verify: verify, options: options)
    var steps: [ReplayStep<R>] = []
    while let next = try session.next() {
      if keepingSteps { steps.append(next) }
      if let step, next.sequenceNumber >= step { break }
    }
    return ReplayResult(
      header: session.header, finalState: session.state, stepCount: session.stepCount,
      steps: steps, warnings: session.warnings)
  }
}

/// A replay in progress: call ``next()`` until it returns `nil`.
///
/// After a failure, ``state`` still holds the state after the last good step, and every step
/// before it has been returned — bad input never loses the good part.
public final class ReplaySession<R: Reducer>
where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
  /// Whether digests, checkpoints and effects are checked.
  public let verifies: Bool
  /// The replayed state after the last step.
  public private(set) var state: R.State
  /// How many steps have been replayed.
  public private(set) var stepCount = 0

  private let reducer: R
  private let reader: ActionLogReader<R.State, R.Action, R.Effect>
  /// Encodes every replayed state whole, in the canonical form the header names (the form the
  /// recorder digested in), and every effect compared (see `EffectComparison`). It keeps the
  /// bytes of an `IdentifiedList`'s leaves under the leaf's own identity, as the recorder does:
  /// no host's `==` takes part in a verdict.
  private let encoder: CanonicalJSONEncoder
  private let effectComparison: EffectComparison<R.Effect>
  private var failure: ActionLogError?
  /// Whether a gap marker came before the next step (kept across calls: a followed log may
  /// end, for now, between the two).
  private var followsGap = false
  /// Whether each verified step keeps the canonical bytes its state was verified by
  /// (``ReplayStep/stateBytes``), for a tool that renders them (the page): the state is
  /// encoded once, for both.
  package var keepsStateBytes = false

  private func resetFollowsGap() -> Bool {
    defer { followsGap = false }
    return followsGap
  }

  init(reducer: R, reader: ActionLogReader<R.State, R.Action, R.Effect>, verifies: Bool) {
    self.reducer = reducer
    self.reader = reader
    self.verifies = verifies
    self.state = reader.header.initialState
    self.encoder = CanonicalJSONEncoder(form: reader.form, remembersLeaves: true)
    self.effectComparison = EffectComparison(encoder: CanonicalJSONEncoder(form: reader.form))
  }

  /// The log's header.
  public var header: ActionLogHeader<R.State> { reader.header }

  /// The state the log recorded after the last step ``next()`` returned, which a verified
  /// replay has reached too (see ``ActionLogReader/recordedState()``): `nil` when the log does
  /// not hold it at this step (lines recorded before steps had patches).
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` when the log's patches do not
  ///   rebuild it.
  public func recordedState() throws(ActionLogError) -> R.State? {
    try reader.recordedState()
  }

  /// Whether the replayed state after the last step ``next()`` returned has the digest the
  /// log recorded for that step, its canonical bytes encoded whole: an unverified replay uses
  /// it to tell, step by step, where it still agrees with the recording.
  ///
  /// - Parameter step: The step ``next()`` returned last.
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when the state cannot be encoded.
  package func stateMatchesRecording(_ step: ReplayStep<R>) throws(ActionLogError) -> Bool {
    let digest = try self.digest(of: step.transition.stateAfter)
    return StateDigest.hash(digest, isWrittenAs: step.recordedDigest)
  }

  /// Whether the effects the replay returned for `step` are the recorded ones, byte for byte
  /// in canonical JSON (never by the effect type's `==` or a rendering): an unverified replay
  /// uses it to tell, step by step, where it still agrees with the recording.
  ///
  /// - Parameter step: The step ``next()`` returned last.
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when an effect cannot be encoded.
  package func effectsMatchRecording(_ step: ReplayStep<R>) throws(ActionLogError) -> Bool {
    try effectComparison.difference(step.recordedEffects, step.transition.effects) == nil
  }

  /// The canonical JSON of the state the log recorded after the last step ``next()``
  /// returned (see ``ActionLogReader/recordedStateBytes()``).
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` when the log's lines do not
  ///   rebuild it.
  package func recordedStateBytes() throws(ActionLogError) -> [UInt8]? {
    try reader.recordedStateBytes()
  }

  /// The canonical JSON of `state` in the log's form.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when it has none.
  package func canonicalBytes(of state: R.State) throws(ActionLogError) -> [UInt8] {
    do {
      return try encoder.encode(state)
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: R.State.self))
    }
  }

  /// Warnings met so far (see ``ActionLogReader/warnings``).
  public var warnings: [ActionLogError] { reader.warnings }

  /// How many bytes of the log have been read (for progress on long logs).
  package var bytesRead: Int { reader.bytesRead }

  /// Whether the recording ended (see ``ActionLogReader/hasEnded``).
  package var hasEnded: Bool { reader.hasEnded }

  /// Whether the log's path now holds another recording (see
  /// ``ActionLogReader/isReplaced()``).
  package func isReplaced() -> Bool { reader.isReplaced() }

  /// Reduces the next recorded action and returns the step, or `nil` at the end of the log.
  ///
  /// - Returns: The next step.
  /// - Throws: The line errors of ``ActionLogReader/next()``, and with verification
  ///   ``ActionLogError/divergence(step:action:reason:diff:)``. After a failure every call
  ///   throws it again.
  public func next() throws(ActionLogError) -> ReplayStep<R>? {
    if let failure { throw failure }
    do {
      return try advance()
    } catch {
      failure = error
      throw error
    }
  }

  private func advance() throws(ActionLogError) -> ReplayStep<R>? {
    while let entry = try reader.next() {
      switch entry {
      case .gap(_, _, let resumed):
        state = resumed
        followsGap = true
      case .transition(let recorded):
        let before = state
        // The reducer reads back the values the step recorded, in order.
        var inputs = ReducerInputs(replaying: recorded.inputs)
        let effects = reducer.reduce(into: &state, action: recorded.action, inputs: &inputs)
        let bytes = verifies ? try verify(recorded, effects: effects, inputs: inputs) : nil
        stepCount += 1
        return ReplayStep(
          line: recorded.line, time: recorded.time,
          transition: Transition(
            sequenceNumber: recorded.sequenceNumber, origin: recorded.origin,
            action: recorded.action, effects: effects, inputs: inputs.read, stateBefore: before,
            stateAfter: state),
          recordedEffects: recorded.effects,
          recordedInputs: recorded.inputs,
          recordedDigest: recorded.digest,
          isCheckpoint: recorded.checkpoint != nil,
          followsGap: resetFollowsGap(),
          canonicalForm: reader.form,
          stateBytes: bytes?.state,
          effectsBytes: bytes?.effects)
      }
    }
    return nil
  }

  /// Checks one step: the reducer asked for the inputs the step recorded (the date if one is
  /// recorded, as many ids and random numbers), and, by canonical bytes, the replayed state,
  /// encoded whole, has the digest the step recorded, and the effects the reducer returned
  /// encode as the recorded ones. No
  /// host's `==` takes part, so the first step whose bytes differ is the step where the replay
  /// began to differ from the recording. (The reader has checked that a checkpoint's state has
  /// its line's digest: a replayed state with that digest is the checkpoint's.)
  ///
  /// - Returns: The canonical bytes of the state and of the effects when ``keepsStateBytes``
  ///   is set, else `nil`.
  private func verify(
    _ recorded: RecordedTransition<R.State, R.Action, R.Effect>, effects: [R.Effect],
    inputs: ReducerInputs
  ) throws(ActionLogError) -> (state: [UInt8], effects: [UInt8])? {
    func divergence(_ reason: String, _ diff: String?) -> ActionLogError {
      .divergence(
        step: recorded.sequenceNumber,
        action: CanonicalJSON.oneLine(recorded.action, using: CanonicalJSONEncoder()),
        reason: reason,
        diff: diff.map { $0 + "\n(recorded: \u{2212}, replayed: +)" })
    }
    // First: a reducer that asked for other inputs than recorded went another way at this
    // step, whatever its state shows.
    if let mismatch = inputs.replayMismatch { throw divergence(mismatch, nil) }
    let bytes = keepsStateBytes ? try canonicalBytes(of: state) : nil
    let digest: UInt64
    if let bytes { digest = StateDigest.fnv1a(bytes) } else { digest = try self.digest(of: state) }
    guard StateDigest.hash(digest, isWrittenAs: recorded.digest) else {
      throw digestDivergence(digest, recordedDigest: recorded.digest, divergence: divergence)
    }
    let comparison = try effectComparison.compare(recorded.effects, effects)
    if let diff = comparison.difference {
      throw divergence("the reducer returned other effects than recorded", diff)
    }
    return bytes.map { ($0, comparison.replayedBytes) }
  }

  /// The digest of `state`'s canonical JSON.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming the state's type, when it has none.
  private func digest(of state: R.State) throws(ActionLogError) -> UInt64 {
    do {
      return try CanonicalJSON.digest(state, using: encoder)
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: R.State.self))
    }
  }

  /// The divergence of a replayed state whose digest is not the recorded one: with the diff of
  /// the two states' canonical JSON (``CanonicalJSONText``), the recorded one as the reader's
  /// lines rebuild it at this step.
  private func digestDivergence(
    _ digest: UInt64, recordedDigest: String,
    divergence: (String, String?) -> ActionLogError
  ) -> ActionLogError {
    let digests =
      "the replayed state's digest \(StateDigest.hex(digest)) differs from the recorded "
      + Sanitized.plain(recordedDigest)
    let recorded: [UInt8]?
    do {
      recorded = try reader.recordedStateBytes()
    } catch {
      return divergence("\(digests) (the log cannot show the recorded state: \(error))", nil)
    }
    guard let recorded else {
      return divergence("\(digests) (no checkpoint at this step to diff against)", nil)
    }
    let replayed: [UInt8]
    do {
      replayed = try encoder.encode(state)
    } catch {
      return divergence("\(digests) (the replayed state could not be encoded again)", nil)
    }
    guard let diff = CanonicalJSONText.diff(from: recorded, to: replayed) else {
      return divergence("\(digests) (the recorded state is not JSON)", nil)
    }
    return divergence("the replayed state differs from the recorded state", diff)
  }
}
