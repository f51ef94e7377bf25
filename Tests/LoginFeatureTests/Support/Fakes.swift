import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting

/// A login API that answers every request with the same result and records the credentials.
final class FakeLoginAPI: LoginAPI, @unchecked Sendable {
  private let lock = NSLock()
  private var received: [Credentials] = []
  let result: LoginResult

  init(_ result: LoginResult) {
    self.result = result
  }

  var requests: [Credentials] { lock.withLock { received } }

  func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    lock.withLock { received.append(credentials) }
    switch result {
    case .success(let session): return .session(session)
    case .challenge(let challenge): return .challenge(challenge)
    case .failure(let error): throw error
    }
  }
}

/// Records every alert and answers with a fixed button id (nil: dismissed).
@MainActor final class ScriptedAlertPresenter: AlertPresenter {
  var alerts: [Alert] = []
  let answer: String?

  init(answer: String? = "ok") {
    self.answer = answer
  }

  func present(_ alert: Alert) async -> AlertButton? {
    alerts.append(alert)
    return alert.buttons.first { $0.id == answer }
  }
}

/// Collects the actions a handler sends.
@MainActor final class SentActions {
  var actions: [LoginAction] = []

  var send: Send<LoginAction> {
    Send { [self] action in actions.append(action) }
  }
}

enum Fixtures {
  static let demo = User(id: "1", username: "demo", displayName: "Demo User")
  static let session = Session(user: demo, token: "demo-token-1")
  static let credentials = Credentials(username: "demo", password: "Secr3t")

  @MainActor static func dependencies(
    api: any LoginAPI = FakeLoginAPI(.success(session)),
    router: RecordingRouter = RecordingRouter(),
    alerts: ScriptedAlertPresenter = ScriptedAlertPresenter(),
    sessions: InMemorySessionStore = InMemorySessionStore(),
    clock: TestClock = TestClock()
  ) -> LoginDependencies {
    LoginDependencies(
      api: api, router: router, alertPresenter: alerts, sessionStore: sessions, clock: clock)
  }
}
