import ActionLog
import Foundation
import StateStore

/// A feature whose state is a list of 1,000 items, one of which changes per step: the costs
/// that grow with the state's size, not with the step's.
struct ItemCatalog: Reducer {
  struct Item: Codable, Equatable, Sendable {
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

/// Replays a log of a 1,000-item state whose steps each change one item, verified, against the
/// floor of encoding that state once with `JSONEncoder`: a replay step should cost less than
/// half of one plain encoding of the state.
@MainActor
func growingStateScenarios(quick: Bool, folder: URL) async -> [BenchmarkResult] {
  let steps = quick ? 50 : 5_000
  let url = folder.appendingPathComponent("items.jsonl")
  let store = Store(initialState: ItemCatalog.State(), reducer: ItemCatalog())
  let recorder: ActionLogRecorder<ItemCatalog>
  do {
    recorder = try store.record(to: url, feature: "items")
  } catch {
    FileHandleOutput.standardError("store-bench: cannot record the item list: \(error)")
    return []
  }
  for index in 0..<steps {
    store.send(index % 2 == 0 ? .toggle(index % 1_000) : .setQuantity(index % 1_000, index))
    // Flushed often: a recorder that falls behind drops steps, and this row replays them all.
    if index % 20 == 19 { await recorder.flush() }
  }
  await recorder.close()

  let replayer = Replayer(reducer: ItemCatalog())
  var replayTime = Double.infinity
  for _ in 0..<2 {
    let start = ContinuousClock.now
    do {
      let replayed = try replayer.replay(url).stepCount
      if replayed != steps {
        FileHandleOutput.standardError("store-bench: the item list replayed \(replayed) steps")
      }
    } catch {
      FileHandleOutput.standardError("store-bench: the item list replay failed: \(error)")
    }
    replayTime = min(replayTime, nanoseconds(ContinuousClock.now - start))
  }
  let replayPeak = peakRSSMiB()

  let state = ItemCatalog.State()
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let encodings = quick ? 20 : 500
  let floorTime = measure(ops: encodings, rounds: 3) { ops in
    for _ in 0..<ops { blackHole(try? encoder.encode(state)) }
  }
  let floorName = "replay 1,000 items: JSONEncoder, the state once"
  return [
    BenchmarkResult(
      group: "actionlog", scenario: floorName, ops: encodings, nanoseconds: floorTime,
      floor: floorName, floorNanosecondsPerOp: floorTime / Double(encodings),
      peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "actionlog", scenario: "replay: 1,000-item state, one item changes per step",
      ops: steps, nanoseconds: replayTime, floor: floorName,
      floorNanosecondsPerOp: floorTime / Double(encodings), peakRSSMiB: replayPeak,
      target: "≤ 0.5×"),
  ]
}
