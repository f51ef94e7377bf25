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
/// login.send(.edit(.set(\.username, to: "demo")))      // app receives .login(.edit(.set(\.username, to: "demo")))
/// login.state.username                      // "demo"
/// let subscription = login.observe { state in render(state) }
/// ```
///
/// A handle takes each new slice once the store has reduced the action and called its own
/// observers: inside a callback of the parent's `observe(_:)`, read the slice from the state the
/// callback receives, not from the handle (which still shows the slice before the step).
///
/// An optional child is scoped like any other slice: its handle's state is optional.
///
/// ```swift
/// let home = app.scope(state: \.home, action: AppAction.home)   // ScopedStore<HomeState?, …>
/// ```
///
/// A handle keeps its parent store alive, and is released like any object. Comparing the
/// slice after each of the parent's actions is what it costs, however many observers the handle
/// has: one `==` of the child state. (A slice that `==` says changed, such as one holding a
/// NaN, is published after every action.)
///
/// Whether a slice changed is the child state's `==`, and only that: a handle is how a view
/// re-renders, and a view shows what `==` compares. A type whose `==` ignores a field (an
/// `id`-only `==`) is not republished when only that field changes: observers are not called
/// and Observation is not told, so a view keeps showing the old value until something `==`
/// sees changes (reading `state` again may already give the new one). Give a slice a `==` that
/// compares what its views show. (The store's own state and the action log never depend on
/// it: the log encodes every state whole.)
@MainActor
public final class ScopedStore<State: Equatable & Sendable, Action: Sendable>: Observable {
  /// The slice the handle shows, in an immutable box: comparing a new slice with it needs no
  /// copy of it (a class's `let` cannot change during the comparison; a `var` would be copied
  /// first, every reference in it retained and released, on each of the parent's actions).
  @usableFromInline var current: Snapshot
  @usableFromInline var staged: Snapshot?
  @usableFromInline let registrar = ObservationRegistrar()
  @usableFromInline let stateKeyPath: KeyPath<ScopedStore, State>
  @usableFromInline let sendToParent: @MainActor (Action) -> StoreTask
  @usableFromInline let isSame: (State, State) -> Bool
  @usableFromInline
  var observers: [(id: Int, callback: @MainActor (State) -> Void)] = []
  private var nextObserverID = 0
  /// Released with the handle; the subscription cancels itself then.
  private var parentSubscription: StoreSubscription?

  /// Creates a handle whose state starts at `initial`, that sends through `send`, and that
  /// `subscribe` connects to the parent's changes: it hands each new slice to
  /// ``receive(_:)``.
  @usableFromInline init(
    initial: Snapshot,
    isSame: @escaping (State, State) -> Bool,
    send: @escaping @MainActor (Action) -> StoreTask,
    subscribe: (ScopedStore) -> StoreSubscription
  ) {
    current = initial
    self.isSame = isSame
    sendToParent = send
    stateKeyPath = ObservedKeyPaths.path(in: ScopedStore.self) { \.state }
    parentSubscription = subscribe(self)
  }

  /// The child's current state. Reading it inside SwiftUI's body or
  /// `withObservationTracking` registers a dependency on this slice only.
  public var state: State {
    registrar.access(self, keyPath: stateKeyPath)
    return current.value
  }

  /// Sends `action` to the parent store, embedded in the parent's action type.
  ///
  /// - Parameter action: A child action.
  /// - Returns: The parent store's task for the action's effects.
  @inlinable @discardableResult
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
      self?.observers.removeSorted(id: id) { $0.id }
    }
  }

  /// A handle on a part of this child: a grandchild feature.
  ///
  /// - Parameters:
  ///   - state: Where the grandchild's state lives in this child's state.
  ///   - action: Wraps a grandchild action in this child's action type.
  /// - Returns: The grandchild's handle.
  @inlinable
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable>(
    state: KeyPath<State, ChildState> & Sendable,
    action: @escaping @Sendable (ChildAction) -> Action
  ) -> ScopedStore<ChildState, ChildAction> {
    return ScopedStore<ChildState, ChildAction>(
      initial: ScopedStore<ChildState, ChildAction>.Snapshot(current.value[keyPath: state]),
      isSame: { $0 == $1 },
      send: { [self] childAction in self.send(action(childAction)) },
      subscribe: { handle in
        self.observe { [weak handle] slice in
          handle?.receive(slice[keyPath: state])
        }
      }
    )
  }

  /// A handle on a grandchild feature that `feature` declares inside this child.
  ///
  /// - Parameter feature: Where the grandchild sits in this child's feature.
  /// - Returns: The grandchild's handle.
  @inlinable
  public func scope<
    ParentEffect, ChildState: Equatable & Sendable, ChildAction: Sendable, ChildEffect
  >(
    _ feature: ChildFeature<State, Action, ParentEffect, ChildState, ChildAction, ChildEffect>
  ) -> ScopedStore<ChildState, ChildAction> {
    scope(state: feature.state, action: feature.action.embed)
  }

  /// Takes a parent handle's new slice: publishes it when it differs from the current one.
  @inlinable
  func receive(_ slice: State) {
    if stage(slice) { publish() }
  }

  /// Keeps the store's new slice for ``publish()`` when `==` says it differs from the current
  /// one.
  ///
  /// Only `==` decides: no byte of a host's value is read to skip it (a shortcut that compared
  /// the stored bytes was taken out as unsafe).
  ///
  /// - Parameter value: The new slice.
  /// - Returns: Whether it differs.
  @inlinable
  func stage(_ value: State) -> Bool {
    if isSame(value, current.value) { return false }
    staged = Snapshot(value)
    return true
  }

  /// Makes the staged slice current: tells Observation and calls the observers.
  @inlinable
  func publish() {
    guard let next = staged.take() else { return }
    registrar.willSet(self, keyPath: stateKeyPath)
    current = next
    registrar.didSet(self, keyPath: stateKeyPath)
    if !observers.isEmpty {
      for observer in observers { observer.callback(next.value) }
    }
  }

  /// One slice, kept as it was when the handle took it.
  @usableFromInline
  final class Snapshot {
    @usableFromInline let value: State

    @inlinable
    init(_ value: State) {
      self.value = value
    }
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
    makeScope(state: state, isSame: { $0 == $1 }, action: action)
  }

  /// A handle on the child feature that `feature` declares, for that child's view.
  ///
  /// ```swift
  /// let login = appStore.scope(AppReducer.login)   // ScopedStore<LoginState, LoginAction>
  /// ```
  ///
  /// - Parameter feature: Where the child sits in this store's feature.
  /// - Returns: The child's handle.
  @inlinable
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable, ChildEffect>(
    _ feature: ChildFeature<R.State, R.Action, R.Effect, ChildState, ChildAction, ChildEffect>
  ) -> ScopedStore<ChildState, ChildAction> {
    makeScope(state: feature.state, isSame: { $0 == $1 }, action: feature.action.embed)
  }

  /// A handle on the optional child feature that `feature` declares: its state is `nil` while
  /// the child is not there.
  ///
  /// ```swift
  /// let home = appStore.scope(AppReducer.home)   // ScopedStore<HomeState?, HomeAction>
  /// ```
  ///
  /// - Parameter feature: Where the optional child sits in this store's feature.
  /// - Returns: The child's handle.
  @inlinable
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable, ChildEffect>(
    _ feature: ChildFeature<R.State, R.Action, R.Effect, ChildState?, ChildAction, ChildEffect>
  ) -> ScopedStore<ChildState?, ChildAction> {
    makeScope(state: feature.state, isSame: isSameOptional, action: feature.action.embed)
  }

  /// A handle on an optional child feature of this store, whose actions are wrapped with
  /// `action`.
  ///
  /// - Parameters:
  ///   - state: Where the optional child's state lives in this store's state.
  ///   - action: Wraps a child action in this store's action type.
  /// - Returns: The child's handle.
  @inlinable
  public func scope<ChildState: Equatable & Sendable, ChildAction: Sendable>(
    state: KeyPath<R.State, ChildState?> & Sendable,
    action: @escaping @Sendable (ChildAction) -> R.Action
  ) -> ScopedStore<ChildState?, ChildAction> {
    makeScope(state: state, isSame: isSameOptional, action: action)
  }

  @inlinable
  func makeScope<ChildState: Equatable & Sendable, ChildAction: Sendable>(
    state path: KeyPath<R.State, ChildState> & Sendable,
    isSame: @escaping (ChildState, ChildState) -> Bool,
    action: @escaping @Sendable (ChildAction) -> R.Action
  ) -> ScopedStore<ChildState, ChildAction> {
    let initial = ScopedStore<ChildState, ChildAction>.Snapshot(currentState[keyPath: path])
    // The store lends its state in place, so that reading the slice copies the slice and not
    // the whole state.
    return ScopedStore<ChildState, ChildAction>(
      initial: initial,
      isSame: isSame,
      send: { [self] childAction in self.send(action(childAction)) },
      subscribe: { handle in
        self.observeSlice(
          stage: { [weak handle] (state: inout R.State) in
            handle?.stage(state[keyPath: path]) ?? false
          },
          publish: { [weak handle] in handle?.publish() })
      }
    )
  }
}

/// `==` of two optionals, written out: with Swift 6.3, `Optional`'s own `==` on a non-trivial
/// payload goes through value witnesses (about 60 ns against 4 ns, measured on this machine).
@inlinable
func isSameOptional<Wrapped: Equatable>(_ first: Wrapped?, _ second: Wrapped?) -> Bool {
  switch first {
  case .none:
    if case .none = second { true } else { false }
  case .some(let value):
    if case .some(let other) = second { value == other } else { false }
  }
}
