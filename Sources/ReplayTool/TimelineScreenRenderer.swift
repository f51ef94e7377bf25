import StateStore

/// Draws a feature's screen for the HTML timeline (`replay --html`): the hook that turns a
/// replayed state, and what the steps so far did, into a ``TimelineScreen``.
///
/// The replay library knows nothing about any feature's screen, so a feature that wants a mock
/// screen on its timeline supplies a renderer with its ``ReplayableFeature``; a feature
/// without one gets the state tree only. A screen often shows more than the state holds —
/// which alert is up, where navigation went — because those are effects the reducer returned;
/// ``apply(_:)`` (or ``apply(_:at:)``, with the step's time) sees every replayed step in order
/// so the renderer can remember them.
///
/// A renderer is a value: each page starts from a fresh copy, and ``reset(to:)`` starts it
/// again where a log resumes after dropped transitions.
///
/// ```swift
/// struct CounterScreen: TimelineScreenRenderer {
///   typealias Action = CounterAction
///   typealias Effect = CounterEffect
///
///   func screen(for state: CounterState) -> TimelineScreen {
///     TimelineScreen(title: "Counter", elements: [.heading("\(state.count)")])
///   }
/// }
///
/// let counter = ReplayableFeature(
///   name: "counter", reducer: CounterReducer(),
///   module: "CounterFeature", reducerExpression: "CounterReducer()",
///   screen: CounterScreen())
/// ```
public protocol TimelineScreenRenderer<State, Action, Effect>: Sendable {
  /// The feature's state.
  associatedtype State
  /// The feature's actions (inferred from ``apply(_:)``, else declare it).
  associatedtype Action
  /// The feature's effects (inferred from ``apply(_:)``, else declare it).
  associatedtype Effect

  /// Facts about the log for the page's header, read from its initial state (for example the
  /// validation rules). None by default.
  ///
  /// - Parameter initialState: The state the log starts from.
  /// - Returns: Label and value pairs, in display order.
  func facts(about initialState: State) -> [TimelineFact]

  /// Forgets what earlier steps did and starts from `state`: before the first step, and where
  /// the log resumes after dropped transitions. Does nothing by default.
  ///
  /// - Parameter state: The state the replay starts or resumes from.
  mutating func reset(to state: State)

  /// Remembers what a replayed step did that the screen shows but the state does not hold
  /// (an alert it presented, a route it pushed). Does nothing by default.
  ///
  /// - Parameter transition: The step: its action, the effects the reducer returned, and the
  ///   states before and after.
  mutating func apply(_ transition: Transition<State, Action, Effect>)

  /// Remembers what a replayed step did, knowing when it happened: a screen that counts down
  /// (a lockout's seconds left) reads it from the step times. Calls ``apply(_:)`` by default.
  ///
  /// - Parameters:
  ///   - transition: The step: its action, the effects the reducer returned, and the states
  ///     before and after.
  ///   - time: When the step happened, since the recording started; `nil` in a log recorded
  ///     before steps had times.
  mutating func apply(_ transition: Transition<State, Action, Effect>, at time: Duration?)

  /// The screen for `state`, after the steps given to ``apply(_:)`` so far.
  ///
  /// - Parameter state: The replayed state.
  /// - Returns: What the screen shows.
  func screen(for state: State) -> TimelineScreen
}

extension TimelineScreenRenderer {
  /// No facts.
  ///
  /// - Parameter initialState: The state the log starts from.
  /// - Returns: An empty list.
  public func facts(about initialState: State) -> [TimelineFact] { [] }

  /// Remembers nothing.
  ///
  /// - Parameter state: The state the replay starts or resumes from.
  public mutating func reset(to state: State) {}

  /// Remembers nothing.
  ///
  /// - Parameter transition: The step.
  public mutating func apply(_ transition: Transition<State, Action, Effect>) {}

  /// Calls ``apply(_:)``: the step's time is not needed.
  ///
  /// - Parameters:
  ///   - transition: The step.
  ///   - time: When the step happened.
  public mutating func apply(
    _ transition: Transition<State, Action, Effect>, at time: Duration?
  ) {
    apply(transition)
  }
}

/// The renderer of a feature without a screen: the timeline shows its state tree only.
struct NoTimelineScreen<State, Action, Effect>: TimelineScreenRenderer {
  func screen(for state: State) -> TimelineScreen {
    TimelineScreen(title: "", elements: [])
  }
}
