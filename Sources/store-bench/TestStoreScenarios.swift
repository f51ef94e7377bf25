import StateStore
import StateStoreTesting

/// `TestStore.send` with a trailing-closure assertion, against the direct reducer call.
///
/// The target: 10,000 send-and-assert steps of the counter in at most 50 ms (5,000 ns a step).
@MainActor
func testStoreScenarios(ops: Int) async -> [BenchmarkResult] {
  let reducer = CounterReducer()
  let floor = measure(ops: ops) { count in
    var state = 0
    for _ in 0..<count { reduceOutOfLine(reducer, &state, .increment) }
    blackHole(state)
  }
  let floorName = "counter reducer, direct"
  let time = await measureAsync(ops: ops) { count in
    let store = TestStore(initialState: 0, reducer: reducer)
    for _ in 0..<count {
      await store.send(.increment) { $0 += 1 }
    }
    await store.finish()
  }
  return [
    BenchmarkResult(
      group: "TestStore", scenario: "TestStore.send + assert, counter", ops: ops,
      nanoseconds: time, floor: floorName, floorNanosecondsPerOp: floor / Double(ops),
      peakRSSMiB: peakRSSMiB(), target: "≤ 5000 ns")
  ]
}

/// A 100,000-item list (10,000 in a quick run), one item renamed, and a test that expected
/// another name: the time to build the failure message, against diffing the two whole
/// renderings (how it was built).
@MainActor
func failingAssertionScenarios(quick: Bool) async -> [BenchmarkResult] {
  let count = quick ? 10_000 : 100_000
  let size = quick ? "10,000" : "100,000"
  struct Item: Equatable, Sendable {
    var id: Int
    var title: String
  }
  struct Rename: Reducer {
    func reduce(into state: inout [Item], action: Int) -> [Never] {
      state[action].title = "renamed"
      return []
    }
  }
  let items = (0..<count).map { Item(id: $0, title: "item \($0)") }
  let middle = count / 2
  var renamed = items
  renamed[middle].title = "renamed"
  var expected = items
  expected[middle].title = "expected"

  let floorName = "TestStore failing assertion floor: line diff of whole renderings"
  let floor = measure(ops: 1, rounds: 1) { _ in
    blackHole(Dump.diff(Dump.render(expected), Dump.render(renamed)))
  }
  let failures = FailureReporter.Recorder()
  let time = await measureAsync(ops: 1, rounds: 3) { _ in
    let store = TestStore(initialState: items, reducer: Rename())
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(middle) { $0[middle].title = "expected" }
    }
  }
  precondition(
    failures.messages.contains { $0.contains("title: \"renamed\"") && $0.count < 10_000 },
    "the failing assertion did not report the renamed item")
  let peak = peakRSSMiB()

  // The list does not change: the title does, and the test expected another title.
  struct Titled: Equatable, Sendable {
    var items: [Item]
    var title = "draft"
  }
  struct Retitle: Reducer {
    func reduce(into state: inout Titled, action: String) -> [Never] {
      state.title = action
      return []
    }
  }
  let titled = Titled(items: items)
  // Its floor: the same send, asserted right.
  let passingName = "TestStore passing assertion, unrelated field, \(size)-item state"
  let passing = await measureAsync(ops: 1, rounds: 3) { _ in
    let store = TestStore(initialState: titled, reducer: Retitle())
    await store.send("published") { $0.title = "published" }
  }
  let unrelated = await measureAsync(ops: 1, rounds: 3) { _ in
    let store = TestStore(initialState: titled, reducer: Retitle())
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send("published") { $0.title = "final" }
    }
  }
  precondition(
    failures.messages.contains {
      $0.contains("title: \"published\"") && $0.contains("(\(count) unchanged)")
        && $0.count < 2_000
    },
    "the failing assertion about the title did not fold the unchanged list")
  return [
    BenchmarkResult(
      group: "TestStore", scenario: floorName, ops: 1, nanoseconds: floor, floor: floorName,
      floorNanosecondsPerOp: floor, peakRSSMiB: peak),
    BenchmarkResult(
      group: "TestStore", scenario: "TestStore failing assertion, \(size)-item state", ops: 1,
      nanoseconds: time, floor: floorName, floorNanosecondsPerOp: floor,
      peakRSSMiB: peak, target: "≤ 100 ms"),
    BenchmarkResult(
      group: "TestStore", scenario: passingName, ops: 1, nanoseconds: passing,
      floor: passingName, floorNanosecondsPerOp: passing, peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "TestStore",
      scenario: "TestStore failing assertion, unrelated field, \(size)-item state", ops: 1,
      nanoseconds: unrelated, floor: passingName, floorNanosecondsPerOp: passing,
      peakRSSMiB: peakRSSMiB(), target: "≤ 50 ms"),
  ]
}

/// Times the async `body` over `ops` iterations, taking the best of `rounds` runs.
@MainActor
private func measureAsync(
  ops: Int,
  rounds: Int = 5,
  _ body: @MainActor (Int) async -> Void
) async -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let start = ContinuousClock.now
    await body(ops)
    let elapsed = ContinuousClock.now - start
    let ns =
      Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    best = min(best, ns)
  }
  return best
}
