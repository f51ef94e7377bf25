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
/// step 4 (LoginAction.edit(set(password: Secret(Aaaa0)))): the replayed state differs from the recorded checkpoint
///   LoginState(
///     username: "demo",
/// −   password: Secret(Aaaa0a),
/// +   password: Secret(Aaaa0),
///     isLoading: false,
///     failedAttempts: 0,
///     isLocked: false,
///     attemptID: 0,
///     user: nil,
///     rules: CredentialRules(
///       kind: CredentialRules.Kind.default,
///       maxAttempts: 5,
///       lockoutDuration: 30 seconds
///     ),
///     twoFactor: nil,
///     notice: nil,
///     lockedFor: nil,
///     passwordReset: nil,
///     restoring: nil,
///     usernameEdited: true,
///     passwordEdited: true,
///     submitTried: nil
///   )
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
      verifies: verify, reopen: reopening(url, options))
  }

  /// Opens the log at `url` again, unverified: how a verified session traces a divergence back
  /// to the step where it began.
  private func reopening(
    _ url: URL, _ options: ActionLogReadOptions
  ) -> () throws(ActionLogError) -> ReplaySession<R> {
    { [reducer] () throws(ActionLogError) in
      try Replayer(reducer: reducer).steps(of: url, verify: false, options: options)
    }
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
      verifies: verify, reopen: reopening(url, options))
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
      if let step, next.sequenceNumber >= step {
        try session.checkStepsSoFar()
        break
      }
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
  // Remembers the state's nested values: a step changes a field or two, so the rest comes
  // out of memory instead of being encoded again for every digest. It writes the canonical
  // form the header names: the form the recorder digested in.
  private let encoder: CanonicalJSONEncoder
  /// Encodes whole, with nothing remembered: the state at checkpoints and before a mismatch is
  /// called a divergence, and the effects it compares (see `EffectComparison`).
  private let wholeEncoder: CanonicalJSONEncoder
  private let effectComparison: EffectComparison<R.Effect>
  private var lastDigest: String?
  /// The last step's sequence number and action, for a divergence found after it.
  private var lastStep: (sequenceNumber: Int, action: R.Action)?
  /// How many steps had been returned when the replayed state was last known to be the
  /// recorded one without a shortcut: encoded whole and found as recorded, or the state of the
  /// header or of a gap marker. A divergence found later may have begun at any step after it.
  private var stepsCheckedWhole = 0
  /// The replayed state when it was last checked whole, and the recorded actions and digests
  /// of the steps verified since: what ``traced(_:foundAt:)`` reduces again. `nil` past
  /// ``maximumKeptSteps`` steps since (a log with checkpoints far apart, or none).
  private var checkedWholeState: R.State?
  private var sinceCheckedWhole: [(action: R.Action, digest: String)] = []
  /// The most steps kept for tracing a divergence back; past it, the log is read again.
  package static var maximumKeptSteps: Int { 10_000 }
  /// Opens the log again from its start, unverified (see ``traced(_:foundAt:)``).
  private let reopen: (() throws(ActionLogError) -> ReplaySession<R>)?
  /// Whether every step's state is encoded whole, with neither shortcut on the state's `==`
  /// (see ``verify(_:before:effects:)``): a divergence is then found at the step where it
  /// begins, never later, at the cost of encoding the whole state at each step. The timeline
  /// page sets it, as it marks every step before the divergence as matching.
  package var checksEveryStepWhole = false
  private var failure: ActionLogError?
  /// Whether a gap marker came before the next step (kept across calls: a followed log may
  /// end, for now, between the two).
  private var followsGap = false

  private func resetFollowsGap() -> Bool {
    defer { followsGap = false }
    return followsGap
  }

  init(
    reducer: R, reader: ActionLogReader<R.State, R.Action, R.Effect>, verifies: Bool,
    reopen: (() throws(ActionLogError) -> ReplaySession<R>)? = nil
  ) {
    self.reducer = reducer
    self.reader = reader
    self.verifies = verifies
    self.reopen = reopen
    self.state = reader.header.initialState
    self.checkedWholeState = reader.header.initialState
    self.encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: reader.form)
    self.wholeEncoder = CanonicalJSONEncoder(form: reader.form)
    self.effectComparison = EffectComparison(encoder: wholeEncoder)
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
  /// log recorded for that step. The state is encoded whole, with nothing remembered, so no
  /// host's `==` takes part: an unverified replay uses it to tell, step by step, where it still
  /// agrees with the recording.
  ///
  /// - Parameter step: The step ``next()`` returned last.
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when the state cannot be encoded.
  package func stateMatchesRecording(_ step: ReplayStep<R>) throws(ActionLogError) -> Bool {
    let digest = try self.digest(of: step.transition.stateAfter, using: wholeEncoder)
    return StateDigest.hash(digest, isWrittenAs: step.recordedDigest)
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
        // The steps before the gap get no checkpoint: their last state is checked whole now.
        if verifies { try checkLastStateWhole(at: "before a gap") }
        state = resumed
        lastDigest = nil
        stepsCheckedWhole = stepCount
        checkedWholeState = resumed
        sinceCheckedWhole.removeAll(keepingCapacity: true)
        followsGap = true
      case .transition(let recorded):
        let before = state
        let effects = reducer.reduce(into: &state, action: recorded.action)
        if verifies {
          try verify(recorded, before: before, effects: effects)
          lastStep = (recorded.sequenceNumber, recorded.action)
        }
        stepCount += 1
        return ReplayStep(
          line: recorded.line, time: recorded.time,
          transition: Transition(
            sequenceNumber: recorded.sequenceNumber, origin: recorded.origin,
            action: recorded.action, effects: effects, stateBefore: before, stateAfter: state),
          recordedEffects: recorded.effects,
          recordedDigest: recorded.digest,
          isCheckpoint: recorded.checkpoint != nil,
          followsGap: resetFollowsGap(),
          canonicalForm: reader.form)
      }
    }
    // The steps since the last checkpoint get none: their last state is checked whole now (for
    // a followed log, at the end written so far).
    if verifies { try checkLastStateWhole(at: "the end of the log") }
    return nil
  }

  /// For a verified replay that stops before the end of the log (`replay --until`, a replay
  /// `through` a step): checks the state after the last step returned as the end of the log is
  /// checked, so the steps returned are not called clean on `==`'s word alone. Does nothing for
  /// an unverified session.
  ///
  /// - Throws: ``ActionLogError/divergence(step:action:reason:diff:)`` where a step returned
  ///   differs from the recording.
  package func checkStepsSoFar() throws(ActionLogError) {
    if let failure { throw failure }
    guard verifies else { return }
    do {
      try checkLastStateWhole(at: "where the replay stopped")
    } catch {
      failure = error
      throw error
    }
  }

  /// Checks the state after the last step whole when steps since the last state checked whole
  /// were checked with the shortcuts on `==`, where no checkpoint will check them: at the end
  /// of the log and before a gap. A replay that differs from the recording only in a field
  /// `==` ignores is then not called clean.
  ///
  /// - Parameter place: Where, for the divergence's reason.
  private func checkLastStateWhole(at place: String) throws(ActionLogError) {
    guard stepCount > stepsCheckedWhole, let lastDigest, let lastStep else { return }
    let digest = try self.digest(of: state, using: wholeEncoder)
    guard StateDigest.hash(digest, isWrittenAs: lastDigest) else {
      let found = ActionLogError.divergence(
        step: lastStep.sequenceNumber, action: Dump.renderOneLine(lastStep.action),
        reason: "the replayed state's digest \(StateDigest.hex(digest)) differs from the "
          + "recorded \(Sanitized.plain(lastDigest))",
        diff: nil)
      throw traced(found, foundAt: "step \(lastStep.sequenceNumber), \(place)")
    }
    stepsCheckedWhole = stepCount
    checkedWholeState = state
    sinceCheckedWhole.removeAll(keepingCapacity: true)
  }

  private func verify(
    _ recorded: RecordedTransition<R.State, R.Action, R.Effect>,
    before: R.State,
    effects: [R.Effect]
  ) throws(ActionLogError) {
    func divergence(_ reason: String, _ diff: String?) -> ActionLogError {
      .divergence(
        step: recorded.sequenceNumber, action: Dump.renderOneLine(recorded.action), reason: reason,
        diff: diff.map { $0 + "\n(recorded: \u{2212}, replayed: +)" })
    }
    if let checkpoint = recorded.checkpoint, checkpoint != state {
      throw traced(
        divergence(
          "the replayed state differs from the recorded checkpoint",
          Dump.diff(of: checkpoint, and: state)),
        foundAt: "step \(recorded.sequenceNumber)")
    }
    // Two shortcuts rest on the host's `==`, for speed: an unchanged state has the digest it
    // had (the encoding is skipped), and the remembering encoder copies the bytes of values its
    // `==` calls unchanged. A type whose `==` ignores a field can make both wrong: a replay that
    // differs from the recording only there would match for ever. So at every checkpoint step
    // the state is encoded whole, with nothing remembered and nothing skipped, and a divergence
    // found there is traced back to the step where it began (``traced(_:foundAt:)``).
    let encodesWhole = checksEveryStepWhole || recorded.checkpoint != nil
    if encodesWhole || !(recorded.digest == lastDigest && state == before) {
      var digest = try self.digest(of: state, using: encodesWhole ? wholeEncoder : encoder)
      var checkedWhole = encodesWhole
      // Before a mismatch is called a divergence, the state is encoded whole.
      if !encodesWhole, !StateDigest.hash(digest, isWrittenAs: recorded.digest) {
        digest = try self.digest(of: state, using: wholeEncoder)
        checkedWhole = true
      }
      guard StateDigest.hash(digest, isWrittenAs: recorded.digest) else {
        let found = digestDivergence(
          digest, state: state, reader: reader, divergence: divergence,
          recordedDigest: recorded.digest)
        throw traced(found, foundAt: "step \(recorded.sequenceNumber)")
      }
      if checkedWhole {
        stepsCheckedWhole = stepCount + 1
        checkedWholeState = state
        sinceCheckedWhole.removeAll(keepingCapacity: true)
      }
    }
    lastDigest = recorded.digest
    if try !effectComparison.same(recorded.effects, effects) {
      // Other effects may come of a state that began to differ at an earlier step.
      throw traced(
        divergence(
          "the reducer returned other effects than recorded",
          Dump.diff(of: recorded.effects, and: effects)),
        foundAt: "step \(recorded.sequenceNumber)")
    }
    // A step checked with a shortcut is kept, to be reduced again if a divergence is found
    // later (``traced(_:foundAt:)``).
    if stepsCheckedWhole <= stepCount, checkedWholeState != nil {
      if sinceCheckedWhole.count < Self.maximumKeptSteps {
        sinceCheckedWhole.append((recorded.action, recorded.digest))
      } else {
        checkedWholeState = nil
        sinceCheckedWhole = []
      }
    }
  }

  /// The digest of `state`'s canonical JSON by `encoder`.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming the state's type, when it has none.
  private func digest(of state: R.State, using encoder: CanonicalJSONEncoder) throws(ActionLogError)
    -> UInt64
  {
    do {
      return try CanonicalJSON.digest(state, using: encoder)
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: R.State.self))
    }
  }

  /// The divergence of a replayed state whose digest is not the recorded one: with the diff
  /// against the recorded state, which `reader`'s patches rebuild at any step.
  private func digestDivergence(
    _ digest: UInt64, state: R.State, reader: ActionLogReader<R.State, R.Action, R.Effect>,
    divergence: (String, String?) -> ActionLogError, recordedDigest: String
  ) -> ActionLogError {
    let digests =
      "the replayed state's digest \(StateDigest.hex(digest)) differs from the recorded "
      + Sanitized.plain(recordedDigest)
    let recordedState: R.State?
    do {
      recordedState = try reader.recordedState()
    } catch {
      return divergence("\(digests) (the log cannot show the recorded state: \(error))", nil)
    }
    guard let recordedState else {
      return divergence("\(digests) (no checkpoint at this step to diff against)", nil)
    }
    // The structural diff takes equal parts on `==`'s word: where a host type's `==` ignores
    // the field that differs, it finds nothing, and the two whole renderings are diffed.
    guard
      let diff = Dump.diff(of: recordedState, and: state)
        ?? Dump.diff(Dump.render(recordedState), Dump.render(state), context: 3)
    else {
      return divergence("\(digests), in values the dump does not show", nil)
    }
    return divergence("the replayed state differs from the recorded state", diff)
  }

  /// `found`, the divergence found at `place`, or the divergence of an earlier step where
  /// the replayed state already differed.
  ///
  /// Between two states checked whole, steps were checked with the shortcuts on `==`, which a
  /// type whose `==` ignores a field makes miss a difference in it. So the steps since the last
  /// state checked whole are reduced again from it, kept for this (``sinceCheckedWhole``), and
  /// encoded whole: the first whose digest is not the recorded one is where the replay began to
  /// differ. Only then is the log read again, unverified, up to that step, for the state it
  /// records there, and that step's divergence, with its own diff, is the one reported. Without
  /// the kept steps (more than ``maximumKeptSteps`` of them), the steps are found by reading the
  /// log again.
  private func traced(_ found: ActionLogError, foundAt place: String) -> ActionLogError {
    guard stepCount > stepsCheckedWhole,
      case .divergence(let number, let action, let reason, let diff) = found
    else { return found }
    func noting(_ why: String) -> ActionLogError {
      .divergence(step: number, action: action, reason: reason + " (\(why))", diff: diff)
    }
    var searchFrom = stepsCheckedWhole
    if let start = checkedWholeState {
      var replayed = start
      var differing: Int?
      for (offset, kept) in sinceCheckedWhole.enumerated() {
        _ = reducer.reduce(into: &replayed, action: kept.action)
        do {
          let digest = try self.digest(of: replayed, using: wholeEncoder)
          if StateDigest.hash(digest, isWrittenAs: kept.digest) { continue }
        } catch {
          return noting("encoding the steps before it again failed: \(error)")
        }
        differing = offset
        break
      }
      guard let differing else { return found }
      searchFrom = stepsCheckedWhole + differing
    }
    guard let reopen else { return found }
    // A followed log's path may hold another recording by now: reading it would compare other
    // steps.
    guard !reader.isReplaced() else {
      return noting(
        "the log's path holds another recording now, so the steps before were not read again "
          + "to find where it began")
    }
    do throws(ActionLogError) {
      let again = try reopen()
      for _ in 0..<searchFrom { _ = try again.next() }
      for _ in searchFrom..<stepCount {
        guard let earlier = try again.next() else { break }
        let digest = try self.digest(of: earlier.transition.stateAfter, using: again.wholeEncoder)
        if StateDigest.hash(digest, isWrittenAs: earlier.recordedDigest) { continue }
        let note =
          " (found at \(place); the steps between were checked on the state's `==`, which "
          + "does not see this difference)"
        let earlierDivergence = again.digestDivergence(
          digest, state: earlier.transition.stateAfter, reader: again.reader,
          divergence: { reason, diff in
            .divergence(
              step: earlier.sequenceNumber,
              action: Dump.renderOneLine(earlier.transition.action), reason: reason + note,
              diff: diff.map { $0 + "\n(recorded: \u{2212}, replayed: +)" })
          }, recordedDigest: earlier.recordedDigest)
        return earlierDivergence
      }
    } catch {
      return noting("reading the log again to find where it began failed: \(error)")
    }
    return found
  }
}
