import Observation

/// A store-like handle on one child feature of a larger store: read the child's state, send
/// the child's actions, observe the child's slice only.
///
/// A host app with one store for the whole app gives each screen a handle on its own feature.
/// The handle publishes a change only when its slice of the state changed, through
/// Observation and through ``observe(_:)``: a SwiftUI view of the home screen does not
/// re-render when the user types in the login form, and a UIKit controller's callback is not
/// called for it.
///
/// ```swift
/// let app = Store(initialState: AppState(), reducer: AppReducer(), handler: handler)
/// let login = app.scope(state: \.login, action: AppAction.login)
/// login.send(.usernameChanged("demo"))      // app receives .login(.usernameChanged("demo"))
/// login.state.username                      // "demo"
/// let subscription = login.observe { state in render(state) }
/// ```
///
/// An optional child is scoped like any other slice: its handle's state is optional.
///
/// ```swift
/// let home = app.scope(state: \.home, action: AppAction.home)   // ScopedStore<HomeState?, …>
/// ```
///
/// A handle keeps its parent store alive, and is released like any object. Comparing the
/// slice after each of the parent's actions is what it costs: one `==` of the child state per
/// action and handle, however many observers the handle has.
@MainActor
public final class ScopedStore<State: Equatable & Sendable, Action: Sendable>: Observable {
  private var current: State
  private let registrar = ObservationRegistrar()
  private let stateKeyPath: KeyPath<ScopedStore, State>
  private let sendToParent: @MainActor (Action) -> StoreTask
  private var observers: [(id: Int, callback: @MainActor (State) -> Void)] = []
  private var nextObserverID = 0
  private var parentSubscription: StoreSubscription?

  /// Creates a handle whose state starts at `initial`, that sends through `send`, and that
  /// `subscribe` connects to the parent's changes.
  @usableFromInline init(
    initial: State,
    send: @escaping @MainActor (Action) -> StoreTask,
    subscribe: (@escaping @MainActor (State) -> Void) -> StoreSubscription
  ) {
    current = initial
    sendToParent = send
    stateKeyPath = \.state
    parentSubscription = subscribe { [weak self] slice in self?.parentChanged(slice) }
  }

  isolated deinit {
    parentSubscription?.cancel()
  }

  /// The child's current state. Reading it inside SwiftUI's body or
  /// `withObservationTracking` registers a dependency on this slice only.
  public var state: State {
    registrar.access(self, keyPath: stateKeyPath)
    return current
  }

  /// Sends `action` to the parent store, embedded in the parent's action type.
  ///
  /// - Parameter action: A child action.
  /// - Returns: The parent store's task for the action's effects.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendToParent(action)
  }

  /// Calls `callback` with the child's new state after every parent action that changed it,
  /// until the returned subscription is cancelled or released.
  ///
  /// Actions that leave this slice as it was do not call it.
  ///
  /// - Parameter callback: Receives the new slice on the main actor.
  /// - Returns: Keep it for as long as you want the callbacks.
  public func observe(_ callback: @escaping @MainActor (State) -> Void) -> StoreSubscription {
    nextObserverID += 1
    let id = nextObserverID
    observers.append((id, callback))
    return StoreSubscription { [weak self] in
      self?.observers.removeAll { $0.id == id }
    }
  }

  /// A handle on a part of this child: a grandchild feature.
  ///
  /// - Parameters:
  ///   - state: Where the grandchild's state lives in this child's state.
  ///   - action: Wraps a grandchild action in this child's action type.
  /// - Returns: The grandchild's handle.
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState> & Sendable,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    ScopedStore<ChildState, ChildAction>(
      initial: current[keyPath: state],
      send: { [self] childAction in self.send(action(childAction)) },
      subscribe: { callback in self.observe { callback($0[keyPath: state]) } }
    )
  }

  private func parentChanged(_ slice: State) {
    guard slice != current else { return }
    registrar.willSet(self, keyPath: stateKeyPath)
    current = slice
    registrar.didSet(self, keyPath: stateKeyPath)
    for observer in observers { observer.callback(slice) }
  }
}

extension Store {
  /// A handle on one child feature of this store, for that child's view: see ``ScopedStore``.
  ///
  /// ```swift
  /// let login = appStore.scope(state: \.login, action: AppAction.login)
  /// ```
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in this store's state.
  ///   - action: Wraps a child action in this store's action type, e.g. `AppAction.login`.
  /// - Returns: The child's handle.
  @inlinable
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable>(
    state: KeyPath<R.State, ChildState> & Sendable,
    action: @escaping @Sendable (ChildAction) -> R.Action
  ) -> ScopedStore<ChildState, ChildAction> {
    ScopedStore<ChildState, ChildAction>(
      initial: currentState[keyPath: state],
      send: { [self] childAction in self.send(action(childAction)) },
      subscribe: { callback in self.observe { callback($0[keyPath: state]) } }
    )
  }

  /// A handle on one child feature of this store, whose actions are embedded with `action`.
  ///
  /// - Parameters:
  ///   - state: Where the child's state lives in this store's state.
  ///   - action: The case of this store's action type that carries the child's actions.
  /// - Returns: The child's handle.
  @inlinable
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable>(
    state: KeyPath<R.State, ChildState> & Sendable,
    action: CaseKey<R.Action, ChildAction>
  ) -> ScopedStore<ChildState, ChildAction> {
    scope(state: state, action: action.embed)
  }
}
