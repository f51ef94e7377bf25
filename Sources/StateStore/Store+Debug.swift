extension Store {
  /// Prints every action and the state diff it caused, until the subscription goes away.
  ///
  /// ```swift
  /// let printer = store.printTransitions()
  /// store.send(.usernameChanged("demo"))
  /// ```
  ///
  /// ```text
  /// #1 user LoginAction.usernameChanged("demo")
  ///     LoginState(
  ///   −   username: "",
  ///   +   username: "demo",
  ///       password: Secret(),
  ///       … (11 unchanged)
  /// ```
  ///
  /// Secrets show their masks only (see ``Dump``).
  ///
  /// - Parameters:
  ///   - context: Unchanged lines kept around each change in the diff.
  ///   - output: Where each entry goes; `print` by default.
  /// - Returns: Keep it for as long as you want the printing.
  public func printTransitions(
    context: Int = 1,
    to output: @escaping @MainActor (String) -> Void = { print($0) }
  ) -> StoreSubscription {
    observeTransitions { transition in
      output(Self.describe(transition, context: context))
    }
  }

  /// A readable account of one transition: its number, origin and action, the state diff
  /// (indented) and the effects it returned.
  ///
  /// - Parameters:
  ///   - transition: The step to describe.
  ///   - context: Unchanged lines kept around each change in the diff.
  /// - Returns: Several lines of text, without a trailing newline.
  public static func describe(
    _ transition: Transition<R.State, R.Action, R.Effect>,
    context: Int = 1
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
}

extension Store {
  /// Whether two states differ, when their type can tell (`Equatable`); `false` otherwise.
  static func differ(_ before: R.State, _ after: R.State) -> Bool {
    guard let before = before as? any Equatable else { return false }
    return !before.isEqual(toValue: after)
  }
}

extension Equatable {
  fileprivate func isEqual(toValue other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

extension String {
  func replacingNewlines(with separator: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
  }
}
