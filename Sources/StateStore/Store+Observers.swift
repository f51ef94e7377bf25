extension Store {
  @usableFromInline struct StateObserver {
    let id: Int
    @usableFromInline let callback: @MainActor (R.State) -> Void
  }

  /// A scoped handle's connection: it looks at its slice in the store's own storage, without a
  /// copy of the whole state.
  @usableFromInline struct SliceObserver {
    @usableFromInline let id: Int
    /// Reads the handle's slice out of the store's state through its key path, compares it
    /// with the handle's, and keeps it when it changed; returns whether it did. No host code
    /// but the slice's `==`, and it never writes the state: the state is lent `inout` so that
    /// the key path reads the slice where it lies. A read-only argument is a value the key
    /// path needs in memory, and it was copied whole for each handle (100 handles on a state
    /// of 100 children: 790 µs a send). While it runs the state is under that `inout` access:
    /// a slice's `==` that read this store's `state` would trap on the exclusivity check.
    @usableFromInline let stage: @MainActor (inout R.State) -> Bool
    /// Publishes the kept slice: Observation and the handle's callbacks (host code).
    @usableFromInline let publish: @MainActor () -> Void

    @usableFromInline init(
      id: Int, stage: @escaping @MainActor (inout R.State) -> Bool,
      publish: @escaping @MainActor () -> Void
    ) {
      self.id = id
      self.stage = stage
      self.publish = publish
    }
  }

  /// An observer of transitions or of steps, in one list so that they are called in the order
  /// they subscribed.
  @usableFromInline struct TransitionObserver {
    @usableFromInline enum Callback {
      case transition(@MainActor (Transition<R.State, R.Action, R.Effect>) -> Void)
      case step(@MainActor (StoreStep<R.State, R.Action, R.Effect>) -> Void)
    }

    @usableFromInline let id: Int
    @usableFromInline let callback: Callback

    var needsStateBefore: Bool {
      if case .transition = callback { true } else { false }
    }
  }

  /// Calls `callback` with the new state after every reduced action, until the returned
  /// subscription is cancelled or released.
  ///
  /// For hosts without Observation (UIKit, a terminal). The callback is not called with the
  /// current state: read ``state`` to render the first frame.
  ///
  /// ```swift
  /// let subscription = store.observe { state in render(state) }
  /// ```
  ///
  /// - Parameter callback: Receives each new state on the main actor.
  /// - Returns: Keep it for as long as you want the callbacks.
  public func observe(_ callback: @escaping @MainActor (R.State) -> Void) -> StoreSubscription {
    let id = makeObserverID()
    addStateObserver(StateObserver(id: id, callback: callback))
    return StoreSubscription { [weak self] in
      self?.removeStateObserver(id: id)
    }
  }

  /// Calls `callback` with every ``Transition``, in order, until the returned subscription is
  /// cancelled or released.
  ///
  /// The hook for action-log recorders and debug printers.
  ///
  /// - Parameter callback: Receives each transition on the main actor, before its effects
  ///   start.
  /// - Returns: Keep it for as long as you want the callbacks.
  ///
  /// While one is subscribed, the store keeps the state before each action: a reducer that
  /// writes into a collection then copies it. Observe ``observeSteps(_:)`` when the state after
  /// is enough.
  public func observeTransitions(
    _ callback: @escaping @MainActor (Transition<R.State, R.Action, R.Effect>) -> Void
  ) -> StoreSubscription {
    addTransitionObserver(.transition(callback))
  }

  /// Calls `callback` with every ``StoreStep`` (the action, its effects and the state after),
  /// in order, until the returned subscription is cancelled or released.
  ///
  /// The hook for action-log recorders: unlike ``observeTransitions(_:)``, it does not make
  /// the store keep the state before each action, so a reducer that changes one item of a
  /// long list writes it in place.
  ///
  /// - Parameter callback: Receives each step on the main actor, before its effects start.
  /// - Returns: Keep it for as long as you want the callbacks.
  public func observeSteps(
    _ callback: @escaping @MainActor (StoreStep<R.State, R.Action, R.Effect>) -> Void
  ) -> StoreSubscription {
    addTransitionObserver(.step(callback))
  }

  private func addTransitionObserver(_ callback: TransitionObserver.Callback) -> StoreSubscription {
    let id = makeObserverID()
    transitionObservers.append(TransitionObserver(id: id, callback: callback))
    countTransitionObservers()
    return StoreSubscription { [weak self] in
      guard let self else { return }
      transitionObservers.removeSorted(id: id) { $0.id }
      countTransitionObservers()
    }
  }

  /// An async sequence of states: the current state first, then the state after every
  /// reduced action. It finishes when the store goes away.
  ///
  /// ```swift
  /// for await state in store.states() { render(state) }
  /// ```
  ///
  /// - Parameter bufferingPolicy: What to keep when the consumer is slower than the store.
  /// - Returns: A new stream; each call gets its own.
  public func states(
    bufferingPolicy: AsyncStream<R.State>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<R.State> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: R.State.self,
      bufferingPolicy: bufferingPolicy
    )
    continuation.yield(currentState)
    let id = makeObserverID()
    addStateObserver(StateObserver(id: id) { continuation.yield($0) })
    streamFinishers[id] = { continuation.finish() }
    continuation.onTermination = { [weak self] _ in
      Task { @MainActor in
        self?.removeStateObserver(id: id)
        self?.streamFinishers[id] = nil
      }
    }
    return stream
  }

  /// Connects a ``ScopedStore``: after every reduced action `stage` reads its slice from the
  /// store's state, lent in place (only the slice is copied, not the whole state), and
  /// compares it, and when it returns `true`, `publish` runs once every handle has compared.
  @inlinable
  func observeSlice(
    stage: @escaping @MainActor (inout R.State) -> Bool,
    publish: @escaping @MainActor () -> Void
  ) -> StoreSubscription {
    let id = makeObserverID()
    sliceObservers.append(SliceObserver(id: id, stage: stage, publish: publish))
    bookkeeping.hasSliceObservers = true
    return StoreSubscription { [weak self] in
      guard let self else { return }
      sliceObservers.removeSorted(id: id) { $0.id }
      bookkeeping.hasSliceObservers = !sliceObservers.isEmpty
    }
  }

  func addStateObserver(_ observer: StateObserver) {
    stateObservers.append(observer)
    bookkeeping.hasStateObservers = true
  }

  func removeStateObserver(id: Int) {
    stateObservers.removeSorted(id: id) { $0.id }
    bookkeeping.hasStateObservers = !stateObservers.isEmpty
  }

  private func countTransitionObservers() {
    bookkeeping.hasTransitionObservers = !transitionObservers.isEmpty
    bookkeeping.keepsStateBefore = transitionObservers.contains { $0.needsStateBefore }
  }

  @usableFromInline func makeObserverID() -> Int {
    nextObserverID += 1
    return nextObserverID
  }
}

/// Keeps an observation of a ``Store`` alive; cancel or release it to stop the callbacks.
@MainActor
public final class StoreSubscription {
  private var onCancel: (@MainActor () -> Void)?

  @usableFromInline init(onCancel: @escaping @MainActor () -> Void) {
    self.onCancel = onCancel
  }

  isolated deinit {
    cancel()
  }

  /// Stops the callbacks. Calling it again does nothing.
  public func cancel() {
    onCancel?()
    onCancel = nil
  }
}
