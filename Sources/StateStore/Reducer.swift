/// A pure function from an action and the current state to the next state and the effects to run.
///
/// A reducer decides; it never does. It runs synchronously on the main actor inside
/// ``Store/send(_:)``, mutates the state in place and returns the side effects as plain values.
/// It must not await, read a clock, generate random values or touch I/O: everything the outside
/// world has to do goes into the returned effects, and everything the outside world answers
/// comes back as a new action. That is what makes a feature testable without running it, and
/// what lets an action log replay every state without running a single effect.
///
/// ```swift
/// struct Counter: Reducer {
///   enum Action: Sendable { case increment, reset }
///   func reduce(into state: inout Int, action: Action) -> [Never] {
///     switch action {
///     case .increment: state += 1
///     case .reset: state = 0
///     }
///     return []
///   }
/// }
/// ```
public protocol Reducer<State, Action, Effect> {
  /// The value the feature's screen is rendered from.
  associatedtype State: Sendable
  /// What happened: a user event or the answer of an effect.
  associatedtype Action: Sendable
  /// What to do: a side effect described as data, carried out by an ``EffectHandler``.
  associatedtype Effect: StoreEffect

  /// Applies `action` to `state` and returns the effects to start, in order.
  ///
  /// - Parameters:
  ///   - state: The current state, mutated in place.
  ///   - action: The action to apply.
  /// - Returns: The effects the store starts, in the order given.
  func reduce(into state: inout State, action: Action) -> [Effect]
}
