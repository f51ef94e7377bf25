import StateStore
import Testing
import ToolTestSupport

/// The one description of a child (`ChildFeature`): what it checks, and what it catches when a
/// parent's hand-written parts disagree with it.
struct ChildFeatureTests {
  /// Sample child values: one of each case that carries data.
  static let actions: [Journal.Action] = [.append("a"), .emit([.echo("e")]), .answered("x")]
  static let effects: [Journal.Effect] = [
    .echo("e"), .held("h"), .request("r"), .cancelRequests, .twice("t"), .chain("c"),
    .stubborn("s"),
  ]

  @Test func theDesksChildrenAreDeclaredConsistently() {
    for child in [Desk.left, Desk.right] {
      #expect(child.embeddingProblems(actions: Self.actions, effects: Self.effects) == [])
    }
    #expect(Desk.drawer.embeddingProblems(actions: Self.actions, effects: Self.effects) == [])
  }

  @Test func aCancellationThatForgetsTheNamespaceIsFoundByTheCheckAndInDebugBuilds() {
    // A parent whose `cancellation` returns the child's own, not the child's in its namespace:
    // cancelling one child's request would cancel another's.
    enum Parent: StoreEffect, Equatable {
      case child(Journal.Effect)
      var cancellation: EffectCancellation {
        switch self {
        case .child(let effect): effect.cancellation
        }
      }
    }
    enum Action: Equatable, Sendable { case child(Journal.Action) }
    let child = ChildFeature(
      "child", state: \Journal.State.self,
      action: CaseKey(embed: Action.child) { if case .child(let a) = $0 { a } else { nil } },
      effect: CaseKey(embed: Parent.child) { if case .child(let e) = $0 { e } else { nil } })

    let problems = child.embeddingProblems(actions: [], effects: [.request("r"), .echo("e")])
    #expect(problems.count == 2)
    #expect(
      problems.first?.contains("the child 'child' returned Journal.Effect.request(\"r\")") == true)
    #expect(problems.first?.contains("return child.cancellation(of: effect)") == true)

    // Debug builds check every effect the child returns, as a runtime warning.
    #if DEBUG
      let warnings = WarningLog()
      var state = Journal.State()
      let effects = RuntimeWarning.$reporter.withValue(warnings.reporter) {
        Scope(child) { Journal() }.reduce(into: &state, action: .child(.emit([.request("r")])))
      }
      #expect(effects == [.child(.request("r"))])
      #expect(warnings.messages.count == 1)
      #expect(warnings.messages.first?.contains("not EffectCancellation") == true)
    #endif
  }

  @Test func aComposedEffectTakesEachChildsCancellationFromItsCase() {
    #expect(
      Desk.Effect.left(.request("r")).cancellation
        == EffectCancellation(.group("request", cancelInFlight: true), namespace: ["left"]))
    #expect(Desk.Effect.right(.cancelRequests).cancellation == .cancels("request").within("right"))
    #expect(
      Desk.Effect.drawer(.echo("e")).cancellation
        == EffectCancellation(.none, namespace: ["drawer"]))
    #expect(
      Desk.Effect.childDismissed(Desk.drawer.dismissal).cancellation == .cancelsAll(in: "drawer"))

    // A labelled payload, and a case that carries no child's effect.
    enum Parent: ComposedEffect, Equatable {
      case child(effect: Journal.Effect)
      case own(String)
      case childDismissed(ChildDismissal)
    }
    #expect(
      Parent.child(effect: .request("r")).cancellation
        == .group("request", cancelInFlight: true).within("child"))
    #expect(Parent.own("x").cancellation == .none)
    #expect(Parent.own("x").childCancellation == nil)
  }

  @Test func aChildNamedOtherwiseThanItsCaseIsFound() {
    enum Action: Equatable, Sendable { case child(Journal.Action) }
    enum Parent: ComposedEffect, Equatable {
      case child(Journal.Effect)
      case childDismissed(ChildDismissal)
    }
    let child = ChildFeature(
      "kid", state: \Journal.State.self,
      action: CaseKey(embed: Action.child) { if case .child(let a) = $0 { a } else { nil } },
      effect: CaseKey(embed: Parent.child) { if case .child(let e) = $0 { e } else { nil } })
    let problems = child.embeddingProblems(actions: [], effects: [.request("r")])
    #expect(problems.count == 1)
    #expect(
      problems.first?.contains("name the child after the case that carries its effects") == true)
  }

  @Test func anExtractThatMissesItsCaseIsFound() {
    enum Action: Equatable, Sendable {
      case child(Journal.Action)
      case other(Journal.Action)
    }
    // The extract closure looks at the wrong case.
    let child = ChildFeature<Journal.State, Action, Never, Journal.State, Journal.Action, Never>(
      "child", state: \Journal.State.self,
      action: CaseKey(embed: Action.child) { if case .other(let a) = $0 { a } else { nil } })
    let problems = child.embeddingProblems(actions: [.append("a")], effects: [])
    #expect(
      problems == [
        "the child 'child': Journal.Action.append(\"a\") does not come back out of Action"
      ])
  }

  @Test func anOptionalChildGoingAwayReturnsItsDismissalWithoutAHandWrittenCase() {
    var state = Desk.State()
    _ = Desk().reduce(into: &state, action: .openDrawer)
    let effects = Desk().reduce(into: &state, action: .closeDrawer)
    #expect(effects == [.childDismissed(ChildDismissal(child: "drawer"))])
    #expect(effects.first?.cancellation == .cancelsAll(in: "drawer"))
    #expect(
      Dump.renderOneLine(effects) == "[Desk.Effect.childDismissed(ChildDismissal(\"drawer\"))]")
  }
}
