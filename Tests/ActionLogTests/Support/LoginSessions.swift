import LoginFeature
import LoginFeatureTesting
import StateStore

/// Login sessions recorded through a real `Store(login:dependencies:)`.
@MainActor
enum LoginSessions {
  static let user = User(id: "42", username: "demo", displayName: "Demo User")

  /// The `LoginFeatureTesting` fakes, the API answering `results` in order; each alert's "OK"
  /// is tapped at once.
  static func dependencies(_ results: [LoginResult]) -> LoginDependencies {
    LoginFakes(results: results).dependencies
  }

  /// Types a username and a password, fails once with invalid credentials (the alert is
  /// acknowledged), fixes the password and signs in: 10 steps, the last two from the success.
  static func typeFailOnceThenSucceed(
    into store: Store<LoginReducer>,
    username: String = "demo",
    password: String = "Secr3t"
  ) async {
    store.send(.edit(.set(\.username, to: PersonalData(String(username.prefix(1))))))
    store.send(.edit(.set(\.username, to: PersonalData(username))))
    store.send(.edit(.set(\.password, to: Secret(String(password.prefix(1))))))
    store.send(.edit(.set(\.password, to: Secret(password))))
    await store.send(.loginButtonTapped).finish()
    store.send(.edit(.set(\.password, to: Secret(password + "1"))))
    await store.send(.loginButtonTapped).finish()
  }

  /// A store whose API fails once with invalid credentials, then signs `user` in with `token`.
  static func failOnceThenSucceed(token: String = "demo-token-42") -> Store<LoginReducer> {
    Store(
      login: LoginState(),
      dependencies: dependencies([
        .failure(.invalidCredentials), .success(Session(user: user, token: Secret(token))),
      ]))
  }
}
