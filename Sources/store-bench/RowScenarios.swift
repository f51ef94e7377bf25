import ActionLog
import Foundation
import StateStore
import StateStoreTesting

/// A list of rows run by `forEach`: its state an `IdentifiedList`, one row changing per send.
struct RowCatalog: Reducer {
  struct Item: Identifiable, Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var quantity: Int
    var isDone: Bool
  }

  struct State: Codable, Equatable, Sendable {
    var items: IdentifiedList<Item> = []
    var title = "draft"

    init(count: Int) {
      for id in 0..<count {
        items.append(Item(id: id, name: "Item number \(id)", quantity: id % 7, isDone: false))
      }
    }
  }

  enum ItemAction: Codable, Equatable, Sendable {
    case toggled
    case renamed(String)
  }

  enum Action: Codable, Equatable, Sendable {
    case items(RowAction<Int, ItemAction>)
    case retitled(String)
  }

  static let items = ChildFeature(
    "items", of: Core.self, state: \.items,
    action: CaseKey(embed: Action.items) { if case .items(let a) = $0 { a } else { nil } })

  struct Row: Reducer {
    func reduce(into state: inout Item, action: ItemAction) -> [Never] {
      switch action {
      case .toggled: state.isDone.toggle()
      case .renamed(let name): state.name = name
      }
      return []
    }
  }

  struct Core: Reducer {
    func reduce(into state: inout State, action: Action) -> [Never] {
      if case .retitled(let title) = action { state.title = title }
      return []
    }
  }

  let body = Core().forEach(RowCatalog.items) { Row() }

  func reduce(into state: inout State, action: Action) -> [Never] {
    body.reduce(into: &state, action: action)
  }
}

/// How the costs of a list of child features grow with the list: at 1,000, 10,000 and 100,000
/// rows, one row changing per send, with no observer (the floor), with a transition observer
/// (which keeps the state before), with 1,000 row handles observed, with a recorder (send
/// alone, and send plus the writer's encoding), and a failing `TestStore` assertion naming the
/// changed row. Each send is timed on its own and the median reported.
@MainActor
func rowScenarios(quick: Bool) async -> [BenchmarkResult] {
  let folder = scratchFolder()
  defer { try? FileManager.default.removeItem(at: folder) }
  var results: [BenchmarkResult] = []
  for count in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] {
    let size = count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    let sends = quick ? 20 : 2_000
    // Each store gets a list of its own: a list shared with the caller would make the first
    // change of each leaf copy that leaf, which a host's store (its only owner) never does.
    func initial() -> RowCatalog.State { RowCatalog.State(count: count) }
    let isLargest = count == 100_000
    func row(_ scenario: String, _ time: Double, floor: Double, _ target: String? = nil)
      -> BenchmarkResult
    {
      BenchmarkResult(
        group: "rows", scenario: "send, \(size) rows, one changes: \(scenario)", ops: sends,
        nanoseconds: time, floor: "send, \(size) rows, one changes: no observer",
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB(),
        target: isLargest ? target : nil)
    }

    let bare = Store(initialState: initial(), reducer: RowCatalog())
    let floor = await timedRowSends(sends, count: count, store: bare) {}
    results.append(row("no observer", floor, floor: floor))

    let observed = Store(initialState: initial(), reducer: RowCatalog())
    var seen = 0
    let subscription = observed.observeTransitions { seen &+= $0.sequenceNumber }
    let observedTime = await timedRowSends(sends, count: count, store: observed) {}
    blackHole((subscription, seen))
    results.append(row("transition observer", observedTime, floor: floor, "≤ 10 µs"))

    let handled = Store(initialState: initial(), reducer: RowCatalog())
    let rows = handled.scope(rows: RowCatalog.items)
    var told = 0
    let handles = (0..<min(1_000, count)).map { position in
      rows[position].store.observe { _ in told += 1 }
    }
    let handledTime = await timedRowSends(sends, count: count, store: handled) {}
    // Only the changed row's handle is told, and only when the row has a handle: rows are
    // picked across the whole list, about one in `count / 1_000` among the first thousand.
    if told > sends + 1 {
      FileHandleOutput.standardError(
        "store-bench: \(told) row handles were told for \(sends) sends")
    }
    blackHole(handles)
    results.append(row("1,000 row handles observed", handledTime, floor: floor, "≤ 20 µs"))

    let recorded = Store(initialState: initial(), reducer: RowCatalog())
    let url = folder.appendingPathComponent("rows-\(count).jsonl")
    let recorder: ActionLogRecorder<RowCatalog>
    do {
      recorder = try recorded.record(to: url, feature: "rows")
    } catch {
      FileHandleOutput.standardError("store-bench: cannot record the \(size)-row list: \(error)")
      return results
    }
    // Fewer sends as the list grows: the writer's work per step is what this row shows.
    let recordedSends = quick ? 20 : max(20, 200_000 / count)
    let recordedTime = await timedRowSends(recordedSends, count: count, store: recorded) {
      await recorder.flush()
    }
    results.append(
      BenchmarkResult(
        group: "rows", scenario: "send, \(size) rows, one changes: recorder attached, caught up",
        ops: recordedSends, nanoseconds: recordedTime,
        floor: "send, \(size) rows, one changes: no observer",
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB()))
    // The writer's share: a send and the flush that writes its line, timed together.
    let writtenTime = await timedRowSends(
      recordedSends, count: count, store: recorded, timingBetween: true
    ) {
      await recorder.flush()
    }
    await recorder.close()
    results.append(
      BenchmarkResult(
        group: "rows", scenario: "send + the recorder writing its step, \(size) rows",
        ops: recordedSends, nanoseconds: writtenTime,
        floor: "send, \(size) rows, one changes: no observer",
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB()))

    results += await failingRowAssertion(count: count, size: size, isLargest: isLargest)
  }
  return results
}

/// A test that expected another name for the row the action renamed: the time to send, find
/// the difference and build the failure message, against the same send asserted right.
@MainActor
private func failingRowAssertion(count: Int, size: String, isLargest: Bool) async
  -> [BenchmarkResult]
{
  let initial = RowCatalog.State(count: count)
  let middle = count / 2
  let passingName = "TestStore passing assertion on a row, \(size) rows"
  func timed(_ body: () async -> Void) async -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
      let start = ContinuousClock.now
      await body()
      best = min(best, nanoseconds(ContinuousClock.now - start))
    }
    return best
  }
  let passing = await timed {
    let store = TestStore(initialState: initial, reducer: RowCatalog())
    await store.send(.items(.row(middle, .renamed("renamed")))) {
      $0.items[id: middle]?.name = "renamed"
    }
  }
  let failures = FailureReporter.Recorder()
  let failing = await timed {
    let store = TestStore(initialState: initial, reducer: RowCatalog())
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(.items(.row(middle, .renamed("renamed")))) {
        $0.items[id: middle]?.name = "expected"
      }
    }
  }
  if !failures.messages.contains(where: {
    $0.contains("name: \"renamed\"") && $0.contains("unchanged") && $0.count < 4_000
  }) {
    FileHandleOutput.standardError(
      "store-bench: the failing row assertion did not name the renamed row briefly")
  }
  return [
    BenchmarkResult(
      group: "rows", scenario: passingName, ops: 1, nanoseconds: passing, floor: passingName,
      floorNanosecondsPerOp: passing, peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "rows",
      scenario: "TestStore failing assertion naming the changed row, \(size) rows",
      ops: 1, nanoseconds: failing, floor: passingName, floorNanosecondsPerOp: passing,
      peakRSSMiB: peakRSSMiB(), target: isLargest ? "≤ 20 ms" : nil),
  ]
}

/// The median time of `sends` sends that each toggle one row, times `sends`; `between` runs
/// after each, untimed unless `timingBetween`.
@MainActor
private func timedRowSends(
  _ sends: Int,
  count: Int,
  store: Store<RowCatalog>,
  timingBetween: Bool = false,
  between: () async -> Void
) async -> Double {
  store.send(.items(.row(0, .toggled)))
  await between()
  var times: [Double] = []
  times.reserveCapacity(sends)
  for index in 0..<sends {
    let action = RowCatalog.Action.items(.row((index &* 7_919) % count, .toggled))
    let start = ContinuousClock.now
    store.send(action)
    if timingBetween { await between() }
    times.append(nanoseconds(ContinuousClock.now - start))
    if !timingBetween { await between() }
  }
  times.sort()
  return times[times.count / 2] * Double(sends)
}
