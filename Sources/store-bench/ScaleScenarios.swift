import ActionLog
import Foundation
import StateStore

/// How the cost of one send grows with the state: a list of 1,000, 10,000 and 100,000 items,
/// one of which changes per send, with no observer, with a recorder attached (its writer caught
/// up before each send, and then also idle: past its linger, so the send wakes it) and with a
/// transition observer (which makes the store keep the state before).
///
/// Each send is timed on its own and the median is reported; the writer's work between sends is
/// not timed. The recorder's row has its target at 100,000 items: at most twice the send with
/// no observer. A send timed right after the main actor waited for the writer runs on cold
/// caches whatever observes it, so the send with no observer is also timed after the same kind
/// of wait ("after a wait"): the recorder's own share is its row against that one.
@MainActor
func scaleScenarios(quick: Bool) async -> [BenchmarkResult] {
  let folder = scratchFolder()
  defer { try? FileManager.default.removeItem(at: folder) }
  var results: [BenchmarkResult] = []
  // A quick run (the suite's debug build, where the recorder's writer encodes each state
  // slowly) takes small lists: it checks the rows, not the growth.
  for count in quick ? [100, 1_000] : [1_000, 10_000, 100_000] {
    let size = count.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
    // Fewer sends as the list grows: the recorder's writer encodes the state whole per step.
    let sends = quick ? 20 : max(20, 2_000_000 / count)
    let initial = ItemCatalog.State(count: count)

    let floorName = "send, \(size) items, one changes: no observer"
    let bare = Store(initialState: initial, reducer: ItemCatalog())
    let floor = await timedSends(sends, count: count, store: bare) {}
    results.append(
      BenchmarkResult(
        group: "scale", scenario: floorName, ops: sends, nanoseconds: floor, floor: floorName,
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB()))

    // The same send with no observer, timed the way the recorder's rows are: right after the
    // main actor waited for another thread (another store's recorder writing a step). A send
    // right after such a wait runs on cold caches, recorder or not; this row says how much of
    // the recorder's rows is that.
    let other = Store(initialState: initial, reducer: ItemCatalog())
    let otherRecorder: ActionLogRecorder<ItemCatalog>
    do {
      otherRecorder = try other.record(
        to: folder.appendingPathComponent("scale-\(count)-other.jsonl"), feature: "items")
    } catch {
      FileHandleOutput.standardError("store-bench: cannot record the \(size)-item list: \(error)")
      return results
    }
    let waitedTime = await timedSends(sends, count: count, store: bare) {
      other.send(.toggle(1))
      await otherRecorder.flush()
    }
    await otherRecorder.close()
    results.append(
      BenchmarkResult(
        group: "scale", scenario: "send, \(size) items, one changes: no observer, after a wait",
        ops: sends, nanoseconds: waitedTime, floor: floorName,
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB()))

    let recorded = Store(initialState: initial, reducer: ItemCatalog())
    let url = folder.appendingPathComponent("scale-\(count).jsonl")
    let recorder: ActionLogRecorder<ItemCatalog>
    do {
      recorder = try recorded.record(to: url, feature: "items")
    } catch {
      FileHandleOutput.standardError("store-bench: cannot record the \(size)-item list: \(error)")
      return results
    }
    let recordedTime = await timedSends(sends, count: count, store: recorded) {
      await recorder.flush()
    }
    // The first send after the writer went idle (its linger over) wakes it: 5 ms untimed after
    // each flush, longer than the writer's linger.
    let idleSends = quick ? 5 : 50
    let idleTime = await timedSends(idleSends, count: count, store: recorded) {
      await recorder.flush()
      // Only cancellation throws here, and nothing cancels the benchmark's task.
      try? await Task.sleep(for: .milliseconds(5))
    }
    await recorder.close()
    results.append(
      BenchmarkResult(
        group: "scale", scenario: "send, \(size) items, one changes: recorder attached, caught up",
        ops: sends, nanoseconds: recordedTime, floor: floorName,
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB(),
        target: count == 100_000 ? "≤ 2× floor" : nil))
    results.append(
      BenchmarkResult(
        group: "scale",
        scenario: "send, \(size) items, one changes: recorder attached, writer idle",
        ops: idleSends, nanoseconds: idleTime,
        floor: floorName, floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB()))

    let observed = Store(initialState: initial, reducer: ItemCatalog())
    var seen = 0
    let subscription = observed.observeTransitions { seen &+= $0.sequenceNumber }
    let observedTime = await timedSends(sends, count: count, store: observed) {}
    blackHole((subscription, seen))
    results.append(
      BenchmarkResult(
        group: "scale", scenario: "send, \(size) items, one changes: transition observer",
        ops: sends, nanoseconds: observedTime, floor: floorName,
        floorNanosecondsPerOp: floor / Double(sends), peakRSSMiB: peakRSSMiB()))
  }
  return results
}

/// The median time of `sends` sends that each toggle one item, times `sends` (so that the
/// report's per-operation figure is the median send); `between` runs untimed after each. The
/// median, because a send now and then waits for the scheduler on a busy machine.
@MainActor
private func timedSends(
  _ sends: Int,
  count: Int,
  store: Store<ItemCatalog>,
  between: () async -> Void
) async -> Double {
  // One untimed send first: it makes the store's list its own (the initial state is shared
  // with the caller, and with a recorder's header).
  store.send(.toggle(0))
  await between()
  var times: [Double] = []
  times.reserveCapacity(sends)
  for index in 0..<sends {
    let action = ItemCatalog.Action.toggle((index &* 7_919) % count)
    let start = ContinuousClock.now
    store.send(action)
    times.append(nanoseconds(ContinuousClock.now - start))
    await between()
  }
  times.sort()
  return times[times.count / 2] * Double(sends)
}
