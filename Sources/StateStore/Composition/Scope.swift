/// Runs a child feature's reducer on a part of the parent's state that is always there.
///
/// The parent declares the child once, as a ``ChildFeature``; `Scope` extracts the child's
/// actions, runs the child reducer on the child's state in place, and embeds the effects the
/// child returns. Actions of other cases pass through untouched. The effects stay data all the
/// way up: a parent test store asserts `AppEffect.login(…)` values, and an action log of the app
/// records them.
///
/// ```swift
/// struct AppReducer: Reducer {
///   let login = Scope(AppReducer.login) { LoginReducer() }
///
///   func reduce(into state: inout AppState, action: AppAction) -> [AppEffect] {
///     login.reduce(into: &state, action: action)
///   }
/// }
/// ```
///
/// <!-- not output: a diagram -->
/// ```text
/// AppAction.login(.edit(.set(\.password, to: p))) ─▶ Scope: extract ─▶ LoginReducer on state.login
///                                                          └─▶ [LoginEffect] ─▶ [AppEffect.login(…)]
/// ```
///
/// Combine a scope with the parent's own logic and other children with
/// ``Reducer/combined(with:)``; for a child that is not always there, use
/// `ifLet(_:child:)`.
public struct Scope<State: Sendable, Action: Sendable, Effect: StoreEffect, Child: Reducer>:
  ReducerWithInputs
{
  @usableFromInline let feature:
    ChildFeature<State, Action, Effect, Child.State, Child.Action, Child.Effect>
  @usableFromInline let child: Child
  /// The feature's key path and action extraction, held here rather than read from the
  /// feature (a class) on each action: read from a struct the reducer is called on, they need no
  /// retain and release around each use.
  @usableFromInline let childPath: WritableKeyPath<State, Child.State> & Sendable
  @usableFromInline let extractAction: @Sendable (Action) -> Child.Action?

  /// Creates a scope for the child that `feature` declares.
  ///
  /// - Parameters:
  ///   - feature: Where the child sits in the parent.
  ///   - child: The child's reducer.
  public init(
    _ feature: ChildFeature<State, Action, Effect, Child.State, Child.Action, Child.Effect>,
    child: () -> Child
  ) {
    self.feature = feature
    self.child = child()
    self.childPath = feature.state
    self.extractAction = feature.action.extract
  }

  /// Runs the child when `action` is one of its actions; returns no effects otherwise.
  ///
  /// - Parameters:
  ///   - state: The parent's state; only the child's part changes.
  ///   - action: Any parent action.
  ///   - inputs: The store's inputs, passed on to the child.
  /// - Returns: The child's effects, embedded in the parent's effect type.
  @inlinable
  public func reduce(
    into state: inout State, action: Action, inputs: inout ReducerInputs
  ) -> [Effect] {
    guard let childAction = extractAction(action) else { return [] }
    let effects = child.reduce(
      into: &state[keyPath: childPath], action: childAction, inputs: &inputs)
    return feature.embed(effects)
  }
}

/// The effect embedding of a child without effects: it is never called.
@Sendable func absurd<Effect>(_ never: Never) -> Effect {}

extension Scope: Sendable where Child: Sendable {}
