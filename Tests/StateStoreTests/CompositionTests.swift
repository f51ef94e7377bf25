import StateStore
import Testing
import ToolTestSupport

/// Reducer composition as data: scopes, optional children, combination, case keys and
/// namespaced cancellation, without running effects.
struct CompositionTests {
  @Test func aCaseKeyEmbedsAndExtractsItsCaseOnly() {
    let key = Desk.left.action
    #expect(key.embed(.append("a")) == .left(.append("a")))
    #expect(key.extract(.left(.append("a"))) == .append("a"))
    #expect(key.extract(.right(.append("a"))) == nil)
    #expect(key.extract(.openDrawer) == nil)
  }

  @Test func aScopeRunsTheChildOnItsSliceAndEmbedsItsEffects() {
    var state = Desk.State()
    let effects = Desk().reduce(into: &state, action: .left(.emit([.echo("x"), .request("y")])))
    #expect(effects == [.left(.echo("x")), .left(.request("y"))])
    _ = Desk().reduce(into: &state, action: .left(.append("a")))
    #expect(state.left.entries == ["a"])
    #expect(state.right == Journal.State())
  }

  @Test func aScopeIgnoresTheActionsOfOtherCases() {
    let scope = Scope(Desk.left) { Journal() }
    var state = Desk.State()
    #expect(scope.reduce(into: &state, action: .right(.emit([.echo("x")]))).isEmpty)
    #expect(scope.reduce(into: &state, action: .openDrawer).isEmpty)
    #expect(state == Desk.State())
  }

  @Test func aScopeOfAChildWithoutEffectsNeedsNoEffectCase() {
    struct Tally: Reducer {
      func reduce(into state: inout Int, action: Int) -> [Never] {
        state += action
        return []
      }
    }
    enum Parent: Equatable, Sendable {
      case tally(Int)
      case other
    }
    // The parent's effect type comes from where the description is used.
    let scope = Scope<[Int], Parent, Never, Tally>(
      ChildFeature(
        "tally", state: \[Int].[0],
        action: CaseKey(embed: Parent.tally) { if case .tally(let n) = $0 { n } else { nil } })
    ) { Tally() }
    var state = [1, 10]
    _ = scope.reduce(into: &state, action: .tally(4))
    _ = scope.reduce(into: &state, action: .other)
    #expect(state == [5, 10])
  }

  @Test func combinedReducersRunInOrderOnTheSameStateAndConcatenateTheirEffects() {
    struct Append: Reducer {
      let mark: String
      func reduce(into state: inout [String], action: Int) -> [Journal.Effect] {
        state.append("\(mark)\(action) after \(state.count)")
        return [.echo(mark)]
      }
    }
    let combined = Append(mark: "a").combined(with: Append(mark: "b"))
      .combined(with: Append(mark: "c"))
    var state: [String] = []
    #expect(combined.reduce(into: &state, action: 7) == [.echo("a"), .echo("b"), .echo("c")])
    #expect(state == ["a7 after 0", "b7 after 1", "c7 after 2"])
  }

  @Test func anOptionalChildRunsOnlyWhilePresentAndBeforeItsParent() {
    var state = Desk.State()
    _ = Desk().reduce(into: &state, action: .openDrawer)
    #expect(state.drawer == Journal.State())
    let effects = Desk().reduce(into: &state, action: .drawer(.append("d")))
    #expect(effects.isEmpty)
    #expect(state.drawer?.entries == ["d"])
    // The parent ran after the child and saw the child's new state.
    #expect(state.drawerCount == 1)
    #expect(
      Desk().reduce(into: &state, action: .drawer(.emit([.held("h")]))) == [.drawer(.held("h"))])
  }

  @Test func anOptionalChildThatGoesAwayReturnsTheDismissalEffect() {
    var state = Desk.State()
    _ = Desk().reduce(into: &state, action: .openDrawer)
    #expect(
      Desk().reduce(into: &state, action: .closeDrawer) == [.childDismissed(Desk.drawer.dismissal)])
    #expect(state.drawer == nil)
    // Closing what is already closed dismisses nothing.
    #expect(Desk().reduce(into: &state, action: .closeDrawer).isEmpty)
  }

  @Test func anActionForAnAbsentOptionalChildIsIgnoredAndReported() {
    let warnings = WarningLog()
    var state = Desk.State()
    let effects = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      Desk().reduce(into: &state, action: .drawer(.emit([.echo("lost")])))
    }
    #expect(effects.isEmpty)
    #expect(state == Desk.State())
    #expect(
      warnings.messages == [
        "Desk.Action.drawer(Journal.Action.emit([Journal.Effect.echo(\"lost\")])) was sent to "
          + "the optional child 'drawer', which is absent; the action was ignored."
      ])
  }

  @Test func warningsShowSecretsAsMasksOnlyAndAChildWithoutEffectsNeedsNoDismissal() {
    struct Vault: Reducer {
      func reduce(into state: inout Int, action: Secret) -> [Never] {
        state += 1
        return []
      }
    }
    enum Parent: Sendable {
      case vault(Secret)
      case close
    }
    struct Core: Reducer {
      func reduce(into state: inout Int?, action: Parent) -> [Never] {
        if case .close = action { state = nil }
        return []
      }
    }
    let vault = ChildFeature<Int?, Parent, Never, Int?, Secret, Never>(
      "vault", state: \Int?.self,
      action: CaseKey(embed: Parent.vault) { if case .vault(let s) = $0 { s } else { nil } })
    let reducer = Core().ifLet(vault) { Vault() }
    var state: Int? = 0
    _ = reducer.reduce(into: &state, action: .vault("Hunter2!"))
    #expect(state == 1)
    #expect(reducer.reduce(into: &state, action: .close).isEmpty)
    let warnings = WarningLog()
    RuntimeWarning.$reporter.withValue(warnings.reporter) {
      _ = reducer.reduce(into: &state, action: .vault("Hunter2!"))
    }
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("Secret(Aaaaaa0*)") == true)
    #expect(warnings.messages.first?.contains("Hunter2") == false)
  }

  /// A child without effects, in a parent whose effects are a `ComposedEffect`, is dismissed as
  /// data as any child is (as in 0.2.0): the effect-less overload that wins resolution for it
  /// must not drop the dismissal a parent or a test relies on.
  @Test func aChildWithoutEffectsInAComposedParentIsDismissedAsData() {
    struct Quiet: Reducer {
      func reduce(into state: inout Journal.State, action: Journal.Action) -> [Never] { [] }
    }
    let quiet = ChildFeature<
      Desk.State, Desk.Action, Desk.Effect, Journal.State?, Journal.Action, Never
    >(
      "drawer", state: \Desk.State.drawer,
      action: CaseKey(embed: Desk.Action.drawer) { if case .drawer(let a) = $0 { a } else { nil } })
    let reducer = Desk.Core().ifLet(quiet) { Quiet() }
    var state = Desk.State()
    #expect(reducer.reduce(into: &state, action: .openDrawer).isEmpty)
    #expect(
      reducer.reduce(into: &state, action: .closeDrawer) == [.childDismissed(quiet.dismissal)])
  }

  @Test func childCancellationLivesInTheNamespaceOfItsPlace() {
    #expect(
      Desk.Effect.left(.request("x")).cancellation
        == EffectCancellation(.group("request", cancelInFlight: true), namespace: ["left"]))
    #expect(
      Desk.Effect.right(.cancelRequests).cancellation
        == EffectCancellation(.cancels("request"), namespace: ["right"]))
    #expect(Desk.Effect.drawer(.echo("x")).cancellation.namespace == ["drawer"])
    #expect(Desk.Effect.drawer(.echo("x")).cancellation.kind == .none)
    #expect(
      Desk.Effect.childDismissed(Desk.drawer.dismissal).cancellation
        == EffectCancellation(.cancelsNamespace, namespace: ["drawer"]))
    #expect(
      EffectCancellation.cancelsAll(in: "drawer").within("desk").namespace == ["desk", "drawer"])
    #expect(EffectCancellation.none.within("a").within("b").namespace == ["b", "a"])
  }

  @Test func theAppReporterReceivesWarningsFromTasksThatChoseNoReporter() async {
    let warnings = WarningLog()
    RuntimeWarning.appReporter = warnings.reporter
    defer { RuntimeWarning.appReporter = .standardError }
    // A detached task inherits no task-local reporter: the app-wide one applies.
    await Task.detached {
      var state = Desk.State()
      _ = Desk().reduce(into: &state, action: .drawer(.append("app-wide")))
    }.value
    // A task that chose its own reporter keeps it.
    let own = WarningLog()
    RuntimeWarning.$reporter.withValue(own.reporter) {
      var state = Desk.State()
      _ = Desk().reduce(into: &state, action: .drawer(.append("own")))
    }
    #expect(warnings.messages.filter { $0.contains("app-wide") }.count == 1)
    #expect(warnings.messages.filter { $0.contains("\"own\"") }.isEmpty)
    #expect(own.messages.count == 1)
  }

  @Test func aWarningOnStandardErrorStaysOneLineWithItsControlCharactersEscaped() {
    #expect(
      RuntimeWarning.Reporter.oneLine("login.frobnicate(\"a\nb\u{1B}[2J\u{202E}é\")")
        == #"login.frobnicate("a\u{A}b\u{1B}[2J\u{202E}é")"#)
    #expect(RuntimeWarning.Reporter.oneLine("plain text") == "plain text")
  }
}
