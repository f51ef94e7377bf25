import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// `replay --follow DIR` on a flight recorder that rolls and deletes its segments while the
/// follower reads: every step it prints follows the one before, or a line says how many were
/// rotated out before they could be read.
@MainActor
struct FollowRotationTests {
  /// `replay --follow FOLDER`, stopped (as with Ctrl-C) once it says the recording ended, and
  /// killed after 90 s.
  private static func followUntilTheRecordingEnds(
    _ flight: URL
  ) async throws -> ProcessRunner.Result {
    try await ProcessRunner.run(
      try ReplayProcess.executable(), ["--follow", flight.path], environment: ["NO_COLOR": "1"],
      timeout: .seconds(90), interruptWhen: { $0.contains("── the recording ended in segment-") })
  }

  @Test(.timeLimit(.minutes(5)))
  func aRotatingFolderIsFollowedToItsLastStep() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    // Stopped (as with Ctrl-C) once it has followed the recording to its end.
    async let followed = Self.followUntilTheRecordingEnds(flight)
    try await Task.sleep(for: .milliseconds(300))
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.recordFlight(
      to: flight, feature: LoginReducer.actionLogFeature,
      options: FlightRecorderOptions(
        budget: 16_384, segmentCount: 4, recording: RecordingOptions(checkpointInterval: 50)))
    for index in 0..<300 {
      store.send(.edit(.set(\.username, to: "user-\(index)")))
      if index % 50 == 49 { try await Task.sleep(for: .milliseconds(100)) }
    }
    await recorder.close()
    let result = try await followed
    #expect(!result.timedOut, "--follow did not reach the end: \(result.stdout.suffix(600))")
    // At most the one line that says what it waits for, if it started before the recording.
    let waiting = "replay: waiting for '\(flight.path)' to be recorded (Ctrl-C to stop)\n"
    #expect(["", waiting].contains(result.stderr), "\(result.stderr)")
    var last = 0
    var launches = 0
    for line in result.stdout.split(separator: "\n") {
      if line.hasPrefix("── launch ") { launches += 1 }
      if line.hasPrefix("── "), let count = Int(line.dropFirst(3).prefix { $0.isNumber }),
        line.contains("rotated out")
      {
        last += count
      }
      guard line.hasPrefix("#"), let number = Int(line.dropFirst().prefix { $0.isNumber })
      else { continue }
      #expect(number == last + 1, "step \(number) after \(last), with no rotation said")
      last = number
    }
    #expect(last == 300, "\(result.stdout.suffix(600))")
    #expect(launches == 1)
    #expect(result.stdout.contains("── the recording ended in segment-"))
  }

  /// Whether the follower keeps up with a live recorder is up to the machine, so here the
  /// rotation is made by hand: of a finished recording's segments, the first (before the
  /// window) and the third (between two the follower reads) are deleted, and the follower must
  /// count exactly the steps each of them held.
  @Test(.timeLimit(.minutes(5)))
  func theStepsOfEachSegmentRotatedOutAreCountedExactly() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.recordFlight(
      to: flight, feature: LoginReducer.actionLogFeature,
      options: FlightRecorderOptions(
        budget: 1 << 18, segmentCount: 64, recording: RecordingOptions(checkpointInterval: 50)))
    for index in 0..<150 {
      store.send(.edit(.set(\.username, to: "user-\(index)")))
      // Written before the next step: a segment rolls over at the same step on every run.
      await recorder.flush()
    }
    await recorder.close()
    let segments = try FlightRecording(folder: flight).segments
    try #require(segments.count >= 4, "the recording must roll over at least three times")
    let stepCounts = try segments.map { segment in
      try folder.lines(of: segment.url).count { $0.hasPrefix(#"{"seq":"#) }
    }
    #expect(stepCounts.reduce(0, +) == 150)
    for deleted in [segments[0], segments[2]] {
      try FileManager.default.removeItem(at: deleted.url)
    }

    let result = try await Self.followUntilTheRecordingEnds(flight)
    #expect(!result.timedOut, "--follow did not reach the end: \(result.stdout.suffix(600))")
    // At most the one line that says what it waits for, if it started before the recording.
    let waiting = "replay: waiting for '\(flight.path)' to be recorded (Ctrl-C to stop)\n"
    #expect(["", waiting].contains(result.stderr), "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(
      lines.filter { $0.contains("rotated out") } == [
        "── \(stepCounts[0]) steps were rotated out before the window kept ──",
        "── \(stepCounts[2]) steps were rotated out before they were read ──",
      ])
    let printed = lines.compactMap { line -> Int? in
      guard line.hasPrefix("#") else { return nil }
      return Int(line.dropFirst().prefix { $0.isNumber })
    }
    let kept = stepCounts[0]..<(stepCounts[0] + stepCounts[1])
    let after = (kept.upperBound + stepCounts[2])..<150
    #expect(printed == kept.map { $0 + 1 } + after.map { $0 + 1 })
  }

  /// A segment deleted while the follower waits for its header (the recorder rotated it out
  /// before the follower, slow on a loaded machine, could read it) is passed over: the follower
  /// goes on with the next segment instead of waiting for a file that is gone.
  @Test(.timeLimit(.minutes(5)))
  func aSegmentDeletedBeforeItsHeaderIsReadIsPassedOver() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    try FileManager.default.createDirectory(at: flight, withIntermediateDirectories: true)
    // The first segment, its header not written yet; the recording numbers after it.
    let first = FlightRecording.segmentURL(1, in: flight)
    try Data().write(to: first)
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.recordFlight(
      to: flight, feature: LoginReducer.actionLogFeature,
      options: FlightRecorderOptions(budget: 1 << 20, segmentCount: 64))
    for index in 0..<20 { store.send(.edit(.set(\.username, to: "user-\(index)"))) }
    await recorder.close()

    async let followed = Self.followUntilTheRecordingEnds(flight)
    // Deleted while the follower (most likely) waits for its header; deleted before it looked,
    // the segment is simply never seen, and the test checks less but still passes honestly.
    try await Task.sleep(for: .seconds(1))
    try FileManager.default.removeItem(at: first)
    let result = try await followed
    #expect(!result.timedOut, "--follow waited for a deleted segment: \(result.stdout)")
    let printed = result.stdout.split(separator: "\n").filter { $0.hasPrefix("#") }
    #expect(printed.count == 20, "\(result.stdout.suffix(600))")
  }

  /// What the recorder warned of in its log (a segment it could not delete) is said by a plain
  /// replay of the folder, on standard error, and by a follower, where it happened.
  @Test(.timeLimit(.minutes(5)))
  func theRecordersWarningsAreSaidByReplayAndByAFollower() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.recordFlight(
      to: flight, feature: LoginReducer.actionLogFeature,
      options: FlightRecorderOptions(budget: 1 << 20, segmentCount: 64))
    for index in 0..<3 { store.send(.edit(.set(\.username, to: "user-\(index)"))) }
    await recorder.close()
    let segment = try #require(FlightRecording(folder: flight).segments.first)
    var lines = try folder.lines(of: segment.url)
    let warning = "I/O error: cannot delete segment-000000.jsonl: \u{1B}[2J Operation not permitted"
    lines.insert(
      #"{"kind":"warning","reason":"\#(warning.replacingOccurrences(of: "\u{1B}", with: "\\u001b"))"}"#,
      at: 2)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: segment.url)
    let said =
      "line 3: the recorder warned: I/O error: cannot delete segment-000000.jsonl: \\u{1B}[2J "
      + "Operation not permitted"

    let plain = try await ReplayProcess.run([flight.path])
    #expect(plain.status == 0, "\(plain)")
    #expect(
      plain.stderr.contains("replay: warning: \(segment.url.lastPathComponent): \(said)"),
      "\(plain.stderr)")
    let followed = try await Self.followUntilTheRecordingEnds(flight)
    #expect(!followed.timedOut, "\(followed.stdout)")
    let shown = followed.stdout.split(separator: "\n")
    let at = shown.firstIndex { $0 == "── warning: \(said) ──" }
    let second = shown.firstIndex { $0.hasPrefix("#2 ") }
    #expect(at != nil && second != nil && at! < second!, "\(followed.stdout)")
  }

  /// Two launches rolling segments into one folder at the same time: the follower counts each
  /// launch on its own — two launches, every step of each, nothing "rotated out" — and says
  /// where a launch goes on after the other's segment.
  @Test(.timeLimit(.minutes(5)))
  func launchesWritingIntoOneFolderAtOnceAreFollowedEachAsItsOwn() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    let options = FlightRecorderOptions(budget: 1 << 20, segmentCount: 256)
    let stores = (0..<2).map { _ in Store(initialState: LoginState(), reducer: LoginReducer()) }
    let recorders = try stores.map {
      try $0.recordFlight(to: flight, feature: LoginReducer.actionLogFeature, options: options)
    }
    for index in 0..<60 {
      for (launch, store) in stores.enumerated() {
        store.send(.edit(.set(\.username, to: "l\(launch)-\(index)")))
      }
      for recorder in recorders { await recorder.flush() }
    }
    for recorder in recorders { await recorder.close() }
    let numbers = try FlightRecording(folder: flight).segments.map(\.number)
    try #require(numbers != numbers.sorted(), "the two launches' segments must interleave")

    let result = try await Self.followUntilTheRecordingEnds(flight)
    #expect(!result.timedOut, "--follow did not reach the end: \(result.stdout.suffix(600))")
    let lines = result.stdout.split(separator: "\n")
    #expect(!lines.contains { $0.contains("rotated out") }, "\(result.stdout.prefix(2_000))")
    #expect(lines.filter { $0.contains(" begins in segment-") }.count == 2)
    #expect(lines.contains { $0.hasPrefix("── launch 1 goes on in segment-") })
    // Every step of each launch, each launch's in order.
    for launch in 0..<2 {
      let steps = lines.filter { $0.contains(#"value: "l\#(launch)-"#) }.compactMap {
        Int($0.dropFirst().prefix { $0.isNumber })
      }
      #expect(steps == Array(1...60), "launch \(launch)")
    }
  }

  @Test(.timeLimit(.minutes(5)))
  func aDivergenceWhileFollowingEndsTheCommandAsVerifyWould() async throws {
    // `--follow` verifies as it goes: the step whose state differs from the recorded
    // checkpoint ends the command with `--verify`'s status and words, without a Ctrl-C.
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("divergent.jsonl")
    try FileManager.default.copyItem(
      at: ReplayProcess.fixtures.appendingPathComponent("login-divergent.jsonl"), to: log)
    let result = try await ProcessRunner.run(
      try ReplayProcess.executable(), ["--follow", log.path], environment: ["NO_COLOR": "1"],
      timeout: .seconds(90))
    #expect(!result.timedOut, "--follow kept waiting after the divergence")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        #"step 4 (edit(field: "password", value: "Aaaa0")): the replayed state differs from "#
          + "the recorded state"), "\(result.stderr)")
    #expect(result.stdout.contains(#"− password: "Aaaa0a""#))
    #expect(result.stdout.contains(#"+ password: "Aaaa0""#))
  }
}
