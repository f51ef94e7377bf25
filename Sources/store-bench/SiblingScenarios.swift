import LoginFeature
import StateStore

/// A parent with 100 login forms as children, each declared with a `ChildFeature` and run by a
/// `Scope`: one keystroke to one child per send. The children are an array, each scope's key
/// path `\.forms[i]`, and every scope is offered every action: the row measures what that
/// costs. `SiblingRows` is the same parent with `forEach`, which routes by the row's id.
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

/// The same 100 login forms as the rows of a list: `forEach` finds the one a keystroke is for by
/// its id, instead of offering the keystroke to every child.
struct SiblingRows: Reducer {
  struct Form: Identifiable, Equatable, Sendable {
    let id: Int
    var login = LoginState()
  }

  struct State: Sendable, Equatable {
    var forms = IdentifiedList<Form>()

    init() {
      for id in 0..<SiblingForms.count { forms.append(Form(id: id)) }
    }
  }

  enum Action: Sendable {
    case forms(RowAction<Int, LoginAction>)
  }

  enum Effect: ComposedEffect {
    case forms(RowEffect<Int, LoginEffect>)
    case childDismissed(ChildDismissal)
  }

  static let forms = ChildFeature(
    "forms", state: \State.forms,
    action: CaseKey(embed: Action.forms) { if case .forms(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.forms) { if case .forms(let e) = $0 { e } else { nil } })

  struct FormReducer: Reducer {
    let login = LoginReducer()

    func reduce(into state: inout Form, action: LoginAction) -> [LoginEffect] {
      login.reduce(into: &state.login, action: action)
    }
  }

  struct Core: Reducer {
    func reduce(into state: inout State, action: Action) -> [Effect] { [] }
  }

  let body = Core().forEach(SiblingRows.forms) { FormReducer() }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    body.reduce(into: &state, action: action)
  }
}

/// One keystroke to one of 100 sibling children, through the parent's reducer directly and
/// through a store, as 100 scopes and as 100 rows of `forEach`; against the login reducer's
/// own keystroke.
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
  let rowActions = keystrokes.indices.map {
    SiblingRows.Action.forms(.row(($0 * 37) % 100, keystrokes[$0]))
  }
  let rows = SiblingRows()
  let rowsDirect = measure(ops: ops) { count in
    var state = SiblingRows.State()
    for index in 0..<count { reduceOutOfLine(rows, &state, rowActions[index % rowActions.count]) }
    blackHole(state)
  }
  let rowStore = Store(initialState: SiblingRows.State(), reducer: rows)
  let rowsSent = measure(ops: ops) { count in
    for index in 0..<count { rowStore.send(rowActions[index % rowActions.count]) }
  }
  return [
    BenchmarkResult(
      group: "scoped", scenario: "scoped: one child among 100 siblings, forEach rows, direct",
      ops: ops, nanoseconds: rowsDirect, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "scoped",
      scenario: "scoped: one child among 100 siblings, forEach rows, through the store",
      ops: ops, nanoseconds: rowsSent, floor: floorName,
      floorNanosecondsPerOp: floor / Double(ops), peakRSSMiB: peakRSSMiB(), target: "≤ 2 µs"),
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
