import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// The recorder attacked where its threads meet: a disk that fills part way through a batch, a
/// close in the middle of a burst, calls after the end. Whatever happens, an error is reported
/// once, nothing waits forever, and what reached the disk replays.
@MainActor
struct RecorderFailureTests {
  /// A small disk fills while a burst is written: the write fails part way through a batch,
  /// leaving a cut line. The error is reported once; the recorder then takes no steps, and a
  /// flush, a close and a second close all return. The log replays up to the cut.
  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aDiskThatFillsPartWayThroughABatchStopsTheRecordingOnce() async throws {
    let disk = try Mount.smallDisk(bytes: 64 * 1024)
    let url = disk.url.appendingPathComponent("full.jsonl")
    let errors = ErrorBox()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(
      to: url, feature: "counter", options: RecordingOptions(checkpointInterval: 0)
    ) { errors.append($0) }
    // About 150 bytes a line: several times what the disk holds.
    for _ in 0..<5_000 { store.send(.add(1)) }
    await recorder.flush()
    #expect(!recorder.isRecording)
    for _ in 0..<10 { store.send(.add(1)) }  // ignored
    await recorder.flush()
    await recorder.close()
    await recorder.close()

    #expect(
      errors.values == [.ioError("cannot write 'full.jsonl': No space left on device")])
    let result = try Replayer(reducer: Counter()).replay(url)
    #expect(result.stepCount > 100)
    #expect(result.finalState == Counter.State(count: result.stepCount))
    #expect(result.warnings.allSatisfy { if case .truncatedLastLine = $0 { true } else { false } })
  }

  /// A flight recorder whose disk fills while its segments roll: the recording stops with one
  /// error (every segment rolled ahead of the writer said it again: 56 errors), and no segment
  /// is left empty (a replay of the folder stopped at the first: "the file is empty"), so the
  /// folder replays up to the cut.
  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aFlightRecorderWhoseDiskFillsStopsWithOneError() async throws {
    let disk = try Mount.smallDisk(bytes: 64 * 1024)
    let folder = disk.url.appendingPathComponent("flight")
    let errors = ErrorBox()
    let store = Store(initialState: Counter.State(), reducer: Counter())
    // Segments of 4 KiB, and a budget larger than the disk: nothing is pruned to make room.
    let recorder = try store.recordFlight(
      to: folder, feature: "counter",
      options: FlightRecorderOptions(
        budget: 128 * 1024, segmentCount: 32,
        recording: RecordingOptions(checkpointInterval: 1_000))
    ) { errors.append($0) }
    for _ in 0..<5_000 { store.send(.add(1)) }
    await recorder.flush()
    await recorder.close()

    #expect(errors.values.count == 1, "\(errors.values)")
    #expect(errors.values.allSatisfy { "\($0)".hasSuffix("No space left on device") })
    let result = try FlightRecording(folder: folder).replay(with: Counter()).toEnd()
    #expect(result.stepCount > 100)
    #expect(result.finalState == Counter.State(count: result.stepCount))
  }

  /// `close()` in the middle of a burst, with the writer behind: everything sent before it is
  /// in the log, in order (or counted in a gap), then `closed`; closing twice at once and a
  /// flush beside them all return; steps sent after it never reach the file.
  @Test func closingInTheMiddleOfABurstKeepsEverythingSentBeforeIt() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("burst.jsonl")
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(
      to: url, feature: "counter", options: RecordingOptions(checkpointInterval: 0))
    for _ in 0..<20_000 { store.send(.add(1)) }
    async let closed: Void = recorder.close()
    async let closedAgain: Void = recorder.close()
    async let flushed: Void = recorder.flush()
    _ = await (closed, closedAgain, flushed)
    let size = try Data(contentsOf: url).count
    for _ in 0..<10 { store.send(.add(1)) }
    await recorder.flush()

    let lines = try folder.lines(of: url)
    #expect(lines.last == #"{"kind":"closed"}"#)
    #expect(try Data(contentsOf: url).count == size)
    let result = try Replayer(reducer: Counter()).replay(url)
    #expect(result.finalState == Counter.State(count: 20_000))
    #expect(result.stepCount + recorder.droppedTransitionCount == 20_000)
  }
}
