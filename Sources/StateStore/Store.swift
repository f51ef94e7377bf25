import Observation

/// Runs a feature: holds its state, reduces actions, publishes changes and runs effects.
///
/// A store is the one place where a feature's state changes. Hosts send actions, read
/// ``state`` and observe it — through Observation (SwiftUI re-renders on its own), through
/// ``observe(_:)`` callbacks (UIKit, a terminal) or through the ``states(bufferingPolicy:)``
/// async sequence.
///
/// ```swift
/// let store = Store(initialState: LoginState(), reducer: LoginReducer(), handler: handler)
/// store.send(.edit(.set(\.username, to: "demo")))
/// store.send(.edit(.set(\.password, to: "Secr3t")))
/// store.send(.loginButtonTapped)
/// await store.state(where: { !$0.isLoading })   // the answer is in
/// ```
///
/// ## Ordering guarantees
///
/// - ``send(_:)`` reduces the action before it returns, unless the store is already reducing
///   or notifying. Then the action is queued and reduced right after the current one, so the
///   reducer is never entered re-entrantly and actions are reduced in the order they were sent.
/// - For each action, in this order: the reducer runs; Observation is told; ``observe(_:)``
///   callbacks and the ``states(bufferingPolicy:)`` streams get the new state; transition
///   and step observers get the ``Transition`` or ``StoreStep``, in the order they
///   subscribed; then each returned effect starts, in the order the reducer returned them,
///   each in its own task. An observer that subscribes while the store notifies for an action
///   may be called first for the next action.
/// - Actions an effect sends arrive on the main actor and are reduced in arrival order.
///   Actions sent from a cancelled effect are dropped.
/// - ``cancelAll()`` and the end of the store cancel every effect in flight; nothing an
///   effect sends after that reaches the reducer.
@MainActor
public final class Store<R: Reducer>: Observable {
  /// The reducer this store runs.
  public let reducer: R

  /// Where the values its reducer reads come from — the date, new ids, random numbers (see
  /// ``ReducerInputs``): ``InputSource/live`` by default, ``InputSource/controlled(_:)`` in a
  /// test store. Each step hands the reducer inputs from here, and a controlled source counts
  /// on across steps (its next id, its generator).
  ///
  /// ```swift
  /// let store = Store(initialState: TodosState(), reducer: TodosReducer())
  /// store.inputs = .controlled(ControlledInputs(now: launchDate))
  /// ```
  public var inputs: InputSource = .live

  @usableFromInline var currentState: R.State
  @usableFromInline let registrar = ObservationRegistrar()
  // Building `\Store<R>.state` on a generic class is slow; build it once.
  @usableFromInline let stateKeyPath: KeyPath<Store<R>, R.State>
  let runEffect: (@Sendable (R.Effect, Send<R.Action>) async -> Void)?

  // Every access to a class's stored property is checked for exclusivity at run time (the
  // checks were turned off once, unsafely, to save their cost); the bookkeeping of a step is
  // one value instead, read and written with one access.
  @usableFromInline var bookkeeping = Bookkeeping()
  @usableFromInline var queue: [QueuedAction] = []

  @usableFromInline var stateObservers: [StateObserver] = []
  @usableFromInline var sliceObservers: [SliceObserver] = []
  @usableFromInline var stagedSlices: [Int] = []
  @usableFromInline var transitionObservers: [TransitionObserver] = []
  var nextObserverID = 0
  var streamFinishers: [Int: @Sendable () -> Void] = [:]

  var inFlight: [Int: InFlightEffect] = [:]
  var groups: [GroupKey: Set<Int>] = [:]
  var nextEffectID = 0

  /// The current state. Reading it inside SwiftUI's body or `withObservationTracking`
  /// registers an Observation dependency.
  public var state: R.State {
    registrar.access(self, keyPath: stateKeyPath)
    // Observation hears of changes from now on: only a read through here can have registered
    // a dependency (see `Bookkeeping.tellsObservation`).
    if !bookkeeping.tellsObservation { bookkeeping.tellsObservation = true }
    return currentState
  }

  /// How many effects are running right now.
  public var runningEffectCount: Int { inFlight.count }

  /// The number of the last reduced action (0 before the first).
  public var lastSequenceNumber: Int { bookkeeping.sequenceNumber }

  /// Creates a store whose effects run in `handler`.
  ///
  /// - Parameters:
  ///   - initialState: The state before the first action.
  ///   - reducer: The feature's reducer.
  ///   - handler: Carries out the effects the reducer returns.
  public init<Handler: EffectHandler>(
    initialState: R.State,
    reducer: R,
    handler: Handler
  ) where Handler.Effect == R.Effect, Handler.Action == R.Action {
    self.reducer = reducer
    self.currentState = initialState
    self.runEffect = { effect, send in await handler.handle(effect, send: send) }
    self.stateKeyPath = ObservedKeyPaths.path(in: Store.self) { \.state }
  }

  /// Creates a store that reduces actions but runs no effects.
  ///
  /// Effects are still returned by the reducer and reported to transition observers; nothing
  /// carries them out. Useful for previews, replays and reducer-only tests.
  ///
  /// - Parameters:
  ///   - initialState: The state before the first action.
  ///   - reducer: The feature's reducer.
  public init(initialState: R.State, reducer: R) {
    self.reducer = reducer
    self.currentState = initialState
    self.runEffect = nil
    self.stateKeyPath = ObservedKeyPaths.path(in: Store.self) { \.state }
  }

  isolated deinit {
    for effect in inFlight.values { effect.task.cancel() }
    for finish in streamFinishers.values { finish() }
  }

  /// Reduces `action`, publishes the new state and starts the effects it returns.
  ///
  /// If the store is already reducing (an observer or a handler sent this action), the action
  /// is queued and reduced right after the current one.
  ///
  /// - Parameter action: What happened.
  /// - Returns: A task that finishes when every effect started by this action, and by the
  ///   actions those effects sent, has finished; cancelling it cancels them.
  @inlinable @discardableResult
  public func send(_ action: R.Action) -> StoreTask {
    StoreTask(node: enqueue(action, origin: .user, node: nil))
  }

  /// Cancels every effect in flight. Actions they send afterwards are dropped.
  public func cancelAll() {
    for effect in inFlight.values { effect.task.cancel() }
    groups.removeAll()
  }

  /// Cancels the in-flight effects of the group `id` of the store's own feature.
  ///
  /// - Parameter id: The group to cancel.
  public func cancel(_ id: CancellationID) {
    cancel(GroupKey(namespace: [], id: id))
  }

  // MARK: - Reducing

  @usableFromInline struct QueuedAction {
    @usableFromInline let action: R.Action
    @usableFromInline let origin: ActionOrigin
    @usableFromInline let node: EffectNode

    @usableFromInline init(action: R.Action, origin: ActionOrigin, node: EffectNode) {
      self.action = action
      self.origin = origin
      self.node = node
    }
  }

  @inlinable
  func enqueue(_ action: R.Action, origin: ActionOrigin, node: EffectNode?) -> EffectNode? {
    guard bookkeeping.enter() else {
      let node = node ?? EffectNode()
      queue.append(QueuedAction(action: action, origin: origin, node: node))
      return node
    }
    let result = step(action, origin: origin, node: node)
    if !queue.isEmpty { drainQueue() }
    bookkeeping.isReducing = false
    return result
  }

  @usableFromInline func drainQueue() {
    var index = 0
    while index < queue.count {
      let next = queue[index]
      index += 1
      _ = step(next.action, origin: next.origin, node: next.node)
    }
    queue.removeAll(keepingCapacity: true)
  }

  @inlinable
  func step(_ action: R.Action, origin: ActionOrigin, node: EffectNode?) -> EffectNode? {
    let step = bookkeeping.nextStep()
    // Kept only for an observer that asks for it: while it is kept, the reducer's write into a
    // collection copies the collection.
    let before: R.State? = step.keepsStateBefore ? currentState : nil
    if step.tellsObservation { registrar.willSet(self, keyPath: stateKeyPath) }
    var stepInputs = ReducerInputs(inputs)
    let effects = reducer.reduce(into: &currentState, action: action, inputs: &stepInputs)
    if let source = stepInputs.sourceAfterStep { inputs = source }
    if step.tellsObservation { registrar.didSet(self, keyPath: stateKeyPath) }
    if step.hasStateObservers { notifyStateObservers() }
    if step.hasSliceObservers { notifySliceObservers() }
    if step.hasTransitionObservers {
      notifyTransitionObservers(
        step.sequenceNumber, action, origin, effects, stepInputs.read, before)
    }
    if effects.isEmpty { return node }
    let node = node ?? EffectNode()
    for effect in effects { start(effect, in: node) }
    return node
  }

  @inlinable func notifyStateObservers() {
    let state = currentState
    for observer in stateObservers { observer.callback(state) }
  }

  @inlinable func notifySliceObservers() {
    let observers = sliceObservers
    // Handles compare their slices, read through their key paths; they publish, and host
    // callbacks run, after every handle has compared.
    for index in observers.indices where observers[index].stage(&currentState) {
      stagedSlices.append(index)
    }
    guard !stagedSlices.isEmpty else { return }
    for index in stagedSlices { observers[index].publish() }
    stagedSlices.removeAll(keepingCapacity: true)
  }

  @inlinable func notifyTransitionObservers(
    _ sequenceNumber: Int,
    _ action: R.Action,
    _ origin: ActionOrigin,
    _ effects: [R.Effect],
    _ inputs: StepInputs,
    _ before: R.State?
  ) {
    let observers = transitionObservers
    let after = currentState
    let step = StoreStep(
      sequenceNumber: sequenceNumber, origin: origin, action: action, effects: effects,
      inputs: inputs, stateAfter: after)
    for observer in observers {
      switch observer.callback {
      case .step(let callback):
        callback(step)
      case .transition(let callback):
        // An observer that subscribed during this action gets the next one whole.
        guard let before else { continue }
        callback(Transition(step: step, stateBefore: before))
      }
    }
  }

  /// What a step needs to know of the store, in one value (see `bookkeeping`).
  @usableFromInline
  struct Bookkeeping {
    @usableFromInline var isReducing = false
    @usableFromInline var sequenceNumber = 0
    /// Whether a transition observer needs the state before each action; step observers don't.
    @usableFromInline var keepsStateBefore = false
    @usableFromInline var hasStateObservers = false
    @usableFromInline var hasSliceObservers = false
    @usableFromInline var hasTransitionObservers = false
    /// Whether each step tells Observation (`willSet`/`didSet`): once ``Store/state`` was read.
    /// Observation registers a dependency (SwiftUI's body, `withObservationTracking`) only
    /// through that read, so until then nothing can be listening, and a step skips the
    /// registrar's two calls (a lock and a lookup each: 50–60 ns of a 300 ns keystroke's send).
    @usableFromInline var tellsObservation = false

    @usableFromInline init() {}

    /// Starts reducing; `false` when the store already is (the action is queued).
    @inlinable
    mutating func enter() -> Bool {
      if isReducing { return false }
      isReducing = true
      return true
    }

    /// Numbers the next action, and returns what its step needs to know.
    @inlinable
    mutating func nextStep() -> Bookkeeping {
      sequenceNumber += 1
      return self
    }
  }
}
