import ActionLog
import Foundation
import StateStore

/// `replay --html OUT FILE`: one verified replay of one log, written as a self-contained HTML
/// timeline.
///
/// The page is written whatever the replay found — a clean log, a divergence, a bad line —
/// and the exit status says what it found afterwards: 2 for a bad line (as plain `replay`),
/// 1 for a divergence under `--verify` or a write error, 0 otherwise. A log whose header
/// cannot be read gets no page (there is nothing to show).
///
/// After the first divergence the replay goes on unverified, so the page shows the whole log
/// with the divergent step marked. From that step on the page shows what the log records —
/// the state its patches rebuild, the recorded effects — and checks each step's replay against
/// it, by digest: a step whose replay differs carries the fields and effects that differ.
@MainActor
struct TimelineRun<R: Reducer & Sendable, Screen: TimelineScreenRenderer>
where
  R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable,
  Screen.State == R.State, Screen.Action == R.Action, Screen.Effect == R.Effect
{
  let reducer: R
  let feature: String
  let screen: Screen?
  let options: ReplayOptions
  let output: ReplayOutput
  /// Makes the page `replay --serve` serves (``TimelinePage/isLive``).
  var isLive = false

  func run(_ url: URL) throws(ReplayFailure) {
    guard let path = options.html else { return }
    try report(try write(url, to: TimelineOutputFile.make(path)))
  }

  /// `replay --html OUT DIR`: one page across a flight recorder's segments and launches, each
  /// launch and each rotated-out start marked where it happens.
  ///
  /// A divergence ends the page there, marked as its last row (a single log goes on past it
  /// unverified; a folder's replay cannot). The exit status is 1 for it under `--verify`, 2
  /// for a bad segment, after the page is written.
  func run(_ recording: FlightRecording) throws(ReplayFailure) {
    guard let path = options.html else { return }
    try report(try write(recording, to: TimelineOutputFile.make(path)))
  }

  /// What writing a page found: the steps on it, the verdict `--html` prints, and the failure
  /// it then ends with, if any.
  struct Outcome {
    var file: TimelineOutputFile
    var steps: Int
    var verdict: String
    var failure: ReplayFailure?
  }

  private func report(_ outcome: Outcome) throws(ReplayFailure) {
    output.print("wrote \(Sanitized.path(outcome.file.path)): \(outcome.verdict)")
    if let failure = outcome.failure { throw failure }
  }

  /// Writes the page of the log at `url` to `file` and commits it.
  ///
  /// - Throws: Only when there is no page to show (a header that does not read) or it could
  ///   not be written; what the replay found is the outcome's failure.
  func write(_ url: URL, to file: TimelineOutputFile) throws(ReplayFailure) -> Outcome {
    let readOptions = ActionLogReadOptions(expectedFeature: feature)
    let replayer = Replayer(reducer: reducer)
    let session: ReplaySession<R>
    do {
      session = try replayer.steps(of: url, verify: true, options: readOptions)
      session.keepsStateBytes = true
    } catch {
      file.discard()
      throw .log(error)
    }

    let builder = TimelineBuilder<R, Screen>(
      initialState: session.header.initialState, screen: screen)
    let worker = TimelineWorker(builder)
    var stepCount = 0
    var current = session
    var warningsSeen = 0
    var divergence: TimelineDivergence<R>?
    var failure: ActionLogError?
    var texts = StepTextMaker()
    // The state the page shows for the last step: the replayed one while the replay is
    // verified (the two agree), the recorded one from the first divergence on.
    var shown = session.header.initialState
    let progress = ReplayProgress.make(
      totalBytes: ReplayProgress.size(of: [url]), output: output, printsAsItGoes: false)
    defer { progress?.clear() }
    func add(_ step: ReplayStep<R>, divergent: TimelineDivergence<R>? = nil) {
      let bytesRead = current.bytesRead
      progress?.update(.init(steps: stepCount, bytes: bytesRead))
      let gap = Self.droppedTransitions(in: current.warnings.dropFirst(warningsSeen))
      warningsSeen = current.warnings.count
      guard divergence != nil || divergent != nil else {
        worker.send(.step(step.transition, texts.texts(of: step), gap: gap))
        shown = step.transition.stateAfter
        stepCount += 1
        return
      }
      let (transition, check) = Self.recorded(
        step, session: current, before: step.followsGap ? step.transition.stateBefore : shown,
        divergence: divergent)
      let shownTexts = texts.texts(of: transition, time: step.time, form: step.canonicalForm)
      worker.send(.step(transition, shownTexts, gap: gap, check: check))
      shown = transition.stateAfter
      stepCount += 1
    }
    while true {
      do {
        while let step = try current.next() { add(step) }
        break
      } catch {
        guard case .divergence = error, divergence == nil else {
          failure = error
          break
        }
        // Go on without checks from the divergent step: a second, unverified session
        // skips the steps already on the page and returns the divergent one.
        do {
          let unverified = try replayer.steps(of: url, verify: false, options: readOptions)
          for _ in 0..<stepCount { _ = try unverified.next() }
          current = unverified
          warningsSeen = unverified.warnings.count
          let found = try TimelineDivergence(error, index: stepCount, session: unverified)
          if let step = found.step { add(step, divergent: found) }
          divergence = found
        } catch {
          failure = error
          break
        }
      }
    }
    if let gap = Self.droppedTransitions(in: current.warnings.dropFirst(warningsSeen)) {
      worker.send(.trailingGap(gap, resumedState: current.state))
    }
    progress?.clear()
    for warning in current.warnings {
      output.error("warning: \(warning.description)", tool: options.tool)
    }
    if let warning = texts.warning { output.error("warning: \(warning)", tool: options.tool) }
    let finished = worker.finish()

    let page = TimelinePage(
      feature: feature,
      fields: finished.json(
        feature: feature, created: session.header.created.formatted(.iso8601),
        checkpointInterval: session.header.checkpointInterval),
      warnings: current.warnings, failure: failure, divergence: divergence?.json(),
      runs: finished.runs, isLive: isLive)
    try write(page, to: file)

    let steps = Self.steps(stepCount)
    let verdict: String
    if failure != nil {
      verdict = "\(steps) before the bad input"
    } else if let divergence {
      verdict = "\(steps); step \(divergence.sequenceNumber) diverges from the recording"
    } else {
      verdict = "\(steps); every state and effect matches the recording"
    }
    var outcome = Outcome(file: file, steps: stepCount, verdict: verdict)
    if let failure {
      outcome.failure = .log(failure)
    } else if options.verify, let divergence {
      outcome.failure = ReplayFailure(message: divergence.headline, exitStatus: 1)
    }
    return outcome
  }

  /// Writes the page of a flight recorder's folder to `file` and commits it; throws as
  /// the one for a single log does.
  func write(
    _ recording: FlightRecording, to file: TimelineOutputFile
  ) throws(ReplayFailure) -> Outcome {
    let replay = recording.replay(
      with: reducer, verify: true, options: ActionLogReadOptions(expectedFeature: feature))
    replay.keepsStateBytes = true
    var worker: TimelineWorker<R, Screen>?
    var created: Date?
    var marks: [String] = []
    var stepCount = 0
    var failure: ActionLogError?
    var texts = StepTextMaker()
    let sizes = recording.segments.map { ReplayProgress.size(of: [$0.url]) }
    let progress = ReplayProgress.make(
      totalBytes: sizes.reduce(0, +), output: output, printsAsItGoes: false)
    defer { progress?.clear() }
    do {
      while let event = try replay.next() {
        switch event {
        case .rotatedOut(let steps):
          marks.append(
            "\u{22EF} \(Self.steps(steps)) rotated out before the window the folder keeps")
        case .launch(let number, let segment, let date):
          created = created ?? date
          marks.append(
            "launch \(number) begins in \(segment) (\(date.formatted(.iso8601)))")
        case .step(let step):
          let builder =
            worker
            ?? TimelineWorker(
              TimelineBuilder<R, Screen>(initialState: step.transition.stateBefore, screen: screen))
          worker = builder
          let mark = marks.isEmpty ? nil : TimelineGap(launch: marks.joined(separator: " \u{B7} "))
          marks = []
          builder.send(.step(step.transition, texts.texts(of: step), gap: mark))
          stepCount += 1
          progress?.update(
            .init(steps: stepCount, bytes: ReplayProgress.bytesRead(of: replay, sizes: sizes)))
        }
      }
    } catch {
      failure = error
    }
    progress?.clear()
    for warning in replay.warnings { output.error("warning: \(warning)", tool: options.tool) }
    if let warning = texts.warning { output.error("warning: \(warning)", tool: options.tool) }
    guard
      let worker = worker
        ?? replay.state.map({ TimelineWorker(TimelineBuilder(initialState: $0, screen: screen)) })
    else {
      file.discard()
      throw .log(
        failure ?? .ioError("no segment of \(Sanitized.path(recording.folder.path)) could be read"))
    }
    let finished = worker.finish()
    let page = TimelinePage(
      feature: feature,
      fields: finished.json(
        feature: feature, created: (created ?? Date()).formatted(.iso8601), checkpointInterval: 0),
      warnings: [], otherWarnings: replay.warnings, failure: failure, divergence: nil,
      runs: finished.runs, isLive: isLive)
    try write(page, to: file)

    let steps = Self.steps(stepCount)
    let segments = "\(recording.segments.count) segment\(recording.segments.count == 1 ? "" : "s")"
    var verdict = "\(steps) in \(segments); every state and effect matches the recording"
    if case .divergence(let step, _, _, _) = failure {
      verdict =
        "\(steps) in \(segments); step \(step) diverges from the recording (the page ends there)"
    } else if failure != nil {
      verdict = "\(steps) in \(segments) before the bad input"
    }
    var outcome = Outcome(file: file, steps: stepCount, verdict: verdict)
    if let failure {
      if case .divergence = failure, !options.verify { return outcome }
      outcome.failure = .log(failure)
    }
    return outcome
  }

  private func write(_ page: TimelinePage, to file: TimelineOutputFile) throws(ReplayFailure) {
    do {
      try page.write(to: file)
      try file.commit()
    } catch {
      file.discard()
      throw error
    }
  }

  private static func steps(_ count: Int) -> String {
    "\(count) step\(count == 1 ? "" : "s")"
  }

  /// A step from the first divergence on, as the page shows it — what the log records: the
  /// state its patches rebuild (the replayed one when the log cannot rebuild it), the recorded
  /// effects — and how its replay compares with that.
  ///
  /// - Parameters:
  ///   - step: The step, as the unverified `session` just returned it.
  ///   - before: The state the page shows for the step before.
  ///   - divergence: The first divergence, when `step` is its step (its page object holds
  ///     the comparison).
  private static func recorded(
    _ step: ReplayStep<R>, session: ReplaySession<R>, before: R.State,
    divergence: TimelineDivergence<R>?
  ) -> (Transition<R.State, R.Action, R.Effect>, RecordingCheck) {
    let replayed = step.transition
    var check = RecordingCheck(verdict: .same)
    var state = replayed.stateAfter
    if let divergence {
      check.verdict = .differs
      if case .success(let recorded?) = divergence.recorded { state = recorded }
    } else {
      compareStates(step, session: session, check: &check, shown: &state)
      // The verdict by canonical bytes; the renderings only show it.
      let effectsMatch: Bool
      do {
        effectsMatch = try session.effectsMatchRecording(step)
      } catch {
        effectsMatch = false
        check.note = "the replayed effects cannot be checked against the recording: \(error)"
      }
      if !effectsMatch {
        let encoder = CanonicalJSONEncoder()
        let recorded = step.recordedEffects.map { CanonicalJSON.oneLine($0, using: encoder) }
        let effects = replayed.effects.map { CanonicalJSON.oneLine($0, using: encoder) }
        check.verdict = .differs
        check.recordedEffects = TimelineDivergence<R>.marked(recorded, "\u{2212}", effects)
        check.replayedEffects = TimelineDivergence<R>.marked(effects, "+", recorded)
      }
    }
    let transition = Transition(
      sequenceNumber: replayed.sequenceNumber, origin: replayed.origin, action: replayed.action,
      effects: step.recordedEffects, stateBefore: before, stateAfter: state)
    return (transition, check)
  }

  /// Compares the replayed state after `step` with the recorded one, by digest, and where they
  /// differ sets `shown` to the recorded state and `check` to the fields that differ.
  private static func compareStates(
    _ step: ReplayStep<R>, session: ReplaySession<R>, check: inout RecordingCheck,
    shown: inout R.State
  ) {
    let matches: Bool
    do {
      matches = try session.stateMatchesRecording(step)
    } catch {
      check.verdict = .unknown
      check.note = "the replayed state cannot be checked against the recording: \(error)"
      return
    }
    guard !matches else { return }
    check.verdict = .differs
    let recorded: R.State?
    do {
      recorded = try session.recordedState()
    } catch {
      check.note =
        "the replayed state's digest differs from the recorded one, and the log's patches do "
        + "not rebuild the recorded state: \(error)"
      return
    }
    guard let recorded else {
      check.note =
        "the replayed state's digest differs from the recorded one; the log holds only the "
        + "digest at this step (it was recorded before steps had patches), so the replayed "
        + "state is shown"
      return
    }
    shown = recorded
    // The fields that differ, from the bytes: the recorded ones as the log's lines rebuild
    // them, the replayed state's canonical JSON.
    let diff: String?
    do {
      diff = try session.recordedStateBytes().flatMap { recordedBytes in
        CanonicalJSONText.diff(
          from: recordedBytes, to: try session.canonicalBytes(of: step.transition.stateAfter))
      }
    } catch {
      check.note = "the replayed state's digest differs from the recorded one: \(error)"
      return
    }
    guard let diff else {
      check.note = "the replayed state's digest differs from the recorded one"
      return
    }
    check.fieldDiff = diff.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
  }

  /// The gap markers among new warnings, as one gap: the first marker's line, the total count.
  private static func droppedTransitions(in warnings: ArraySlice<ActionLogError>) -> TimelineGap? {
    var result: TimelineGap?
    for warning in warnings {
      guard case .transitionsDropped(let line, let count) = warning else { continue }
      result = TimelineGap(line: result?.line ?? line, dropped: (result?.dropped ?? 0) + count)
    }
    return result
  }
}
