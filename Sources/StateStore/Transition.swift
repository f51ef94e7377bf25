/// Where an action came from.
public enum ActionOrigin: String, Hashable, Sendable, Codable {
  /// Sent by the host through ``Store/send(_:)``: a user event; or a person's answer that an
  /// effect carried (an alert's button, sent with ``Send/callAsFunction(_:origin:)``).
  case user
  /// Sent by an effect handler through ``Send``.
  case effect
}

/// One step of a store: an action, what it changed and the effects it started.
///
/// Transition observers (``Store/observeTransitions(_:)``) receive one of these for every
/// reduced action, in order. It is everything an action-log recorder or a debug printer needs.
public struct Transition<State, Action, Effect> {
  /// The step's number within its store, starting at 1 and increasing by one per action.
  public var sequenceNumber: Int
  /// Whether a user or an effect sent the action.
  public var origin: ActionOrigin
  /// The action the reducer applied.
  public var action: Action
  /// The effects the reducer returned, in order.
  public var effects: [Effect]
  /// The state before the action.
  public var stateBefore: State
  /// The state after the action.
  public var stateAfter: State

  /// Creates a transition.
  ///
  /// - Parameters:
  ///   - sequenceNumber: The step's number, from 1.
  ///   - origin: Who sent the action.
  ///   - action: The action.
  ///   - effects: The effects the reducer returned.
  ///   - stateBefore: The state before the action.
  ///   - stateAfter: The state after the action.
  public init(
    sequenceNumber: Int,
    origin: ActionOrigin,
    action: Action,
    effects: [Effect],
    stateBefore: State,
    stateAfter: State
  ) {
    self.sequenceNumber = sequenceNumber
    self.origin = origin
    self.action = action
    self.effects = effects
    self.stateBefore = stateBefore
    self.stateAfter = stateAfter
  }
}

extension Transition: Sendable where State: Sendable, Action: Sendable, Effect: Sendable {}
extension Transition: Equatable where State: Equatable, Action: Equatable, Effect: Equatable {}
