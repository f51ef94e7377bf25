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
