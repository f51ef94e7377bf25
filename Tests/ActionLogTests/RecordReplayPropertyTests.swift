import ActionLog
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// Random, hostile login sessions recorded through a real store and replayed from the file,
/// compared step by step. Reproduce a failure with the seed it prints:
/// `LOGIN_PROPERTY_SEED=<seed> swift test --filter RecordReplayProperty`.
///
/// What "identical" means here: a log never holds a secret, only its shape mask, and with
/// `masksPersonalData` only the usernames' masks. So at every step the replayed state must equal
/// the recorded state's *log image* — every `Secret` replaced by `Secret(secret.mask)`, and
/// with `masksPersonalData` every `PersonalData` masked as `PersonalData.masking(in:)` does —
/// with `==` on every field, and their `Dump.render`s must be equal. The derived values
/// (`validationErrors`, `isFormValid`, `isLoginButtonEnabled`) must equal those of the
/// *original* state, secrets and usernames in clear: the masks re-validate exactly. Actions and
/// effects are compared through `Dump.render` (which shows secrets as masks) after the same
/// username redaction.
@MainActor
struct RecordReplayPropertyTests {
  /// Sessions per run: a few seconds' worth; the seed is new at every run, so the runs between
  /// them cover more sessions than one long run would.
  private static let sequences = 100
  private static let maximumLength = 50

  private static let rules: [CredentialRules] = [.default, .email, .minimumLength(6)]
  private static let checkpointIntervals = [0, 1, 2, 7, 100]

  @Test func everyStepOfARandomRecordedSessionReplaysToTheSameState() async throws {
    let seed = PropertySeed.current
    var random = SeededGenerator(seed: seed)
    let folder = try TemporaryFolder()
    var totalSteps = 0
    var sawCheckpointEveryStep = false
    var sawMaskedUsernames = false
    for sequence in 0..<Self.sequences {
      let options = RecordingOptions(
        checkpointInterval: Self.checkpointIntervals.randomElement(using: &random)!,
        masksPersonalData: Bool.random(using: &random))
      let rules = Self.rules.randomElement(using: &random)!
      let length = Int.random(in: 1...Self.maximumLength, using: &random)
      let url = folder.file("sequence-\(sequence).jsonl")
      let recorded = try await Self.record(
        to: url, rules: rules, length: length, options: options, random: &random)
      // Replaying reads the file: do it off the main actor, as the replayer asks.
      let failure = await Task.detached {
        Self.compareReplay(of: url, with: recorded, options: options)
      }.value
      if let failure {
        Issue.record(
          """
          Record → replay round trip broke (seed \(seed), sequence \(sequence), \
          \(length) actions, checkpointInterval \(options.checkpointInterval), \
          masksPersonalData \(options.masksPersonalData)): \(failure)
          \(PropertySeed.reproduction(seed))
          """)
        return
      }
      try FileManager.default.removeItem(at: url)
      totalSteps += length
      sawCheckpointEveryStep = sawCheckpointEveryStep || options.checkpointInterval == 1
      sawMaskedUsernames = sawMaskedUsernames || options.masksPersonalData
    }
    #expect(totalSteps >= Self.sequences, "seed \(seed)")
    #expect(sawCheckpointEveryStep && sawMaskedUsernames, "seed \(seed)")
  }

  @Test func aRecordedSequenceIsReproducibleFromItsSeed() async throws {
    let folder = try TemporaryFolder()
    var texts: [String] = []
    for name in ["first.jsonl", "second.jsonl"] {
      var random = SeededGenerator(seed: 2_024)
      let url = folder.file(name)
      _ = try await Self.record(
        to: url, rules: .default, length: 40, options: RecordingOptions(checkpointInterval: 5),
        random: &random)
      texts.append(
        LogLines.withoutVolatileFields(try folder.lines(of: url)).joined(separator: "\n"))
    }
    #expect(texts[0] == texts[1])
    #expect(texts[0].split(separator: "\n").count == 42)
  }

  /// Drives a real store (no handler: effects are data) with `length` generated actions while
  /// a recorder writes it to `url`; returns every transition, after the recorder is closed.
  static func record(
    to url: URL,
    rules: CredentialRules,
    length: Int,
    options: RecordingOptions,
    random: inout SeededGenerator
  ) async throws -> [Transition<LoginState, LoginAction, LoginEffect>] {
    let store = Store(initialState: LoginState(rules: rules), reducer: LoginReducer())
    var transitions: [Transition<LoginState, LoginAction, LoginEffect>] = []
    let subscription = store.observeTransitions { transitions.append($0) }
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature, options: options)
    let generator = LoginActionGenerator()
    // Hostile actions reach the absent code step: their warnings are captured, and checked.
    WarningLog.expectingAbsentChildWarnings {
      for _ in 0..<length {
        store.send(generator.next(for: store.state, using: &random))
      }
    }
    // The writer runs on its own queue: only `close()` guarantees every line is on disk.
    await recorder.close()
    subscription.cancel()
    return transitions
  }

  /// Replays `url` with verification and returns a description of the first difference from
  /// `recorded`, or `nil`.
  nonisolated static func compareReplay(
    of url: URL,
    with recorded: [Transition<LoginState, LoginAction, LoginEffect>],
    options: RecordingOptions
  ) -> String? {
    let result: ReplayResult<LoginReducer>
    do {
      result = try WarningLog.expectingAbsentChildWarnings {
        try Replayer(reducer: LoginReducer()).replay(
          url, verify: true, keepingSteps: true,
          options: ActionLogReadOptions(expectedFeature: LoginReducer.actionLogFeature))
      }
    } catch {
      return "the replay failed: \(error)"
    }
    guard result.warnings.isEmpty else {
      return "warnings: \(result.warnings.map(\.description))"
    }
    guard result.stepCount == recorded.count, result.steps.count == recorded.count else {
      return "\(result.stepCount) steps replayed, \(recorded.count) recorded"
    }
    let masks = options.masksPersonalData
    if let first = recorded.first,
      let problem = compare(
        replayed: result.header.initialState, original: first.stateBefore, masks: masks)
    {
      return "initial state: " + problem
    }
    for (index, (step, original)) in zip(result.steps, recorded).enumerated() {
      let at = "step \(index + 1) (\(Dump.renderOneLine(original.action, limit: 80)))"
      guard step.sequenceNumber == original.sequenceNumber, step.transition.origin == .user
      else {
        return "\(at): sequence number \(step.sequenceNumber), origin \(step.transition.origin)"
      }
      if let problem = compare(
        replayed: step.transition.stateAfter, original: original.stateAfter, masks: masks)
      {
        return "\(at): " + problem
      }
      let action = Dump.render(logImage(of: original.action, masks: masks))
      guard Dump.render(step.transition.action) == action else {
        return "\(at): the replayed action differs\n"
          + (Dump.diff(action, Dump.render(step.transition.action)) ?? "")
      }
      let effects = Dump.render(logImage(of: original.effects, masks: masks))
      guard Dump.render(step.transition.effects) == effects,
        step.transition.effects == step.recordedEffects
      else {
        return "\(at): the replayed effects differ\n"
          + (Dump.diff(effects, Dump.render(step.transition.effects)) ?? "")
      }
    }
    return nil
  }

  /// `value` with its personal data masked when the log masks it (secrets keep their masks).
  nonisolated static func logImage<Value: Codable>(of value: Value, masks: Bool) -> Value {
    guard masks else { return value }
    do {
      return try PersonalData.masking(in: value)
    } catch {
      Issue.record("\(Value.self) does not survive masking: \(error)")
      return value
    }
  }

  /// Compares a replayed state with the log image of the original one (see the type's doc).
  nonisolated static func compare(
    replayed: LoginState, original: LoginState, masks: Bool
  ) -> String? {
    var image = logImage(of: original, masks: masks)
    image.password = Secret(original.password.mask)
    if let code = original.twoFactor?.code { image.twoFactor?.code = Secret(code.mask) }
    let expected = Dump.render(image)
    let actual = Dump.render(replayed)
    if replayed != image || actual != expected {
      return "the replayed state differs from the recorded one\n"
        + (Dump.diff(expected, actual) ?? "(equal renderings, unequal values)")
        + "\n(recorded: −, replayed: +)"
    }
    guard replayed.validationErrors == original.validationErrors,
      replayed.isFormValid == original.isFormValid,
      replayed.isLoginButtonEnabled == original.isLoginButtonEnabled
    else {
      return "the masks validate differently: recorded \(original.validationErrors), "
        + "replayed \(replayed.validationErrors)"
    }
    return nil
  }

}
