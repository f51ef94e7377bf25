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
  storeSendScenarios(
    group: "counter", feature: "counter", reducer: CounterReducer(), initialState: 0,
    actions: [.increment], ops: ops, targets: [0: "≤ 100 ns", 100: "≤ 2000 ns"])
}

/// The reducer called directly (the floor), then `Store.send` with 0, 1 and 100 observers,
/// cycling through `actions`.
@MainActor
func storeSendScenarios<R: Reducer>(
  group: String,
  feature: String,
  reducer: R,
  initialState: R.State,
  actions: [R.Action],
  ops: Int,
  targets: [Int: String]
) -> [BenchmarkResult] {
  let floor = measure(ops: ops) { count in
    var state = initialState
    for index in 0..<count { reduceOutOfLine(reducer, &state, actions[index % actions.count]) }
    blackHole(state)
  }
  let floorName = "\(feature) reducer, direct"
  var results = [
    BenchmarkResult(
      group: group, scenario: floorName, ops: ops, nanoseconds: floor, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB())
  ]
  for observers in [0, 1, 100] {
    let store = Store(initialState: initialState, reducer: reducer)
    var sink = 0
    let subscriptions = (0..<observers).map { _ in store.observe { _ in sink &+= 1 } }
    let time = measure(ops: ops) { count in
      for index in 0..<count { store.send(actions[index % actions.count]) }
    }
    blackHole(sink)
    blackHole(subscriptions)
    results.append(
      BenchmarkResult(
        group: group, scenario: "Store.send, \(feature), \(observers) observers", ops: ops,
        nanoseconds: time, floor: floorName, floorNanosecondsPerOp: floor / Double(ops),
        peakRSSMiB: peakRSSMiB(), target: targets[observers]))
  }
  return results
}

/// The floor: one reducer call that the optimizer cannot fold into the loop.
@inline(never)
func reduceOutOfLine<R: Reducer>(_ reducer: R, _ state: inout R.State, _ action: R.Action) {
  blackHole(reducer.reduce(into: &state, action: action))
}
