import ActionLog
import Dispatch
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A writer that cannot keep up never makes `send` wait, and never holds more than the buffer's
/// bytes: what does not fit is dropped at once, the gap marker says how many, and the log still
/// replays. (How long a send takes is store-bench's business, not a test's.)
@MainActor
struct RecorderBackpressureTests {
  @Test func aBlockedWriterDropsWhatDoesNotFitInTheBufferBytesAndTheGapSaysHowMany() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("heavy.jsonl")
    let gate = Gate()
    let store = Store(initialState: Gated.heavy, reducer: Gated())
    // The default buffer: 8 MiB, about 64 transitions of this 64 KiB state.
    let recorder = try store.record(
      to: url, feature: "heavy", options: RecordingOptions(checkpointInterval: 0))
    store.send(.block(gate))
    try #require(await gate.writerEntered())  // the writer is stuck
    for _ in 0..<2_000 { store.send(.step) }  // none of these waits for it
    let dropped = recorder.droppedTransitionCount
    let fit = (8 << 20) / (64 << 10)
    #expect(dropped >= 2_000 - fit, "more than 8 MiB of states waited for the writer")
    #expect(dropped < 2_000, "some transitions fit in the buffer")
    gate.release.signal()
    await recorder.close()

    let lines = try folder.lines(of: url)
    let gapLine = try #require(lines.firstIndex { $0.hasPrefix(#"{"kind":"gap""#) })
    #expect(
      lines[gapLine].hasPrefix(#"{"kind":"gap","dropped":\#(dropped),"state":{"count":2001,"#))
    let result = try Replayer(reducer: Gated()).replay(url)
    #expect(result.stepCount == 2_001 - dropped)
    #expect(result.finalState == store.state)
    #expect(result.warnings == [.transitionsDropped(line: gapLine + 1, count: dropped)])
  }

  @Test func droppingEndsWithAGapAtTheFirstStepThatFitsAgain() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("resume.jsonl")
    let gate = Gate()
    let store = Store(initialState: Gated.heavy, reducer: Gated())
    let recorder = try store.record(
      to: url, feature: "heavy",
      options: RecordingOptions(checkpointInterval: 0, bufferSize: 1))  // one at a time
    store.send(.block(gate))
    try #require(await gate.writerEntered())
    for _ in 0..<10 { store.send(.step) }  // the writer holds the blocked one: all dropped
    #expect(recorder.droppedTransitionCount == 10)
    gate.release.signal()
    await recorder.flush()
    // Fits again, and ends the gap: the recorder kept no state of the dropped steps (a kept
    // state makes the store's next write copy it), so this step's state is the gap's.
    store.send(.step)
    #expect(recorder.droppedTransitionCount == 11)
    await recorder.flush()
    store.send(.step)  // recorded as a step again
    await recorder.close()

    let lines = try folder.lines(of: url)
    try #require(lines.count == 5, "\(lines)")
    #expect(lines[2].hasPrefix(#"{"kind":"gap","dropped":11,"state":{"count":12,"#))
    #expect(lines[3].hasPrefix(#"{"seq":13,"#))
    let result = try Replayer(reducer: Gated()).replay(url)
    #expect(result.stepCount == 2)
    #expect(result.finalState == Gated.State(count: 13, payload: Gated.heavy.payload))
    #expect(result.warnings == [.transitionsDropped(line: 3, count: 11)])
  }

  @Test func stepsDroppedAtTheEndWithoutAStoreToReadAreSaidInAWarning() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("gone.jsonl")
    let gate = Gate()
    var store: Store<Gated>? = Store(initialState: Gated.heavy, reducer: Gated())
    let recorder = try #require(store).record(
      to: url, feature: "heavy",
      options: RecordingOptions(checkpointInterval: 0, bufferSize: 1))
    store?.send(.block(gate))
    try #require(await gate.writerEntered())
    for _ in 0..<7 { store?.send(.step) }
    #expect(recorder.droppedTransitionCount == 7)
    store = nil  // the state at the end can no longer be read
    gate.release.signal()
    await recorder.close()

    let lines = try folder.lines(of: url)
    try #require(lines.count == 4, "\(lines)")
    #expect(lines[2].hasPrefix(#"{"kind":"warning","reason":"the last 7 steps were dropped"#))
    let result = try Replayer(reducer: Gated()).replay(url)
    #expect(result.stepCount == 1)
    #expect(result.finalState == Gated.State(count: 1, payload: Gated.heavy.payload))
    #expect(result.warnings.count == 1)
  }
}

/// A 64 KiB state whose `.block` action stops the writer while it is encoded.
