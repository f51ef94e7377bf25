/// Carries out a feature's effects and sends their results back to the store.
///
/// A handler is the thin shell around the pure reducer: it owns the dependencies (an API
/// client, a router, a clock) and turns each effect value into work. It runs off the main actor
/// unless a dependency is main-actor isolated; whatever it learns comes back as an action sent
/// through `send`.
///
/// ```swift
/// struct SearchHandler: EffectHandler {
///   let api: SearchAPI
///   func handle(_ effect: SearchEffect, send: Send<SearchAction>) async {
///     switch effect {
///     case .search(let query):
///       let results = await api.search(query)
///       await send(.resultsLoaded(results))
///     case .cancelSearch:
///       break
///     }
///   }
/// }
/// ```
public protocol EffectHandler<Effect, Action>: Sendable {
  /// The effects this handler carries out.
  associatedtype Effect: Sendable
  /// The actions this handler sends back.
  associatedtype Action: Sendable

  /// Carries out `effect`, sending any resulting actions through `send`.
  ///
  /// The store runs each call in its own task and cancels that task when the effect's
  /// cancellation group is cancelled, when ``Store/cancelAll()`` is called, or when the store
  /// goes away. Actions sent from a cancelled task are dropped.
  ///
  /// - Parameters:
  ///   - effect: The effect the reducer returned.
  ///   - send: Delivers actions back to the store on the main actor.
  func handle(_ effect: Effect, send: Send<Action>) async
}

/// Delivers actions from an effect back to its store, on the main actor.
///
/// `Send` is a value: it holds the store weakly, so an effect that outlives its store sends
/// into nothing. An action sent from a task that has been cancelled is dropped, so cancelled
/// work never changes the state.
///
/// ```swift
/// await send(.loginResponse(attempt: 3, .success(session)))
/// ```
public struct Send<Action: Sendable>: Sendable {
  @usableFromInline let deliver: @MainActor @Sendable (Action, ActionOrigin) -> Void

  /// Creates a `Send` that hands each action to `deliver` on the main actor.
  ///
  /// Stores make their own; create one yourself to drive an ``EffectHandler`` directly in a
  /// test and collect what it sends.
  ///
  /// - Parameter deliver: Called on the main actor with each action that is not dropped.
  public init(_ deliver: @escaping @MainActor @Sendable (Action) -> Void) {
    self.deliver = { action, _ in deliver(action) }
  }

  /// Creates a `Send` that hands each action to `deliver` on the main actor, with who it comes
  /// from: ``ActionOrigin/effect``, or ``ActionOrigin/user`` for a person's answer that an
  /// effect carries (see ``callAsFunction(_:origin:)``).
  ///
  /// - Parameter deliver: Called on the main actor with each action that is not dropped.
  public init(origins deliver: @escaping @MainActor @Sendable (Action, ActionOrigin) -> Void) {
    self.deliver = deliver
  }

  /// Sends `action` to the store, unless the current task has been cancelled.
  ///
  /// - Parameter action: The action to deliver.
  public func callAsFunction(_ action: Action) async {
    await callAsFunction(action, origin: .effect)
  }

  /// Sends `action` to the store with the given origin, unless the current task has been
  /// cancelled.
  ///
  /// An effect that waits for a person — an alert until someone taps a button — sends the
  /// answer as the person's: `await send(.alertButtonTapped(id), origin: .user)`. Transition
  /// observers, action logs and the timeline then show it as a user action; it is still
  /// dropped like any action of a cancelled effect.
  ///
  /// - Parameters:
  ///   - action: The action to deliver.
  ///   - origin: Who the action comes from.
  public func callAsFunction(_ action: Action, origin: ActionOrigin) async {
    guard !Task.isCancelled else { return }
    await deliverOnMainActor(action, origin)
  }

  @MainActor private func deliverOnMainActor(_ action: Action, _ origin: ActionOrigin) {
    // Cancellation may have happened while hopping to the main actor.
    guard !Task.isCancelled else { return }
    deliver(action, origin)
  }
}
