import LoginFeature
import StateStore

/// Records every route command.
@MainActor final class RecordingRouter: Router {
  var commands: [RouteCommand] = []

  func perform(_ command: RouteCommand) {
    commands.append(command)
  }
}

/// Records every alert and dismisses it at once.
@MainActor final class RecordingAlertPresenter: AlertPresenter {
  var alerts: [Alert] = []

  func present(_ alert: Alert) async -> AlertButton? {
    alerts.append(alert)
    return nil
  }
}

/// A login store on `api` with recorders for what it does.
@MainActor struct LoginHarness {
  let router = RecordingRouter()
  let alerts = RecordingAlertPresenter()
  let sessions = InMemorySessionStore()
  let store: Store<LoginReducer>

  init(api: any LoginAPI, state: LoginState = LoginState()) {
    store = Store(
      login: state,
      dependencies: LoginDependencies(
        api: api, router: router, alertPresenter: alerts, sessionStore: sessions))
  }
}
