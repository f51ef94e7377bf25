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
/// <!-- sample: formatted-transition -->
/// ```text
/// #1 user LoginAction.loginButtonTapped
///       … (2 unchanged)
///       password: Secret(Aaaa0a),
///   −   isLoading: false,
///   +   isLoading: true,
///       failedAttempts: 0,
///       isLocked: false,
///   −   attemptID: 0,
///   +   attemptID: 1,
///       user: nil,
///       … (11 unchanged)
///       isPasswordEdited: false,
///   −   wasSubmitTried: false
///   +   wasSubmitTried: true
///     )
///   effect: LoginEffect.authenticate(
///       Credentials(
///         username: "demo",
///         password: Secret(Aaaa0a)
///       ),
///       attempt: 1
///     )
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
  /// With a `time`, the headline shows it after the number, as minutes, seconds and
  /// milliseconds (hours too past the first), the way an action log's replay reads:
  ///
  /// <!-- sample: timed-headline -->
  /// ```text
  /// #7 0:03.250 user LoginAction.loginButtonTapped
  /// ```
  ///
  /// - Parameters:
  ///   - transition: The step.
  ///   - time: When the step happened, since a recording started; `nil` to leave it out.
  /// - Returns: Several lines of text.
  public func format<State, Action, Effect>(
    _ transition: Transition<State, Action, Effect>, time: Duration? = nil
  ) -> String {
    var lines = [Self.headline(transition, time: time)]
    if let diff = Dump.diff(
      of: transition.stateBefore, and: transition.stateAfter, context: context)
    {
      lines += diff.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    } else if Self.differ(transition.stateBefore, transition.stateAfter) {
      lines.append("  (the state changed inside a secret, which shows its mask only)")
    } else {
      lines.append("  (no state change)")
    }
    lines += Self.effectLines(transition)
    return lines.joined(separator: "\n")
  }

  /// A step's first line: `#7 0:03.250 user LoginAction.loginButtonTapped`.
  package static func headline<State, Action, Effect>(
    _ transition: Transition<State, Action, Effect>, time: Duration?
  ) -> String {
    headline(transition, time: time, action: Dump.render(transition.action))
  }

  /// A step's first line, its action rendered already (the log tools render it from its
  /// canonical JSON).
  package static func headline<State, Action, Effect>(
    _ transition: Transition<State, Action, Effect>, time: Duration?, action: String
  ) -> String {
    let clock = time.map { Self.clock($0) + " " } ?? ""
    return "#\(transition.sequenceNumber) \(clock)\(transition.origin.rawValue) " + action
  }

  /// A step's last lines: `  effect: …` for each effect it returned.
  package static func effectLines<State, Action, Effect>(
    _ transition: Transition<State, Action, Effect>
  ) -> [String] {
    effectLines(transition.effects.map { Dump.render($0) })
  }

  /// A step's last lines, its effects rendered already.
  package static func effectLines(_ effects: [String]) -> [String] {
    effects.map { "  effect: " + $0.replacingNewlines(with: "\n    ") }
  }

  /// `m:ss.SSS`, or `h:mm:ss.SSS` from an hour on; a negative time reads as zero.
  package static func clock(_ time: Duration) -> String {
    let (seconds, attoseconds) = time.components
    guard seconds >= 0 else { return "0:00.000" }
    let milliseconds = Int(attoseconds / 1_000_000_000_000_000)
    let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3_600)
    let (minutes, secondsInMinute) = rest.quotientAndRemainder(dividingBy: 60)
    func padded(_ value: some BinaryInteger, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let tail = "\(padded(secondsInMinute, 2)).\(padded(milliseconds, 3))"
    return hours > 0 ? "\(hours):\(padded(minutes, 2)):\(tail)" : "\(minutes):\(tail)"
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
