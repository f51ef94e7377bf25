import StateStore

/// A parent feature built from `Journal` children: two always there, side by side (`left`,
/// `right`), and one optional (`drawer`), plus logic of its own.
struct Desk: Reducer {
  struct State: Equatable, Sendable {
    var left = Journal.State()
    var right = Journal.State()
    var drawer: Journal.State?
    /// How many entries the drawer held after the last action: the parent reading its child.
    var drawerCount = 0
  }

  enum Action: Equatable, Sendable {
    case left(Journal.Action)
    case right(Journal.Action)
    case drawer(Journal.Action)
    case openDrawer
    case closeDrawer
  }

  enum Effect: ComposedEffect, Equatable {
    case left(Journal.Effect)
    case right(Journal.Effect)
    case drawer(Journal.Effect)
    case childDismissed(ChildDismissal)
    // No `cancellation`: `ComposedEffect` reads each child's from the case that carries it.
  }

  static let left = ChildFeature(
    "left", state: \State.left,
    action: CaseKey(embed: Action.left) { if case .left(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.left) { if case .left(let e) = $0 { e } else { nil } })
  static let right = ChildFeature(
    "right", state: \State.right,
    action: CaseKey(embed: Action.right) { if case .right(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.right) { if case .right(let e) = $0 { e } else { nil } })
  static let drawer = ChildFeature(
    "drawer", state: \State.drawer,
    action: CaseKey(embed: Action.drawer) { if case .drawer(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.drawer) { if case .drawer(let e) = $0 { e } else { nil } })

  /// The parent's own logic: opening and closing the drawer, and counting its entries.
  struct Core: Reducer {
    func reduce(into state: inout State, action: Action) -> [Effect] {
      switch action {
      case .openDrawer:
        if state.drawer == nil { state.drawer = Journal.State() }
      case .closeDrawer:
        state.drawer = nil
      case .left, .right, .drawer:
        break
      }
      state.drawerCount = state.drawer?.entries.count ?? 0
      return []
    }
  }

  var witness: Probe?

  var body: some Reducer<State, Action, Effect> {
    Scope(Desk.left) { Journal(witness: witness) }
      .combined(with: Scope(Desk.right) { Journal(witness: witness) })
      .combined(with: Core().ifLet(Desk.drawer) { Journal(witness: witness) })
  }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    body.reduce(into: &state, action: action)
  }
}

/// The parent's handler written out: each child's effects go to the child's handler with a
/// `Send` that embeds its actions.
struct DeskHandler: EffectHandler {
  let journal: JournalHandler

  func handle(_ effect: Desk.Effect, send: Send<Desk.Action>) async {
    switch effect {
    case .left(let effect): await journal.handle(effect, send: send.embedding(Desk.Action.left))
    case .right(let effect): await journal.handle(effect, send: send.embedding(Desk.Action.right))
    case .drawer(let effect):
      await journal.handle(effect, send: send.embedding(Desk.drawer.action))
    case .childDismissed: break
    }
  }
}

@MainActor
func makeDeskStore(probe: Probe = Probe(), witness: Probe? = nil) -> Store<Desk> {
  Store(
    initialState: Desk.State(), reducer: Desk(witness: witness),
    handler: DeskHandler(journal: JournalHandler(probe: probe)))
}
