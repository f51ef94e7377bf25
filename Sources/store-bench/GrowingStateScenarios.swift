import ActionLog
import Foundation
import StateStore

/// A feature whose state is a list of 1,000 items, one of which changes per step: the costs
/// that grow with the state's size, not with the step's.
struct ItemCatalog: Reducer {
  struct Item: Codable, Equatable, Sendable, Identifiable {
    var id: Int
    var name: String
    var quantity: Int
    var isDone: Bool
  }

  struct State: Codable, Equatable, Sendable {
    var items: [Item]
    var revision = 0

    init(count: Int = 1_000) {
      items = (0..<count).map {
        Item(id: $0, name: "Item number \($0)", quantity: $0 % 7, isDone: false)
      }
    }
  }

  enum Action: Codable, Sendable {
    case toggle(Int)
    case setQuantity(Int, Int)
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .toggle(let index):
      guard state.items.indices.contains(index) else { return [] }
      state.items[index].isDone.toggle()
    case .setQuantity(let index, let quantity):
      guard state.items.indices.contains(index) else { return [] }
      state.items[index].quantity = quantity
    }
    state.revision &+= 1
    return []
  }
}

/// The same list as an `IdentifiedList`: its leaves carry an identity of their own, so the
/// verified replay's encoder keeps the bytes of the leaves a step did not touch (decided by the
/// list's own storage, never by `==`).
struct IdentifiedItemCatalog: Reducer {
  struct State: Codable, Equatable, Sendable {
    var items: IdentifiedList<ItemCatalog.Item>
    var revision = 0

    init(count: Int = 1_000) {
      items = IdentifiedList()
      for item in ItemCatalog.State(count: count).items { _ = items.append(item) }
    }
  }

  func reduce(into state: inout State, action: ItemCatalog.Action) -> [Never] {
    switch action {
    case .toggle(let id): state.items[id: id]?.isDone.toggle()
    case .setQuantity(let id, let quantity): state.items[id: id]?.quantity = quantity
    }
    state.revision &+= 1
    return []
  }
}

/// Replays a log of a 1,000-item state whose steps each change one item, verified, against the
/// floor of encoding that state once with `JSONEncoder`: a replay step should cost less than
/// half of one plain encoding of the state. Once with the items in an `Array`, once in an
/// `IdentifiedList`.
@MainActor
func growingStateScenarios(quick: Bool, folder: URL) async -> [BenchmarkResult] {
  let array = await growingStateScenario(
    ItemCatalog(), ItemCatalog.State(), name: "items", quick: quick, folder: folder)
  let identified = await growingStateScenario(
    IdentifiedItemCatalog(), IdentifiedItemCatalog.State(), name: "identified items",
    quick: quick, folder: folder)
  let state = ItemCatalog.State()
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let encodings = quick ? 20 : 500
  let floorTime = measure(ops: encodings, rounds: 3) { ops in
    for _ in 0..<ops { blackHole(try? encoder.encode(state)) }
  }
  let floorName = "replay 1,000 items: JSONEncoder, the state once"
  func row(_ scenario: String, _ result: (steps: Int, time: Double, peak: Double))
    -> BenchmarkResult
  {
    BenchmarkResult(
      group: "actionlog", scenario: scenario, ops: result.steps, nanoseconds: result.time,
      floor: floorName, floorNanosecondsPerOp: floorTime / Double(encodings),
      peakRSSMiB: result.peak, target: "≤ 0.5×")
  }
  return [
    BenchmarkResult(
      group: "actionlog", scenario: floorName, ops: encodings, nanoseconds: floorTime,
      floor: floorName, floorNanosecondsPerOp: floorTime / Double(encodings),
      peakRSSMiB: peakRSSMiB()),
    row("replay: 1,000-item state, one item changes per step", array),
    row("replay: 1,000-item IdentifiedList, one item changes per step", identified),
  ]
}

/// Records `steps` steps of `reducer` that each change one item, and times the best of two
/// verified replays of the log.
@MainActor
private func growingStateScenario<R: Reducer>(
  _ reducer: R, _ initialState: R.State, name: String, quick: Bool, folder: URL
) async -> (steps: Int, time: Double, peak: Double)
where
  R.Action == ItemCatalog.Action, R.State: Codable & Equatable & Sendable,
  R.Effect == Never
{
  // A quick run (the suite's debug build, where each step's state is encoded slowly) takes
  // one flush's worth of steps.
  let steps = quick ? 20 : 5_000
  let url = folder.appendingPathComponent(name.replacingOccurrences(of: " ", with: "-") + ".jsonl")
  let store = Store(initialState: initialState, reducer: reducer)
  let recorder: ActionLogRecorder<R>
  do {
    recorder = try store.record(to: url, feature: name)
  } catch {
    FileHandleOutput.standardError("store-bench: cannot record the \(name): \(error)")
    return (0, .infinity, 0)
  }
  for index in 0..<steps {
    store.send(index % 2 == 0 ? .toggle(index % 1_000) : .setQuantity(index % 1_000, index))
    // Flushed often: a recorder that falls behind drops steps, and this row replays them all.
    if index % 20 == 19 { await recorder.flush() }
  }
  await recorder.close()

  let replayer = Replayer(reducer: reducer)
  var replayTime = Double.infinity
  for _ in 0..<2 {
    let start = ContinuousClock.now
    do {
      let replayed = try replayer.replay(url).stepCount
      if replayed != steps {
        FileHandleOutput.standardError("store-bench: the \(name) replayed \(replayed) steps")
      }
    } catch {
      FileHandleOutput.standardError("store-bench: the \(name) replay failed: \(error)")
    }
    replayTime = min(replayTime, nanoseconds(ContinuousClock.now - start))
  }
  return (steps, replayTime, peakRSSMiB())
}
