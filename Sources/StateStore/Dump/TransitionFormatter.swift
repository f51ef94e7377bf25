/// Renders a ``Transition`` as readable text: its number, origin and action, the state diff
/// (indented) and the effects it returned.
///
/// One formatter serves every place a step is shown — the debug printer
/// (``Store/printTransitions(context:to:)``), test stories, and replays of action logs, which
/// have transitions but no store — so a step reads the same everywhere.
///
/// ```swift
/// let text = TransitionFormatter(context: 1).format(transition)
/// ```
///
/// ```text
/// #1 user LoginAction.usernameChanged("demo")
///     LoginState(
///   −   username: "",
///   +   username: "demo",
///       password: Secret(),
///       … (11 unchanged)
///   effect: LoginEffect.route(RouteCommand.pop)
/// ```
///
/// Values are rendered with ``Dump``, so secrets show their masks only. When only a secret
/// changed to a value with the same mask, the diff cannot show it and the formatter says so.
public struct TransitionFormatter: Sendable {
  /// Unchanged lines kept around each change in the diff.
  public var context: Int

  /// Creates a formatter.
  ///
  /// - Parameter context: Unchanged lines kept around each change in the diff.
  public init(context: Int = 1) {
    self.context = context
  }

  /// The text of one step, without a trailing newline.
  ///
  /// - Parameter transition: The step.
  /// - Returns: Several lines of text.
  public func format<State, Action, Effect>(
    _ transition: Transition<State, Action, Effect>
  ) -> String {
    var lines = [
      "#\(transition.sequenceNumber) \(transition.origin.rawValue) "
        + Dump.render(transition.action)
    ]
    if let diff = Dump.diff(
      of: transition.stateBefore, and: transition.stateAfter, context: context)
    {
      lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    } else if Self.differ(transition.stateBefore, transition.stateAfter) {
      lines.append("  (the state changed inside a secret, which shows its mask only)")
    } else {
      lines.append("  (no state change)")
    }
    for effect in transition.effects {
      lines.append("  effect: " + Dump.render(effect).replacingNewlines(with: "\n    "))
    }
    return lines.joined(separator: "\n")
  }

  /// Whether two states differ, when their type can tell (`Equatable`); `false` otherwise.
  static func differ<State>(_ before: State, _ after: State) -> Bool {
    EquatableOperations.areEqual(before, after).map { !$0 } ?? false
  }
}

extension String {
  func replacingNewlines(with separator: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
  }
}
