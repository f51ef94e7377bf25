import Foundation
import LoginFeature
import StateStore

/// A login service that answers with the given results, in order, then with its last one.
final class ScriptedLoginAPI: LoginAPI, @unchecked Sendable {
  private let lock = NSLock()
  private var results: [LoginResult]

  init(_ results: [LoginResult]) {
    self.results = results
  }

  func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    let result = lock.withLock { results.count > 1 ? results.removeFirst() : results.first }
    switch result {
    case .success(let session): return .session(session)
    case .challenge(let challenge): return .challenge(challenge)
    case .failure(let error): throw error
    case nil: throw .nilData
    }
  }
}

/// Keeps the route commands.
@MainActor final class RouteLog: Router {
  var commands: [RouteCommand] = []

  func perform(_ command: RouteCommand) {
    commands.append(command)
  }
}

/// Taps the first button of every alert at once.
@MainActor final class TapFirstButton: AlertPresenter {
  func present(_ alert: Alert) async -> AlertButton? {
    alert.buttons.first
  }
}

/// A clock whose sleeps end at once, so a lockout timer fires without waiting.
struct ImmediateClock: Clock {
  typealias Instant = ContinuousClock.Instant

  var now: Instant { ContinuousClock.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
  }
}

/// Login sessions recorded through a real `Store(login:dependencies:)`.
@MainActor
enum LoginSessions {
  static let user = User(id: "42", username: "demo", displayName: "Demo User")

  static func dependencies(_ results: [LoginResult]) -> LoginDependencies {
    LoginDependencies(
      api: ScriptedLoginAPI(results), router: RouteLog(), alertPresenter: TapFirstButton(),
      sessionStore: InMemorySessionStore(), clock: ImmediateClock())
  }

  /// Types a username and a password, fails once with invalid credentials (the alert is
  /// acknowledged), fixes the password and signs in: 10 steps, the last two from the success.
  static func typeFailOnceThenSucceed(
    into store: Store<LoginReducer>,
    username: String = "demo",
    password: String = "Secr3t"
  ) async {
    store.send(.usernameChanged(String(username.prefix(1))))
    store.send(.usernameChanged(username))
    store.send(.passwordChanged(Secret(String(password.prefix(1)))))
    store.send(.passwordChanged(Secret(password)))
    await store.send(.loginButtonTapped).finish()
    store.send(.passwordChanged(Secret(password + "1")))
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
