import LoginFeature
import LoginFeatureTesting
import StateStore

/// A login store on a real `api`, with the `LoginFeatureTesting` fakes for everything else:
/// they record the routes and alerts (tapping each alert's "OK"), and keep the session.
@MainActor struct LoginHarness {
  let fakes = LoginFakes()
  let store: Store<LoginReducer>

  init(api: any LoginAPI, state: LoginState = LoginState()) {
    store = Store(login: state, dependencies: fakes.dependencies(api: api))
  }

  var router: RecordingRouter { fakes.router }
  var alerts: RecordingAlertPresenter { fakes.alertPresenter }
  var sessions: InMemorySessionStore { fakes.sessionStore }
}
