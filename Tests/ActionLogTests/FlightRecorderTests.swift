import ActionLog
import Foundation
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
        // A send that finds the buffer full waits for the writer to take it (at once: it
        // drains as soon as it is scheduled), so nothing is dropped and the writer is at most
        // two batches behind, as at a real session's pace, however busy the machine.
        recording: RecordingOptions(
          checkpointInterval: 1_000, bufferCapacity: 8, maximumWait: .seconds(60))))
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
    // Within the budget, give or take the segments being written when the recorder rolled (the
    // writer lags the store by a batch or two on a slow machine).
    #expect(sizes.reduce(0, +) <= 4_096 + 2 * sizes.max()!)

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

  @Test func aSegmentThatCannotBeMadeIsReportedOnceAndRollingStops() async throws {
    let folder = try TemporaryFolder()
    let errors = ErrorBox()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    // One transition may wait, for as long as it takes: every send finds the writer at most two
    // steps behind, so the segment's size is known when the next send looks at it.
    let recorder = try store.recordFlight(
      to: folder.url, feature: "counter",
      options: FlightRecorderOptions(
        budget: 1_024, segmentCount: 2,
        recording: RecordingOptions(bufferCapacity: 1, maximumWait: .seconds(60))),
      onError: { errors.append($0) })
    // The next segment's path is taken by a folder: it cannot be opened.
    try FileManager.default.createDirectory(
      at: folder.file("segment-000002.jsonl"), withIntermediateDirectories: false)
    for _ in 0..<100 { store.send(.add(1)) }
    await recorder.close()

    #expect(
      errors.values.map(\.description) == [
        "I/O error: cannot create 'segment-000002.jsonl': Is a directory"
      ])
    #expect(recorder.currentSegment == 1)
    // Nothing was lost: the first segment holds every step, past its share of the budget.
    let result = try Replayer(reducer: Counter()).replay(folder.file("segment-000001.jsonl"))
    #expect(result.stepCount == 100)
    #expect(result.finalState == Counter.State(count: 100))
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
        budget: 1_024, segmentCount: 2,
        recording: RecordingOptions(bufferCapacity: 1, maximumWait: .seconds(60))))
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
