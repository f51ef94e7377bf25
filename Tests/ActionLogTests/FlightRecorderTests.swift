import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// The flight recorder against real files: segments roll within the budget, the oldest kept
/// replays on its own, a relaunch appends, and bad segments are reported by name.
@MainActor
struct FlightRecorderTests {
  /// Records `count` additions of 1 into `folder` with a small budget, and closes.
  @discardableResult
  private func record(
    _ count: Int, into folder: URL, budget: Int = 4_096
  ) async throws -> Store<Counter> {
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.recordFlight(
      to: folder, feature: "counter",
      options: FlightRecorderOptions(
        budget: budget, segmentCount: 4,
        // The default buffer (8 MiB) holds tens of thousands of these small transitions, so
        // nothing is dropped however far behind a busy machine leaves the writer; segments
        // roll on the bytes handed to it, so how far behind does not matter either.
        recording: RecordingOptions(checkpointInterval: 1_000)))
    for _ in 0..<count { store.send(.add(1)) }
    await recorder.close()
    return store
  }

  @Test func segmentsRollWithinTheBudgetAndTheWindowReplaysOnItsOwn() async throws {
    let folder = try TemporaryFolder()
    try await record(400, into: folder.file("flight"))  // a folder the recorder makes

    let recording = try FlightRecording(folder: folder.file("flight"))
    #expect(recording.segments.count >= 2)
    #expect(recording.segments.first?.number ?? 0 > 1)  // the oldest were deleted
    let sizes = try recording.segments.map {
      try FileManager.default.attributesOfItem(atPath: $0.url.path)[.size] as? Int ?? 0
    }
    // Within the budget: closing prunes down to it, keeping the last segment.
    #expect(sizes.reduce(0, +) <= 4_096)

    let replay = recording.replay(with: Counter())
    var events: [String] = []
    var last = 0
    while let event = try replay.next() {
      switch event {
      case .rotatedOut(let steps): events.append("rotated out \(steps)")
      case .launch(let number, _, _): events.append("launch \(number)")
      case .step(let step):
        #expect(step.sequenceNumber == last + 1 || last == 0)
        last = step.sequenceNumber
      }
    }
    #expect(events.count == 2)
    #expect(events.first?.hasPrefix("rotated out ") == true)
    #expect(events.last == "launch 1")
    #expect(last == 400)
    #expect(replay.state == Counter.State(count: 400))
    #expect(replay.warnings.isEmpty)
  }

  /// Only the folder itself is made: a folder whose parent does not exist is refused, named
  /// whole, and nothing is created (a mistyped path never grows a tree of folders).
  @Test @MainActor func aFolderWhoseParentIsMissingIsRefusedAndNothingIsMade() throws {
    let folder = try TemporaryFolder()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let target = folder.file("missing/dir/flight")
    #expect {
      _ = try store.recordFlight(to: target, feature: "counter")
    } throws: { error in
      (error as? ActionLogError)?.description
        == "I/O error: cannot create the folder '\(target.path)': the folder "
        + "'\(folder.file("missing/dir").path)' does not exist"
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("missing").path))
  }

  @Test func aSegmentThatCannotBeMadeIsReportedOnceAndRollingStops() async throws {
    let folder = try TemporaryFolder()
    let errors = ErrorBox()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.recordFlight(
      to: folder.file("flight"), feature: "counter",
      options: FlightRecorderOptions(budget: 1_024, segmentCount: 2),
      onError: { errors.append($0) })
    // The folder is moved away: the next segment cannot be made (as root too), while the first
    // is still written through its open file.
    try FileManager.default.moveItem(at: folder.file("flight"), to: folder.file("moved"))
    for _ in 0..<100 { store.send(.add(1)) }
    await recorder.close()

    #expect(
      errors.values.map(\.description) == [
        "I/O error: cannot create 'segment-000002.jsonl': No such file or directory"
      ])
    #expect(recorder.currentSegment == 1)
    // Nothing was lost: the first segment holds every step, past its share of the budget.
    let result = try Replayer(reducer: Counter()).replay(
      folder.file("moved").appendingPathComponent("segment-000001.jsonl"))
    #expect(result.stepCount == 100)
    #expect(result.finalState == Counter.State(count: 100))
  }

  @Test func aNameTakenByAnythingElseIsSkippedAndLeftAsItWas() async throws {
    let folder = try TemporaryFolder()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.recordFlight(
      to: folder.url, feature: "counter",
      options: FlightRecorderOptions(budget: 1 << 20, segmentCount: 2))
    // Taken after the recorder started: a folder, a FIFO and a dangling link.
    try FileManager.default.createDirectory(
      at: folder.file("segment-000002.jsonl"), withIntermediateDirectories: false)
    #expect(mkfifo(folder.file("segment-000003.jsonl").path, 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("segment-000004.jsonl").path, withDestinationPath: "nowhere")
    for _ in 0..<3 { store.send(.add(1)) }
    await recorder.close()
    // The next launch takes segment 5.
    let relaunch = try await record(2, into: folder.url, budget: 1 << 20)
    #expect(relaunch.state.count == 2)

    let recording = try FlightRecording(folder: folder.url)
    #expect(recording.segments.map(\.number) == [1, 5])
    #expect(
      recording.warnings == [
        "'segment-000002.jsonl' is a folder, not a segment file; skipped",
        "'segment-000003.jsonl' is a FIFO, not a segment file; skipped",
        "'segment-000004.jsonl' is a symbolic link, not a segment file; skipped",
      ])
    let result = try recording.replay(with: Counter()).toEnd()
    #expect(result.stepCount == 5)
    #expect(result.warnings == recording.warnings)
    #expect(try folder.names().count == 5)
  }

  @Test func twoRecordersInOneFolderNeverWriteIntoEachOthersSegments() async throws {
    let folder = try TemporaryFolder()
    // Small segments, a budget that keeps them all: both roll many times, and each finds the
    // number after its own segment taken by the other.
    let options = FlightRecorderOptions(budget: 128 << 10, segmentCount: 64)
    let stores = [
      Store(initialState: Counter.State(), reducer: Counter()),
      Store(initialState: Counter.State(), reducer: Counter()),
    ]
    let recorders = try stores.indices.map {
      try stores[$0].recordFlight(to: folder.url, feature: "counter-\($0)", options: options)
    }
    for round in 1...200 {
      for store in stores { store.send(.increment) }
      // The writers catch up now and then, as between the taps of a real session.
      if round.isMultiple(of: 5) {
        for recorder in recorders { await recorder.flush() }
      }
    }
    for recorder in recorders { await recorder.close() }

    var steps: [String: [Int]] = [:]
    for segment in try FlightRecording(folder: folder.url).segments {
      let result = try Replayer(reducer: Counter()).replay(segment.url, keepingSteps: true)
      #expect(result.warnings.isEmpty, "\(segment.url.lastPathComponent)")
      steps[result.header.feature, default: []] += result.steps.map(\.sequenceNumber)
    }
    #expect(steps["counter-0"] == Array(1...200))
    #expect(steps["counter-1"] == Array(1...200))
  }

  /// Four launches recording into one folder at the same time interleave their segment
  /// numbers. Each is replayed whole as its own launch, in the order they began: no steps
  /// "missing", none rotated out, and `replay --verify` of the folder passes without a warning.
  @Test func launchesRecordingIntoOneFolderAtOnceEachReplayAsTheirOwn() async throws {
    let folder = try TemporaryFolder()
    let flight = folder.url.appendingPathComponent("flight")
    let options = FlightRecorderOptions(budget: 512 << 10, segmentCount: 128)
    let stores = (0..<4).map { _ in Store(initialState: LoginState(), reducer: LoginReducer()) }
    let recorders = try stores.map {
      try $0.recordFlight(to: flight, feature: LoginReducer.actionLogFeature, options: options)
    }
    for round in 1...60 {
      for (index, store) in stores.enumerated() {
        store.send(.edit(.set(\.username, to: PersonalData("user\(index)-\(round)"))))
      }
      if round.isMultiple(of: 3) {
        for recorder in recorders { await recorder.flush() }
      }
    }
    for recorder in recorders { await recorder.close() }

    let recording = try FlightRecording(folder: flight)
    #expect(Set(recording.segments.map(\.launch)).count == 4)
    let numbers = recording.segments.map(\.number)
    #expect(numbers != numbers.sorted(), "the launches' segments interleave")
    let replay = recording.replay(with: LoginReducer())
    var steps: [[Int]] = []
    var usernames: [String] = []
    while let event = try replay.next() {
      switch event {
      case .launch(let number, _, _):
        #expect(number == steps.count + 1)
        steps.append([])
      case .step(let step):
        steps[steps.count - 1].append(step.sequenceNumber)
        usernames.append(step.transition.stateAfter.username.value)
      case .rotatedOut(let count):
        Issue.record("\(count) steps rotated out")
      }
    }
    #expect(steps == Array(repeating: Array(1...60), count: 4))
    #expect(replay.warnings.isEmpty, "\(replay.warnings)")
    // Launch by launch, in the order they began: the first store's steps come first.
    #expect(usernames.prefix(60) == ArraySlice((1...60).map { "user0-\($0)" }))

    let run = try await ReplayProcess.run(["--verify", "flight"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    // Each launch said once where it begins, and nothing else: no warning.
    let said = run.stderr.split(separator: "\n").map { $0.prefix { $0 != "(" } }
    #expect(
      said == (1...4).map { "replay: launch \($0) begins in segment-00000\($0).jsonl " },
      "\(run.stderr)")
    #expect(run.stdout.contains("verified 240 steps in \(numbers.count) segments"), "\(run.stdout)")
  }

  /// `replay DIR --verify --until N` checks step N itself: a folder whose step 6 diverges
  /// verifies through step 5 and fails at 6 (issue 49 §5: the last step before the stop was
  /// once left unchecked).
  @Test func aFoldersVerifiedReplayChecksTheStepItStopsAt() async throws {
    let folder = try TemporaryFolder()
    let flight = folder.url.appendingPathComponent("flight")
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.recordFlight(to: flight, feature: LoginReducer.actionLogFeature)
    for step in 1...10 { store.send(.edit(.set(\.username, to: PersonalData("u\(step)")))) }
    await recorder.close()
    let segment = flight.appendingPathComponent("segment-000001.jsonl")
    var lines = try String(contentsOf: segment, encoding: .utf8).components(separatedBy: "\n")
    let sixth = try #require(lines.firstIndex { $0.hasPrefix(#"{"seq":6,"#) })
    // The action of step 6 now names another username than the state the log recorded.
    let edited = lines[sixth].replacing(
      #""value":"u6""#, with: #""value":"uX""#, maxReplacements: 1)
    #expect(edited != lines[sixth])
    lines[sixth] = edited
    try Data(lines.joined(separator: "\n").utf8).write(to: segment)

    let before = try await ReplayProcess.run(
      ["--verify", "--until", "5", "flight"], in: folder.url)
    #expect(before.status == 0, "\(before)")
    let at = try await ReplayProcess.run(["--verify", "--until", "6", "flight"], in: folder.url)
    #expect(at.status == 1, "\(at)")
    #expect((at.stdout + at.stderr).contains("step 6"), "\(at)")
  }

  @Test func segmentsRollOnTheBytesHandedToTheWriterNotOnThoseWritten() async throws {
    let folder = try TemporaryFolder()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let options = FlightRecorderOptions(budget: 6 << 10, segmentCount: 3)
    let recorder = try store.recordFlight(to: folder.url, feature: "counter", options: options)
    // A tight loop: the writer is behind by hundreds of lines when the segments roll.
    for _ in 0..<1_000 { store.send(.add(1)) }
    await recorder.close()

    let recording = try FlightRecording(folder: folder.url)
    let sizes = try recording.segments.map {
      try FileManager.default.attributesOfItem(atPath: $0.url.path)[.size] as? Int ?? 0
    }
    // Each segment passes its share by at most a line or so; the folder holds the budget.
    #expect(sizes.allSatisfy { $0 <= options.segmentSize + 512 }, "\(sizes)")
    #expect(sizes.reduce(0, +) <= options.budget + options.segmentSize, "\(sizes)")
    let result = try recording.replay(with: Counter()).toEnd()
    #expect(result.finalState == Counter.State(count: 1_000))
    #expect(result.warnings.isEmpty)
  }

  @Test func numbersPastNineDigitsFollowInOrderAndAreNeverOverwritten() async throws {
    let folder = try TemporaryFolder()
    try await record(3, into: folder.url, budget: 1 << 20)
    try FileManager.default.moveItem(
      at: folder.file("segment-000001.jsonl"), to: folder.file("segment-999999999.jsonl"))
    try await record(4, into: folder.url, budget: 1 << 20)
    try await record(5, into: folder.url, budget: 1 << 20)
    #expect(
      try folder.names() == [
        "segment-1000000000.jsonl", "segment-1000000001.jsonl", "segment-999999999.jsonl",
      ])
    let recording = try FlightRecording(folder: folder.url)
    #expect(recording.segments.map(\.number) == [999_999_999, 1_000_000_000, 1_000_000_001])
    let result = try recording.replay(with: Counter()).toEnd()
    #expect(result.stepCount == 12)
    #expect(result.finalState == Counter.State(count: 5))
    #expect(result.warnings.isEmpty)

    // Pruning goes oldest first, in numeric order.
    try await record(400, into: folder.url, budget: 4_096)
    let kept = try FlightRecording(folder: folder.url).segments.map(\.number)
    #expect(!kept.contains(999_999_999))
    #expect(kept == Array(kept.first!...kept.last!))
  }

  @Test func pruningDeletesSegmentFilesOnlyNeverAFolderBearingASegmentsName() async throws {
    let folder = try TemporaryFolder()
    let squatter = folder.file("segment-000001.jsonl")
    try FileManager.default.createDirectory(at: squatter, withIntermediateDirectories: false)
    let notes = squatter.appendingPathComponent("notes.txt")
    try Data("keep me\n".utf8).write(to: notes)
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.recordFlight(
      to: folder.url, feature: "counter",
      options: FlightRecorderOptions(
        budget: 1_024, segmentCount: 2))
    for _ in 0..<100 { store.send(.add(1)) }
    await recorder.close()

    #expect(recorder.currentSegment > 3, "the segments rolled")
    #expect(!FileManager.default.fileExists(atPath: folder.file("segment-000002.jsonl").path))
    #expect(try String(contentsOf: notes, encoding: .utf8) == "keep me\n")
  }

  @Test func onlyASegmentsOwnNameIsReadAsThatSegment() async throws {
    let folder = try TemporaryFolder()
    try await record(3, into: folder.url, budget: 1 << 20)
    for alias in ["segment-1.jsonl", "segment-01.jsonl", "segment-0000001.jsonl"] {
      try FileManager.default.copyItem(
        at: folder.file("segment-000001.jsonl"), to: folder.file(alias))
    }
    let recording = try FlightRecording(folder: folder.url)
    #expect(recording.segments.map(\.number) == [1])
    let result = try recording.replay(with: Counter()).toEnd()
    #expect(result.stepCount == 3)
    #expect(result.warnings.isEmpty)
  }

  @Test func aRelaunchAppendsANewLaunchToTheSameFolder() async throws {
    let folder = try TemporaryFolder()
    try await record(5, into: folder.url, budget: 1 << 20)
    try await record(3, into: folder.url, budget: 1 << 20)
    let recording = try FlightRecording(folder: folder.url)
    #expect(recording.segments.map(\.number) == [1, 2])
    let replay = recording.replay(with: Counter())
    var launches: [Int] = []
    while let event = try replay.next() {
      if case .launch(let number, _, _) = event { launches.append(number) }
    }
    #expect(launches == [1, 2])
    #expect(replay.stepCount == 8)
    #expect(replay.state == Counter.State(count: 3))
  }

  @Test func aCutLastLineIsAWarningAndEverythingBeforeItReplays() async throws {
    let folder = try TemporaryFolder()
    try await record(6, into: folder.url, budget: 1 << 20)
    let segment = try FlightRecording(folder: folder.url).segments[0].url
    var data = try Data(contentsOf: segment)
    // Drop the closing marker and half of the last step, as a killed process leaves it.
    let lines = data.split(separator: UInt8(ascii: "\n"))
    data = Data(lines.dropLast(2).joined(separator: [UInt8(ascii: "\n")]))
    data.append(UInt8(ascii: "\n"))
    data.append(lines[lines.count - 2].prefix(20))
    try data.write(to: segment)

    let replay = try FlightRecording(folder: folder.url).replay(with: Counter())
    let result = try replay.toEnd()
    #expect(result.stepCount == 5)
    #expect(result.finalState == Counter.State(count: 5))
    #expect(result.warnings.count == 1)
    #expect(result.warnings.first?.hasPrefix("segment-000001.jsonl: line 7") == true)
  }

  @Test func aForeignOrMissingSegmentIsNamedAndTheReadablePartStillReplays() async throws {
    let folder = try TemporaryFolder()
    try await record(4, into: folder.url, budget: 1 << 20)
    try await record(2, into: folder.url, budget: 1 << 20)
    try await record(2, into: folder.url, budget: 1 << 20)
    // Segment 2 disappears; segment 3 is replaced by something else.
    try FileManager.default.removeItem(at: folder.file("segment-000002.jsonl"))
    try Data("not a log\n".utf8).write(to: folder.file("segment-000003.jsonl"))

    let replay = try FlightRecording(folder: folder.url).replay(with: Counter())
    var steps = 0
    do {
      while let event = try replay.next() {
        if case .step = event { steps += 1 }
      }
      Issue.record("the foreign segment was read")
    } catch {
      #expect(
        "\(error)"
          == "'segment-000003.jsonl': line 1: missing header: an action log starts with "
          + #"{"format":"loginstore.actionlog","version":1,…}"#)
    }
    #expect(steps == 4)
    #expect(replay.state == Counter.State(count: 4))
    #expect(replay.warnings == ["segments 2…2 are missing"])
  }

  @Test func aFolderWithoutSegmentsOrAFileInItsPlaceIsATypedError() async throws {
    let folder = try TemporaryFolder()
    #expect(throws: ActionLogError.self) { try FlightRecording(folder: folder.url) }
    let file = folder.file("plain")
    try Data().write(to: file)
    let store = Store(initialState: Counter.State(), reducer: Counter())
    #expect(throws: ActionLogError.ioError("'plain' is not a folder")) {
      try store.recordFlight(to: file, feature: "counter")
    }
  }
}
