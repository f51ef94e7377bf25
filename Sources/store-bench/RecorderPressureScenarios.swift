import ActionLog
import Foundation
import StateStore

/// A to-do list of `count` items: a state whose encoding costs the writer far more than a
/// send costs the main actor, so the writer falls behind a tight loop of sends.
struct ItemList: Reducer {
  struct Item: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var isDone = false
  }

  struct State: Codable, Equatable, Sendable {
    var items: [Item]

    init(count: Int) {
      items = (0..<count).map { Item(id: $0, title: "item \($0)") }
    }
  }

  enum Action: Codable, Sendable {
    case toggle(Int)
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .toggle(let index): state.items[index].isDone.toggle()
    }
    return []
  }
}

/// The recorder when its writer cannot keep up: how long the slowest send takes, and how much
/// memory the buffered transitions take with a large state.
@MainActor
func recorderPressureScenarios(quick: Bool, folder: URL) async -> [BenchmarkResult] {
  // A quick run checks the report's shape in the suite's debug build, where the writer's
  // encoding is slow: fewer sends, one run, not three, and small states (100 and 1,000 items)
  // with a tenth of the buffer (800 KiB). As many of their transitions fit as 8 MiB holds of
  // 1,000 and 10,000 items, so the writer falls behind after as many sends, for a tenth of the
  // encoding (10,000 items encoded in a debug build were most of the suite's run of the bench).
  let bufferSize = RecordingOptions.defaultBufferSize / (quick ? 10 : 1)
  var results = await worstSendScenarios(
    items: quick ? 100 : 1_000, ops: quick ? 300 : 20_000, runs: quick ? 1 : 3,
    bufferSize: bufferSize, folder: folder)
  results += await peakMemoryScenarios(
    items: quick ? 1_000 : 100_000, ops: quick ? 50 : 1_000, bufferSize: bufferSize,
    folder: folder)
  return results
}

/// The number `count` as the rows' names write it: `1,000`.
private func itemCount(_ count: Int) -> String {
  count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
}

/// Sends to an `items`-item list as fast as the main actor can: each send is timed alone, and
/// the row's ns/op is the slowest send of the run (the best of `runs` runs, like every other
/// row's figure); the floor is the mean send without recording.
@MainActor
private func worstSendScenarios(
  items: Int, ops: Int, runs: Int, bufferSize: Int, folder: URL
) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("behind.jsonl")
  func run(recording: Bool) async -> (mean: Double, worst: Double, dropped: Int) {
    let store = Store(initialState: ItemList.State(count: items), reducer: ItemList())
    let recorder =
      recording
      ? benchSetUp("record to \(url.path)") {
        try store.record(
          to: url, feature: "items", options: RecordingOptions(bufferSize: bufferSize))
      } : nil
    var worst = Duration.zero
    var total = Duration.zero
    for index in 0..<ops {
      let start = ContinuousClock.now
      store.send(.toggle(index % items))
      let elapsed = ContinuousClock.now - start
      total += elapsed
      worst = max(worst, elapsed)
    }
    let dropped = recorder?.droppedTransitionCount ?? 0
    await recorder?.close()
    return (nanoseconds(total) / Double(ops), nanoseconds(worst), dropped)
  }
  var floor = Double.infinity
  var worst = Double.infinity
  var dropped = 0
  for _ in 0..<runs {
    floor = min(floor, await run(recording: false).mean)
    let recorded = await run(recording: true)
    worst = min(worst, recorded.worst)
    dropped = max(dropped, recorded.dropped)
  }
  if dropped == 0 {
    FileHandleOutput.standardError(
      "store-bench: the writer kept up with \(ops) sends of a \(items)-item state; "
        + "the worst-send row did not measure a writer that is behind")
  }
  let floorName = "record: Store.send, \(itemCount(items))-item state, not recording"
  return [
    BenchmarkResult(
      group: "actionlog", scenario: floorName, ops: ops, nanoseconds: floor * Double(ops),
      floor: floorName, floorNanosecondsPerOp: floor, peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "actionlog", scenario: "record: worst send while the writer is behind", ops: ops,
      nanoseconds: worst * Double(ops), floor: floorName, floorNanosecondsPerOp: floor,
      peakRSSMiB: peakRSSMiB(), target: "≤ 1 ms"),
  ]
}

/// Sends to an `items`-item list in a tight loop, without and then with a recorder, each run
/// measuring its own peak resident memory (the high-water mark is reset before it, where the
/// system allows). The floor's peak MiB is the store's without recording; the target is on
/// the recorded row's peak MiB.
@MainActor
private func peakMemoryScenarios(
  items: Int, ops: Int, bufferSize: Int, folder: URL
) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("large.jsonl")
  let size = itemCount(items)
  func run(recording: Bool) async -> (nanoseconds: Double, peak: Double, dropped: Int) {
    resetPeakRSS()
    let store = Store(initialState: ItemList.State(count: items), reducer: ItemList())
    let recorder =
      recording
      ? benchSetUp("record to \(url.path)") {
        try store.record(
          to: url, feature: "items", options: RecordingOptions(bufferSize: bufferSize))
      } : nil
    let start = ContinuousClock.now
    for index in 0..<ops { store.send(.toggle(index * 7 % items)) }
    let elapsed = nanoseconds(ContinuousClock.now - start)
    let dropped = recorder?.droppedTransitionCount ?? 0
    await recorder?.close()
    let peak = peakRSSMiB()
    withExtendedLifetime(store) {}
    return (elapsed, peak, dropped)
  }
  let plain = await run(recording: false)
  let recorded = await run(recording: true)
  if recorded.dropped == 0 {
    FileHandleOutput.standardError(
      "store-bench: the writer kept up with \(ops) sends of a \(items)-item state; "
        + "the peak-memory row did not measure a writer that is behind")
  }
  let floorName = "record: Store.send, \(size)-item state, not recording"
  let floorPerOp = plain.nanoseconds / Double(ops)
  return [
    BenchmarkResult(
      group: "actionlog", scenario: floorName, ops: ops, nanoseconds: plain.nanoseconds,
      floor: floorName, floorNanosecondsPerOp: floorPerOp, peakRSSMiB: plain.peak),
    BenchmarkResult(
      group: "actionlog", scenario: "record: peak memory, \(size)-item state, writer behind",
      ops: ops, nanoseconds: recorded.nanoseconds, floor: floorName,
      floorNanosecondsPerOp: floorPerOp, peakRSSMiB: recorded.peak,
      target: "≤ floor + 64 MiB (\(Report.format(plain.peak + 64, digits: 1)))"),
  ]
}
