import AppFeature
import LoginFeature
import StateStore

/// The login form as a child of the app store: keystrokes through the app store, with and
/// without observers of another child, and through a scoped handle on the login slice.
///
/// The app is signed in (the home screen is there), so the home handle compares a real
/// `HomeState` after every keystroke. These rows have no targets: their three (200 ns, 1.2×,
/// 250 ns) were retired with the safe core (issue 33); the rows show how the costs move.
@MainActor
func appScopedScenarios(ops: Int) -> [BenchmarkResult] {
  let keystrokes = loginKeystrokes()
  let appKeystrokes = keystrokes.map(AppAction.login)
  let user = User(id: "1", username: "ada", displayName: "Ada Lovelace")
  let initialState = AppState(
    login: LoginState(user: user), home: HomeState(user: user, isLoadingProfile: true))
  let reducer = AppReducer()

  let floorName = "scoped: app reducer, direct, login keystroke"
  let floor = measure(ops: ops) { count in
    var state = initialState
    for index in 0..<count {
      reduceOutOfLine(reducer, &state, appKeystrokes[index % appKeystrokes.count])
    }
    blackHole(state)
  }
  var results = [
    BenchmarkResult(
      group: "scoped", scenario: floorName, ops: ops, nanoseconds: floor, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB())
  ]

  let plainName = "scoped: login keystroke through the app store, 0 observers"
  let plain = Store(initialState: initialState, reducer: reducer)
  let plainTime = measure(ops: ops) { count in
    for index in 0..<count { plain.send(appKeystrokes[index % appKeystrokes.count]) }
  }
  results.append(
    BenchmarkResult(
      group: "scoped", scenario: plainName, ops: ops, nanoseconds: plainTime, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB()))

  let watched = Store(initialState: initialState, reducer: reducer)
  let home = watched.scope(AppReducer.home)
  var sink = 0
  let subscriptions = (0..<100).map { _ in home.observe { _ in sink &+= 1 } }
  let watchedTime = measure(ops: ops) { count in
    for index in 0..<count { watched.send(appKeystrokes[index % appKeystrokes.count]) }
  }
  blackHole(subscriptions)
  precondition(sink == 0, "a login keystroke reached an observer of the home screen")
  results.append(
    BenchmarkResult(
      group: "scoped",
      scenario: "scoped: login keystroke through the app store, 100 observers of another child",
      ops: ops, nanoseconds: watchedTime, floor: plainName,
      floorNanosecondsPerOp: plainTime / Double(ops), peakRSSMiB: peakRSSMiB()))

  let handled = Store(initialState: initialState, reducer: reducer)
  let login = handled.scope(AppReducer.login)
  let handleTime = measure(ops: ops) { count in
    for index in 0..<count { login.send(keystrokes[index % keystrokes.count]) }
  }
  results.append(
    BenchmarkResult(
      group: "scoped", scenario: "scoped: child store handle send, login keystroke", ops: ops,
      nanoseconds: handleTime, floor: floorName, floorNanosecondsPerOp: floor / Double(ops),
      peakRSSMiB: peakRSSMiB()))

  // Views come and go: a list of rows, each with a handle it observes, created and released.
  let churnName = "scoped: 1,000 handles created, observed and released"
  let churned = Store(initialState: initialState, reducer: reducer)
  let churnTime = measure(ops: 1) { _ in
    var handles: [ScopedStore<LoginState, LoginAction>] = []
    var subscriptions: [StoreSubscription] = []
    for _ in 0..<1_000 {
      let handle = churned.scope(AppReducer.login)
      subscriptions.append(handle.observe { _ in sink &+= 1 })
      handles.append(handle)
    }
    churned.send(appKeystrokes[0])
    subscriptions.removeAll()
    handles.removeAll()
  }
  results.append(
    BenchmarkResult(
      group: "scoped", scenario: churnName, ops: 1, nanoseconds: churnTime, floor: churnName,
      floorNanosecondsPerOp: churnTime, peakRSSMiB: peakRSSMiB(), target: "≤ 5 ms in all"))
  return results
}
