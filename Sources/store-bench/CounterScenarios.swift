import StateStore

struct CounterReducer: Reducer {
  enum Action: Sendable {
    case increment
  }

  func reduce(into state: inout Int, action: Action) -> [Never] {
    switch action {
    case .increment:
      state &+= 1
    }
    return []
  }
}

@MainActor
func counterScenarios(ops: Int) -> [BenchmarkResult] {
  let reducer = CounterReducer()
  let floor = measure(ops: ops) { count in
    var state = 0
    for _ in 0..<count { reduceOutOfLine(reducer, &state, .increment) }
    blackHole(state)
  }
  let floorName = "counter reducer, direct"
  var results = [
    BenchmarkResult(
      group: "counter", scenario: floorName, ops: ops, nanoseconds: floor, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB())
  ]
  for (observers, target) in [(0, "≤ 100 ns"), (1, nil), (100, "≤ 2000 ns")] {
    let store = Store(initialState: 0, reducer: reducer)
    var sink = 0
    let subscriptions = (0..<observers).map { _ in store.observe { sink &+= $0 } }
    let time = measure(ops: ops) { count in
      for _ in 0..<count { store.send(.increment) }
    }
    blackHole(sink)
    blackHole(subscriptions)
    results.append(
      BenchmarkResult(
        group: "counter", scenario: "Store.send, counter, \(observers) observers", ops: ops,
        nanoseconds: time, floor: floorName, floorNanosecondsPerOp: floor / Double(ops),
        peakRSSMiB: peakRSSMiB(), target: target))
  }
  return results
}

/// The floor: one reducer call that the optimizer cannot fold into the loop.
@inline(never)
func reduceOutOfLine<R: Reducer>(_ reducer: R, _ state: inout R.State, _ action: R.Action) {
  blackHole(reducer.reduce(into: &state, action: action))
}
