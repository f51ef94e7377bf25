extension Store {
  /// Prints every action and the state diff it caused, until the subscription goes away.
  ///
  /// ```swift
  /// let printer = store.printTransitions()
  /// store.send(.edit(.set(\.username, to: "demo")))
  /// ```
  ///
  /// <!-- sample: printed-transition -->
  /// ```text
  /// #1 user LoginAction.edit(set(username: "demo"))
  ///     LoginState(
  ///   −   username: "",
  ///   +   username: "demo",
  ///       password: Secret(),
  ///       … (14 unchanged)
  ///       isRestoring: false,
  ///   −   isUsernameEdited: false,
  ///   +   isUsernameEdited: true,
  ///       isPasswordEdited: false,
  ///       … (2 unchanged)
  /// ```
  ///
  /// Each entry is a ``TransitionFormatter`` rendering; secrets show their masks only (see
  /// ``Dump``).
  ///
  /// - Parameters:
  ///   - context: Unchanged lines kept around each change in the diff.
  ///   - output: Where each entry goes; `print` by default.
  /// - Returns: Keep it for as long as you want the printing.
  public func printTransitions(
    context: Int = 1,
    to output: @escaping @MainActor (String) -> Void = { print($0) }
  ) -> StoreSubscription {
    let formatter = TransitionFormatter(context: context)
    return observeTransitions { transition in
      output(formatter.format(transition))
    }
  }
}
