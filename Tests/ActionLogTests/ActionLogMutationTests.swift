import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// Real login logs (the committed fixtures and freshly recorded random sessions), damaged in
/// over a thousand seeded ways and replayed with and without verification: every outcome is a
/// clean replay or a clean ``ActionLogError``, and the steps before the damage still replay.
/// A trap would crash the test process, which is the check that nothing traps. Reproduce a
/// failure with the seed it prints: `LOGIN_PROPERTY_SEED=<seed> swift test --filter
/// ActionLogMutation`.
struct ActionLogMutationTests {
  /// Mutants per kind and per log (fewer for the slow kinds).
  /// Few enough that the test takes seconds, not a minute and a half; the seed is new at every
  /// run, so the runs between them cover what one long run did.
  private static let mutantsPerKind = 4
  private static let freshLogCount = 6

  private static let readOptions = ActionLogReadOptions(
    expectedFeature: LoginReducer.actionLogFeature)

  @Test func mutatedLogsReplayOrFailWithACleanErrorAndKeepTheStepsBeforeTheDamage() async throws {
    let seed = PropertySeed.current
    let folder = try TemporaryFolder()
    let logs = try Self.fixtureLogs() + (await Self.freshLogs(seed: seed, in: folder.url))
    var random = SeededGenerator(seed: seed)
    let url = folder.file("mutant.jsonl")
    var failures: [String] = []
    var outcomes: [String: Int] = [:]
    var mutants = 0
    for (name, log) in logs where failures.count < 5 {
      let mutator = LogMutator(log)
      // What the log itself replays: the divergent fixture stops at step 4 when verified.
      try log.write(to: url)
      let original = (
        verified: Self.replay(url, verify: true), unverified: Self.replay(url, verify: false)
      )
      for kind in LogMutator.Kind.allCases {
        let count =
          switch kind {
          case .insertHugeLine: 1
          case .deepNesting: 3
          default: Self.mutantsPerKind
          }
        for _ in 0..<count {
          // Seconds of work: the other tests' tasks get the two cores' threads between mutants.
          await Task.yield()
          let mutant = mutator.mutate(kind, using: &random)
          try mutant.bytes.write(to: url)
          mutants += 1
          if let problem = Self.check(
            mutant, at: url, mutator: mutator, original: original, outcomes: &outcomes)
          {
            failures.append("\(name), \(mutant.name): \(problem)")
          }
        }
      }
    }
    if !failures.isEmpty {
      Issue.record(
        """
        Mutated logs broke the reader (seed \(seed)):
        \(failures.prefix(5).joined(separator: "\n"))
        \(PropertySeed.reproduction(seed))
        """)
    }
    #expect(mutants >= 500, "\(mutants) mutants")
    // Both outcomes come up, and the errors are of many kinds: the mutations reach the reader.
    #expect(outcomes["success", default: 0] > 0, "seed \(seed): \(outcomes)")
    for kind in ["malformedLine", "notText", "missingHeader", "unsupportedVersion", "divergence"] {
      #expect(outcomes[kind, default: 0] > 0, "seed \(seed): no mutant gave \(kind): \(outcomes)")
    }
  }

  @Test func aLogCutInItsLastTransitionWarnsAndReplaysEveryStepBeforeIt() throws {
    let folder = try TemporaryFolder()
    var random = SeededGenerator(seed: 7)
    for (name, log) in try Self.fixtureLogs() where name != "login-truncated.jsonl" {
      let mutator = LogMutator(log)
      let lastLine = try #require(mutator.transitionLines.last)
      for _ in 0..<20 {
        let mutant = mutator.mutate(.cutLastTransition, using: &random)
        let url = folder.file("cut.jsonl")
        try mutant.bytes.write(to: url)
        let outcome = Self.replay(url, verify: false)
        // A cut that still parses (`{"seq":10,…}` cut inside a string does not) replays it.
        #expect(outcome.error == nil, "\(name), \(mutant.name)")
        #expect(outcome.steps == mutator.transitionLines.count - 1, "\(name), \(mutant.name)")
        #expect(outcome.warnings == [.truncatedLastLine(line: lastLine + 1)])
      }
    }
  }

  @Test func aGibibyteLineFailsAsTooLongWithBoundedMemory() async throws {
    try await MemoryHeavyTests.shared.run { try gibibyteLine() }
  }

  private func gibibyteLine() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("huge.jsonl")
    let good = LogMutator(
      try Data(contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl")))
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    for line in good.lines[..<4] { try handle.write(contentsOf: line + [UInt8(ascii: "\n")]) }
    // A line of 1 GiB of zero bytes, as a sparse file: nothing to write, no disk taken.
    try handle.truncate(atOffset: try handle.seekToEnd() + (1 << 30))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("\n".utf8))
    for line in good.lines[4...] { try handle.write(contentsOf: line + [UInt8(ascii: "\n")]) }
    try handle.close()

    // VmHWM is process-wide and other suites run in parallel, so reset it to the current
    // resident size first (Linux `clear_refs` 5) and allow 512 MiB of growth: half the 1 GiB
    // line that a reader holding it would need, while the bounded reader holds about 2 MiB (a
    // 1 MiB limit, its 64 KiB chunks, one doubling); the rest is room for parallel tests.
    let canReset = Memory.resetPeak()
    let before = Memory.kibibytes("VmRSS")
    let outcome = Self.replay(
      url, verify: true,
      options: ActionLogReadOptions(
        maximumLineLength: 1 << 20, expectedFeature: LoginReducer.actionLogFeature))
    let peak = Memory.kibibytes(canReset ? "VmHWM" : "VmRSS")
    #expect(outcome.steps == 3)
    #expect(outcome.error == .lineTooLong(line: 5, limit: 1 << 20))
    #expect(
      outcome.error?.description
        == "line 5: longer than the limit of 1048576 bytes; reading stopped there")
    #expect(peak - before < 512 * 1024, "peak grew by \(peak - before) KiB")
  }

  // MARK: - Checking one mutant

  typealias Outcome = (steps: Int, error: ActionLogError?, warnings: [ActionLogError])

  /// Replays `url`, keeping the runtime warnings the replay reports off standard error: a mutant
  /// that moves or copies a step can send an action to a child the state no longer has, as an
  /// app would. Any other warning is recorded as an issue.
  static func replay(
    _ url: URL, verify: Bool, options: ActionLogReadOptions = readOptions
  ) -> Outcome {
    let warnings = WarningLog()
    let outcome = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      replayReportingWarnings(url, verify: verify, options: options)
    }
    for message in warnings.unexpectedMessages {
      Issue.record("An unexpected runtime warning while replaying a mutant: \(message)")
    }
    return outcome
  }

  private static func replayReportingWarnings(
    _ url: URL, verify: Bool, options: ActionLogReadOptions
  ) -> Outcome {
    let session: ReplaySession<LoginReducer>
    do {
      session = try Replayer(reducer: LoginReducer()).steps(
        of: url, verify: verify, options: options)
    } catch {
      return (0, error, [])
    }
    do {
      while try session.next() != nil {}
      return (session.stepCount, nil, session.warnings)
    } catch {
      return (session.stepCount, error, session.warnings)
    }
  }

  /// Replays `mutant` with and without verification; describes what is wrong, or `nil`.
  static func check(
    _ mutant: Mutant, at url: URL, mutator: LogMutator,
    original: (verified: Outcome, unverified: Outcome), outcomes: inout [String: Int]
  ) -> String? {
    let lineCount = mutant.bytes.count { $0 == UInt8(ascii: "\n") } + 1
    let verified = replay(url, verify: true)
    let unverified = replay(url, verify: false)
    for (outcome, verify) in [(verified, true), (unverified, false)] {
      let label = verify ? "verified" : "unverified"
      outcomes[outcome.error.map(caseName) ?? "success", default: 0] += 1
      if let error = outcome.error {
        if let problem = problem(with: error, lineCount: lineCount) {
          return "\(label): \(problem)"
        }
        if !verify, case .divergence = error {
          return "\(label): a divergence without verification"
        }
      }
      if let problem = outcome.warnings.first(where: { !$0.isWarning }) {
        return "\(label): \(problem) among the warnings"
      }
      if let damaged = mutant.firstDamagedLine {
        let intact = min(
          mutator.transitions(before: damaged),
          verify ? original.verified.steps : original.unverified.steps)
        if outcome.steps < intact {
          return "\(label): \(outcome.steps) steps replayed, but \(intact) transitions lie "
            + "before the damaged line \(damaged + 1) (\(outcome.error.map(\.description) ?? ""))"
        }
      }
    }
    if verified.steps > unverified.steps {
      return "verification replayed more steps (\(verified.steps)) than none (\(unverified.steps))"
    }
    return nil
  }

  /// What is wrong with `error` as the result of reading a damaged log, or `nil`.
  static func problem(with error: ActionLogError, lineCount: Int) -> String? {
    let text = error.description
    let first = text.prefix { $0 != "\n" }
    guard !first.trimmingCharacters(in: .whitespaces).isEmpty else {
      return "an empty message for \(caseName(error))"
    }
    if error.isWarning { return "the warning \(text) was thrown" }
    let line: Int?
    switch error {
    case .missingHeader(let number), .malformedLine(let number, _), .unknownAction(let number, _),
      .lineTooLong(let number, _), .notText(let number):
      line = number
    case .divergence(let step, _, _, _):
      return text.hasPrefix("step \(step) (")
        ? nil : "a divergence message without its step: \(text)"
    case .ioError, .encodingFailed:
      return "an unexpected error for a readable file: \(text)"
    default:
      line = nil
    }
    if text.contains("\n") { return "a message of more than one line: \(text)" }
    if let line {
      guard (1...lineCount).contains(line), text.hasPrefix("line \(line): ") else {
        return "the message names no line of the \(lineCount) lines: \(text)"
      }
    }
    return nil
  }

  static func caseName(_ error: ActionLogError) -> String {
    Mirror(reflecting: error).children.first?.label ?? "\(error)".prefix { $0 != ":" }.description
  }

  // MARK: - Logs to mutate

  static func fixtureLogs() throws -> [(String, Data)] {
    try ["login.jsonl", "login-truncated.jsonl", "login-divergent.jsonl"].map {
      ($0, try Data(contentsOf: ReplayProcess.fixtures.appendingPathComponent($0)))
    }
  }

  /// Random login sessions recorded through a real store, with checkpoints every step, every
  /// few steps or never, and usernames masked or not.
  @MainActor
  static func freshLogs(seed: UInt64, in folder: URL) async throws
    -> [(String, Data)]
  {
    var random = SeededGenerator(seed: seed ^ 0x5EED)
    var logs: [(String, Data)] = []
    for index in 0..<freshLogCount {
      let url = folder.appendingPathComponent("fresh-\(index).jsonl")
      let options = RecordingOptions(
        checkpointInterval: [0, 1, 3][index % 3], masksPersonalData: index % 2 == 1)
      _ = try await RecordReplayPropertyTests.record(
        to: url, rules: [.default, .email, .minimumLength(6)][index % 3],
        length: Int.random(in: 10...40, using: &random), options: options, random: &random)
      logs.append(("fresh log \(index)", try Data(contentsOf: url)))
    }
    return logs
  }
}

/// Regression tests for the traps the mutation fuzz found: numbers at the limits of `Int`
/// in a log made the reader's sequence check and the login reducer overflow.
struct ActionLogMutationRegressionTests {
  /// The lines of the committed login log `name`.
  func fixtureLines(_ name: String = "login.jsonl") throws -> [String] {
    LogMutator(try Data(contentsOf: ReplayProcess.fixtures.appendingPathComponent(name)))
      .lines.map { String(decoding: $0, as: UTF8.self) }
  }

  /// The lines of the login log recorded before steps had patches: its header's state can be
  /// edited without a step's patch then failing its digest (checked as the line is read).
  func linesWithoutPatches() throws -> [String] {
    try fixtureLines("login-before-patches.jsonl")
  }

  @Test func aFirstSequenceNumberOfIntMaxIsAnErrorNotATrap() throws {
    let folder = try TemporaryFolder()
    var lines = try fixtureLines()
    lines[1] = lines[1].replacingOccurrences(
      of: #"{"seq":1,"#, with: #"{"seq":9223372036854775807,"#)
    let url = try folder.write("max.jsonl", lines: lines)
    let outcome = ActionLogMutationTests.replay(url, verify: false)
    #expect(outcome.steps == 1)
    #expect(
      outcome.error?.description
        == "line 3: malformed: sequence number 2 does not follow 9223372036854775807")
  }

  @Test func anAttemptIDOfIntMaxStartsNoRequestInsteadOfTrapping() throws {
    let folder = try TemporaryFolder()
    var lines = try linesWithoutPatches()
    lines[0] = lines[0].replacingOccurrences(
      of: #""attemptID":0,"#, with: #""attemptID":9223372036854775807,"#)
    let url = try folder.write("max-attempt.jsonl", lines: lines)
    let result = try Replayer(reducer: LoginReducer()).replay(url, verify: false)
    #expect(result.stepCount == 10)
    #expect(result.finalState.attemptID == .max)
    #expect(result.finalState.isLoading == false)
    #expect(result.finalState.user == nil)
  }

  @Test func aFailureCountOfIntMaxSaturatesAndLocksInsteadOfTrapping() throws {
    let folder = try TemporaryFolder()
    var lines = try linesWithoutPatches()
    lines[0] = lines[0].replacingOccurrences(
      of: #""failedAttempts":0,"#, with: #""failedAttempts":9223372036854775807,"#)
    let url = try folder.write("max-failures.jsonl", lines: lines)
    let result = try Replayer(reducer: LoginReducer()).replay(url, verify: false, through: 6)
    #expect(result.stepCount == 6)
    #expect(result.finalState.failedAttempts == .max)
    #expect(result.finalState.isLocked)
  }
}
