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
  // encoding of a 1,000-item state is slow: fewer sends and one run, not three.
  var results = await worstSendScenarios(
    ops: quick ? 300 : 20_000, runs: quick ? 1 : 3, folder: folder)
  // A quick run (the suite's debug build) takes a 10,000-item state: encoding 100,000 items
  // in a debug build was most of the suite's run of the bench.
  results += await peakMemoryScenarios(
    items: quick ? 10_000 : 100_000, ops: quick ? 50 : 1_000, folder: folder)
  return results
}

/// Sends to a 1,000-item list as fast as the main actor can: each send is timed alone, and the
/// row's ns/op is the slowest send of the run (the best of `runs` runs, like every other row's
/// figure); the floor is the mean send without recording.
@MainActor
private func worstSendScenarios(ops: Int, runs: Int, folder: URL) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("behind.jsonl")
  let items = 1_000
  func run(recording: Bool) async -> (mean: Double, worst: Double, dropped: Int) {
    let store = Store(initialState: ItemList.State(count: items), reducer: ItemList())
    let recorder =
      recording
      ? benchSetUp("record to \(url.path)") { try store.record(to: url, feature: "items") } : nil
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
  let floorName = "record: Store.send, 1,000-item state, not recording"
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
private func peakMemoryScenarios(items: Int, ops: Int, folder: URL) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("large.jsonl")
  let size = items.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
  func run(recording: Bool) async -> (nanoseconds: Double, peak: Double, dropped: Int) {
    resetPeakRSS()
    let store = Store(initialState: ItemList.State(count: items), reducer: ItemList())
    let recorder =
      recording
      ? benchSetUp("record to \(url.path)") { try store.record(to: url, feature: "items") } : nil
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
