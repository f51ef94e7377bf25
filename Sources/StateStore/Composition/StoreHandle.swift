import Observation

/// What a view needs from a store: its state, a way to send actions, and change callbacks —
/// whether it is a feature's own ``Store`` or the app store's ``ScopedStore`` on the feature's
/// slice.
///
/// Write a view (or a presenter, or a test helper) once, against `some StoreHandle<…>`, and
/// give it either handle unchanged:
///
/// ```swift
/// @MainActor func render(_ login: some StoreHandle<LoginState, LoginAction>) -> String {
///   login.state.isLoading ? "Signing in…" : "Sign in"
/// }
///
/// render(Store(initialState: LoginState(), reducer: LoginReducer()))   // a login store
/// render(appStore.scope(AppReducer.login))                             // the app's login slice
/// ```
///
/// Both are `Observable`: a SwiftUI view that reads `state` re-renders when it changes.
@MainActor
public protocol StoreHandle<State, Action>: AnyObject, Observable {
  /// The feature's state.
  associatedtype State: Sendable
  /// The feature's actions.
  associatedtype Action: Sendable

  /// The current state.
  var state: State { get }

  /// Sends `action` to the feature.
  ///
  /// - Parameter action: The action.
  /// - Returns: A task for the effects the action starts.
  @discardableResult func send(_ action: Action) -> StoreTask

  /// Calls `callback` with each new state, until the subscription is released.
  ///
  /// - Parameter callback: Called on the main actor after each change.
  /// - Returns: Keep it for as long as you want the callbacks.
  func observe(_ callback: @escaping @MainActor (State) -> Void) -> StoreSubscription
}

extension Store: StoreHandle {}

extension ScopedStore: StoreHandle {}
