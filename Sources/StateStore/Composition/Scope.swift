/// Runs a child feature's reducer on a part of the parent's state that is always there.
///
/// The parent embeds the child's actions and effects in cases of its own enums; `Scope`
/// extracts the child's actions, runs the child reducer on the child's state in place, and
/// embeds the effects the child returns. Actions of other cases pass through untouched. The
/// effects stay data all the way up: a parent test store asserts `AppEffect.login(…)` values,
/// and an action log of the app records them.
///
/// ```swift
/// struct AppReducer: Reducer {
///   let login = Scope(
///     state: \AppState.login, action: AppAction.Case.login, effect: AppEffect.Case.login
///   ) { LoginReducer() }
///
///   func reduce(into state: inout AppState, action: AppAction) -> [AppEffect] {
///     login.reduce(into: &state, action: action)
///   }
/// }
/// ```
///
/// ```text
/// AppAction.login(.passwordChanged(p)) ─▶ Scope: extract ─▶ LoginReducer on state.login
///                                                          └─▶ [LoginEffect] ─▶ [AppEffect.login(…)]
/// ```
///
/// Combine a scope with the parent's own logic and other children with
/// ``Reducer/combined(with:)``; for a child that is not always there, use
/// ``Reducer/ifLet(_:action:effect:dismissal:child:)``.
public struct Scope<State: Sendable, Action: Sendable, Effect: StoreEffect, Child: Reducer>:
  Reducer
{
  @usableFromInline let toChildState: StatePath<State, Child.State>
  @usableFromInline let toChildAction: CaseKey<Action, Child.Action>
  @usableFromInline let embedEffect: @Sendable (Child.Effect) -> Effect
  @usableFromInline let child: Child

  /// Creates a scope for a child whose effects are embedded with `effect`.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: The parent's case that carries the child's actions.
  ///   - effect: The parent's case that carries the child's effects.
  ///   - child: The child's reducer.
  public init(
    state: WritableKeyPath<State, Child.State> & Sendable,
    action: CaseKey<Action, Child.Action>,
    effect: CaseKey<Effect, Child.Effect>,
    child: () -> Child
  ) {
    self.toChildState = StatePath(state)
    self.toChildAction = action
    self.embedEffect = effect.embed
    self.child = child()
  }

  /// Creates a scope for a child that has no effects.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: The parent's case that carries the child's actions.
  ///   - child: The child's reducer.
  public init(
    state: WritableKeyPath<State, Child.State> & Sendable,
    action: CaseKey<Action, Child.Action>,
    child: () -> Child
  ) where Child.Effect == Never {
    self.toChildState = StatePath(state)
    self.toChildAction = action
    self.embedEffect = absurd
    self.child = child()
  }

  /// Runs the child when `action` is one of its actions; returns no effects otherwise.
  ///
  /// - Parameters:
  ///   - state: The parent's state; only the child's part changes.
  ///   - action: Any parent action.
  /// - Returns: The child's effects, embedded in the parent's effect type.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> [Effect] {
    guard let childAction = toChildAction.extract(action) else { return [] }
    let effects = toChildState.modify(&state) { child.reduce(into: &$0, action: childAction) }
    if effects.isEmpty { return [] }
    return effects.map(embedEffect)
  }
}

/// The effect embedding of a child without effects: it is never called.
@Sendable func absurd<Effect>(_ never: Never) -> Effect {}

extension Scope: Sendable where Child: Sendable {}
