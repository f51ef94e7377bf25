import StateStore

extension Store where R == LoginReducer {
  /// Creates a login store whose effects run in a ``LoginFeature/LoginEffectHandler`` over `dependencies`.
  ///
  /// ```swift
  /// let store = Store(login: LoginState(rules: .email), dependencies: dependencies)
  /// store.send(.edit(.set(\.username, to: "ada@example.com")))
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state before the first action; the empty default-rules form by default.
  ///   - dependencies: What the effects are carried out with.
  public convenience init(login state: LoginState = LoginState(), dependencies: LoginDependencies) {
    self.init(
      initialState: state,
      reducer: LoginReducer(),
      handler: LoginEffectHandler(dependencies: dependencies)
    )
  }
}
