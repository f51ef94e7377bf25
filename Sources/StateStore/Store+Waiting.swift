extension Store {
  /// Waits until the state meets `condition`, and returns that state.
  ///
  /// `await store.send(action).finish()` waits for *everything* the action set off: for a login
  /// tap, the request and its answer, but also the alert until someone closes it and, on the
  /// fifth failure, the whole lockout timer. A host (or a test on a `TestClock`) that only wants
  /// the answer waits for the state that shows it instead:
  ///
  /// ```swift
  /// store.send(.loginButtonTapped)
  /// await store.state(where: { !$0.isLoading })   // the request and its answer are done
  /// ```
  ///
  /// The current state counts: when it already meets `condition`, this returns at once. Every
  /// state the store reaches is checked, in order, even when several actions are reduced before
  /// this task runs again, so a state that passes by quickly is not missed. The state returned
  /// is the first that met `condition`; by the time the caller reads ``state`` it may have moved
  /// on.
  ///
  /// - Parameter condition: The state to wait for.
  /// - Returns: The first state that meets `condition`, or `nil` when the waiting task was
  ///   cancelled first.
  @discardableResult
  public func state(where condition: (R.State) -> Bool) async -> R.State? {
    for await state in states() where condition(state) {
      return state
    }
    return nil
  }
}
