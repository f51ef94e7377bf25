extension Reducer {
  /// A reducer that runs this one, then `other`, on the same state, and returns both effect
  /// lists in that order.
  ///
  /// Use it to put a parent's own logic next to its children's scopes:
  ///
  /// ```swift
  /// let body = Scope(AppReducer.login) { LoginReducer() }
  ///   .combined(with: Scope(AppReducer.settings) { SettingsReducer() })
  ///   .combined(with: AppCore())
  /// ```
  ///
  /// Each reducer sees the state as the previous one left it.
  ///
  /// - Parameter other: The reducer to run second.
  /// - Returns: The combination.
  public func combined<Other: Reducer>(with other: Other) -> CombinedReducers<Self, Other>
  where Other.State == State, Other.Action == Action, Other.Effect == Effect {
    CombinedReducers(first: self, second: other)
  }
}

/// Two reducers over the same state, run in order: see ``Reducer/combined(with:)``.
public struct CombinedReducers<First: Reducer, Second: Reducer>: ReducerWithInputs
where Second.State == First.State, Second.Action == First.Action, Second.Effect == First.Effect {
  @usableFromInline let first: First
  @usableFromInline let second: Second

  @usableFromInline init(first: First, second: Second) {
    self.first = first
    self.second = second
  }

  /// Runs the first reducer, then the second.
  ///
  /// - Parameters:
  ///   - state: The shared state.
  ///   - action: The action, given to both.
  ///   - inputs: The store's inputs, passed to both: the second reads on where the first
  ///     stopped.
  /// - Returns: The first reducer's effects, then the second's.
  @inlinable
  public func reduce(
    into state: inout First.State, action: First.Action, inputs: inout ReducerInputs
  ) -> [First.Effect] {
    let effects = first.reduce(into: &state, action: action, inputs: &inputs)
    let more = second.reduce(into: &state, action: action, inputs: &inputs)
    if effects.isEmpty { return more }
    if more.isEmpty { return effects }
    return effects + more
  }
}

extension CombinedReducers: Sendable where First: Sendable, Second: Sendable {}
