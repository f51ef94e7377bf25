import LoginFeature
import StateStore

/// A parent with 100 login forms as children, each declared with a `ChildFeature` and run by a
/// `Scope`: one keystroke to one child per send. The children are an array, each scope's key
/// path `\.forms[i]`, and every scope is offered every action (there is no routing by case
/// yet): the row measures what that costs.
struct SiblingForms: Reducer {
  struct State: Sendable, Equatable {
    var forms = Array(repeating: LoginState(), count: SiblingForms.count)
  }

  enum Action: Sendable {
    case form(Int, LoginAction)
  }

  /// A child's effect, namespaced by the child's name.
  struct Effect: StoreEffect {
    var index: Int
    var effect: LoginEffect
    var cancellation: EffectCancellation { effect.cancellation.within("form\(index)") }
  }

  static let count = 100

  static let features = (0..<count).map { index in
    ChildFeature<State, Action, Effect, LoginState, LoginAction, LoginEffect>(
      "form\(index)", state: \State.forms[index],
      action: CaseKey(embed: { .form(index, $0) }) {
        if case .form(index, let action) = $0 { action } else { nil }
      },
      effect: CaseKey(embed: { Effect(index: index, effect: $0) }) {
        $0.index == index ? $0.effect : nil
      })
  }

  let scopes = features.map { feature in Scope(feature) { LoginReducer() } }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    var effects: [Effect] = []
    for index in scopes.indices { effects += scopes[index].reduce(into: &state, action: action) }
    return effects
  }
}

/// One keystroke to one of 100 sibling children, through the parent's reducer directly and
/// through a store; against the login reducer's own keystroke.
@MainActor
func siblingScenarios(ops: Int) -> [BenchmarkResult] {
  let keystrokes = loginKeystrokes()
  let actions = keystrokes.indices.map { SiblingForms.Action.form(($0 * 37) % 100, keystrokes[$0]) }
  let login = LoginReducer()
  let floorName = "scoped: login keystroke reducer, direct (the child alone)"
  let floor = measure(ops: ops) { count in
    var state = LoginState()
    for index in 0..<count { reduceOutOfLine(login, &state, keystrokes[index % keystrokes.count]) }
    blackHole(state)
  }
  let reducer = SiblingForms()
  let direct = measure(ops: ops) { count in
    var state = SiblingForms.State()
    for index in 0..<count { reduceOutOfLine(reducer, &state, actions[index % actions.count]) }
    blackHole(state)
  }
  let store = Store(initialState: SiblingForms.State(), reducer: reducer)
  let sent = measure(ops: ops) { count in
    for index in 0..<count { store.send(actions[index % actions.count]) }
  }
  return [
    BenchmarkResult(
      group: "scoped", scenario: floorName, ops: ops, nanoseconds: floor, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "scoped", scenario: "scoped: one child among 100 siblings, parent reducer, direct",
      ops: ops, nanoseconds: direct, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "scoped", scenario: "scoped: one child among 100 siblings, through the store",
      ops: ops, nanoseconds: sent, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB(), target: "≤ 2 µs"),
  ]
}
