import StateStore
import Testing
import ToolTestSupport

/// A child that is one case of an enum state: one screen of several.
struct Screens: Reducer {
  enum Screen: Equatable, Sendable, CaseAccessible {
    case list([String])
    case detail(Journal.State)

    static let detail = CaseKey(embed: Screen.detail) {
      if case .detail(let state) = $0 { state } else { nil }
    }
  }

  struct State: Equatable, Sendable {
    var screen = Screen.list([])
  }

  enum Action: Equatable, Sendable {
    case open
    case back
    case detail(Journal.Action)
  }

  enum Effect: ComposedEffect, Equatable {
    case detail(Journal.Effect)
    case childDismissed(ChildDismissal)

    var cancellation: EffectCancellation {
      switch self {
      case .detail(let effect): Screens.detail.cancellation(of: effect)
      case .childDismissed(let dismissal): dismissal.cancellation
      }
    }
  }

  static let detail = ChildFeature(
    "detail", state: \State.screen[case: Screen.detail],
    action: CaseKey(embed: Action.detail) { if case .detail(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.detail) { if case .detail(let e) = $0 { e } else { nil } })

  struct Core: Reducer {
    func reduce(into state: inout State, action: Action) -> [Effect] {
      switch action {
      case .open: state.screen = .detail(Journal.State())
      case .back: state.screen = .list(["back"])
      case .detail: break
      }
      return []
    }
  }

  let body = Core().ifLet(Screens.detail) { Journal() }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    body.reduce(into: &state, action: action)
  }
}

@MainActor
struct EnumCaseChildTests {
  @Test func theChildRunsInItsCaseAndItsEffectsEndWhenTheCaseChanges() async {
    let probe = Probe()
    let store = Store(
      initialState: Screens.State(), reducer: Screens(),
      handler: JournalHandler(probe: probe).lifted(into: Screens.detail))
    store.send(.open)
    store.send(.detail(.append("a")))
    #expect(store.state.screen == .detail(Journal.State(entries: ["a"])))
    let held = store.send(.detail(.emit([.held("h")])))
    await probe.waitUntilStarted("h")

    var transitions: [[Screens.Effect]] = []
    let subscription = store.observeTransitions { transitions.append($0.effects) }
    store.send(.back)
    await held.finishOrFail()
    #expect(transitions == [[.childDismissed(ChildDismissal(child: "detail"))]])
    #expect(probe.cancelled == ["h"])
    #expect(store.state.screen == .list(["back"]))
    subscription.cancel()
  }

  @Test func anActionForTheChildInAnotherCaseIsIgnoredAndReported() {
    let warnings = WarningLog()
    var state = Screens.State()
    let effects = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      Screens().reduce(into: &state, action: .detail(.append("lost")))
    }
    #expect(effects.isEmpty)
    #expect(state == Screens.State())
    #expect(warnings.messages.first?.contains("the optional child 'detail'") == true)
  }

  @Test func aHandleOnTheCaseIsNilInAnotherCase() {
    let store = Store(initialState: Screens.State(), reducer: Screens())
    let detail = store.scope(Screens.detail)
    #expect(detail.state == nil)
    store.send(.open)
    detail.send(.append("x"))
    #expect(detail.state == Journal.State(entries: ["x"]))
    #expect(
      Screens.detail.embeddingProblems(actions: [.append("x")], effects: [.echo("e")]) == [])
  }
}
