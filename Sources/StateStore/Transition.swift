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
/// reduced action, in order. It is everything an action-log recorder or a debug printer needs:
/// the ``StoreStep`` a step observer gets, and the state before the action.
public struct Transition<State, Action, Effect> {
  /// The action, its number and origin, its effects and the state after it.
  public var step: StoreStep<State, Action, Effect>
  /// The state before the action.
  public var stateBefore: State

  /// Creates a transition.
  ///
  /// - Parameters:
  ///   - sequenceNumber: The step's number, from 1.
  ///   - origin: Who sent the action.
  ///   - action: The action.
  ///   - effects: The effects the reducer returned.
  ///   - inputs: The values the reducer read (``StepInputs``); none by default.
  ///   - stateBefore: The state before the action.
  ///   - stateAfter: The state after the action.
  public init(
    sequenceNumber: Int,
    origin: ActionOrigin,
    action: Action,
    effects: [Effect],
    inputs: StepInputs = StepInputs(),
    stateBefore: State,
    stateAfter: State
  ) {
    self.init(
      step: StoreStep(
        sequenceNumber: sequenceNumber, origin: origin, action: action, effects: effects,
        inputs: inputs, stateAfter: stateAfter),
      stateBefore: stateBefore)
  }

  /// Creates a transition from a step and the state before it.
  ///
  /// - Parameters:
  ///   - step: The action, its effects and the state after it.
  ///   - stateBefore: The state before the action.
  public init(step: StoreStep<State, Action, Effect>, stateBefore: State) {
    self.step = step
    self.stateBefore = stateBefore
  }

  /// The step's number within its store (``StoreStep/sequenceNumber``).
  public var sequenceNumber: Int {
    get { step.sequenceNumber }
    set { step.sequenceNumber = newValue }
  }
  /// Whether a user or an effect sent the action (``StoreStep/origin``).
  public var origin: ActionOrigin {
    get { step.origin }
    set { step.origin = newValue }
  }
  /// The action the reducer applied (``StoreStep/action``).
  public var action: Action {
    get { step.action }
    set { step.action = newValue }
  }
  /// The effects the reducer returned, in order (``StoreStep/effects``).
  public var effects: [Effect] {
    get { step.effects }
    set { step.effects = newValue }
  }
  /// The values the reducer read (``StoreStep/inputs``).
  public var inputs: StepInputs {
    get { step.inputs }
    set { step.inputs = newValue }
  }
  /// The state after the action (``StoreStep/stateAfter``).
  public var stateAfter: State {
    get { step.stateAfter }
    set { step.stateAfter = newValue }
  }
}

extension Transition: Sendable where State: Sendable, Action: Sendable, Effect: Sendable {}
extension Transition: Equatable where State: Equatable, Action: Equatable, Effect: Equatable {}

/// One reduced action as a recorder sees it: its number, where it came from, the effects it
/// returned and the state after it — without the state before.
///
/// What ``Store/observeSteps(_:)`` hands over. A store keeps the state before an action only
/// while a ``Store/observeTransitions(_:)`` observer needs it: the reducer's write then finds
/// the state's storage shared with that copy and copies it (a whole list, when one item
/// changes). A recorder only needs the state after, so it observes steps.
public struct StoreStep<State, Action, Effect> {
  /// The number of the action in the store: 1 for the first.
  public var sequenceNumber: Int
  /// Whether the host or an effect sent the action.
  public var origin: ActionOrigin
  /// The action reduced.
  public var action: Action
  /// The effects the reducer returned, in order.
  public var effects: [Effect]
  /// The values the reducer read from its ``ReducerInputs``: the date, new ids, random numbers.
  /// An action log writes them in the step's line, so a replay hands back the same ones.
  public var inputs: StepInputs
  /// The state right after the reducer ran.
  public var stateAfter: State

  /// Creates a step.
  ///
  /// - Parameters:
  ///   - sequenceNumber: The number of the action in the store.
  ///   - origin: Whether the host or an effect sent it.
  ///   - action: The action reduced.
  ///   - effects: The effects the reducer returned.
  ///   - inputs: The values the reducer read; none by default.
  ///   - stateAfter: The state right after the reducer ran.
  public init(
    sequenceNumber: Int,
    origin: ActionOrigin,
    action: Action,
    effects: [Effect],
    inputs: StepInputs = StepInputs(),
    stateAfter: State
  ) {
    self.sequenceNumber = sequenceNumber
    self.origin = origin
    self.action = action
    self.effects = effects
    self.inputs = inputs
    self.stateAfter = stateAfter
  }
}

extension StoreStep: Sendable where State: Sendable, Action: Sendable, Effect: Sendable {}
extension StoreStep: Equatable where State: Equatable, Action: Equatable, Effect: Equatable {}
