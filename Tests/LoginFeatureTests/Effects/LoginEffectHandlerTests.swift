import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

@MainActor struct LoginEffectHandlerTests {
  @Test func authenticateSendsTheSessionTaggedWithTheAttempt() async {
    let api = FakeLoginAPI(.success(Fixtures.session))
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(api: api))
    let sent = SentActions()
    await handler.handle(.authenticate(Fixtures.credentials, attempt: 7), send: sent.send)
    #expect(api.requests == [Fixtures.credentials])
    #expect(sent.actions == [.loginResponse(attempt: 7, .success(Fixtures.session))])
  }

  @Test func authenticateSendsTheFailure() async {
    let api = FakeLoginAPI(.failure(.invalidCredentials))
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(api: api))
    let sent = SentActions()
    await handler.handle(.authenticate(Fixtures.credentials, attempt: 2), send: sent.send)
    #expect(sent.actions == [.loginResponse(attempt: 2, .failure(.invalidCredentials))])
  }

  @Test func aRequestTheAPICancelledOnItsOwnIsReportedSoTheSpinnerStops() async {
    let api = FakeLoginAPI(.failure(.cancelled))
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(api: api))
    let sent = SentActions()
    await handler.handle(.authenticate(Fixtures.credentials, attempt: 1), send: sent.send)
    #expect(api.requests.count == 1)
    #expect(sent.actions == [.loginResponse(attempt: 1, .failure(.cancelled))])
    var state = LoginState(username: "demo", password: "Secr3t", isLoading: true, attemptID: 1)
    #expect(LoginReducer().reduce(into: &state, action: sent.actions[0]) == [])
    #expect(state.isLoading == false)
  }

  @Test func cancellingTheTaskMidRequestSendsNothing() async {
    let clock = TestClock()
    let api = DemoLoginAPI(latency: .seconds(1), clock: clock)
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(api: api))
    let sent = SentActions()
    let task = Task {
      await handler.handle(.authenticate(Fixtures.credentials, attempt: 1), send: sent.send)
    }
    #expect(await clock.waitForSleepers(1))
    task.cancel()
    await task.value
    await clock.advance(by: .seconds(1))
    #expect(sent.actions == [])
  }

  @Test func cancelAuthenticationDoesNothingItself() async {
    let api = FakeLoginAPI(.success(Fixtures.session))
    let router = RecordingRouter()
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(api: api, router: router))
    let sent = SentActions()
    await handler.handle(.cancelAuthentication, send: sent.send)
    #expect(api.requests == [])
    #expect(router.commands == [])
    #expect(sent.actions == [])
  }

  @Test func routeCommandsGoToTheRouter() async {
    let router = RecordingRouter()
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(router: router))
    let sent = SentActions()
    await handler.handle(.route(.push(.home(Fixtures.demo))), send: sent.send)
    await handler.handle(.route(.popToRoot), send: sent.send)
    #expect(router.commands == [.push(.home(Fixtures.demo)), .popToRoot])
    #expect(sent.actions == [])
  }

  @Test func anAlertSendsBackTheTappedButton() async {
    let alerts = ScriptedAlertPresenter(answer: "retry")
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(alerts: alerts))
    let sent = SentActions()
    let alert = Alert(
      title: "Error", message: "Incorrect username or password",
      buttons: [.ok, AlertButton(id: "retry", title: "Retry")])
    await handler.handle(.showAlert(alert), send: sent.send)
    #expect(alerts.alerts == [alert])
    #expect(sent.actions == [.alertButtonTapped("retry")])
  }

  @Test func aDismissedAlertSendsNil() async {
    let alerts = ScriptedAlertPresenter(answer: nil)
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(alerts: alerts))
    let sent = SentActions()
    await handler.handle(.showAlert(Alert(title: "Error", message: "m")), send: sent.send)
    #expect(sent.actions == [.alertButtonTapped(nil)])
  }

  @Test func theLockoutTimerEndsAfterItsDurationOnTheClock() async {
    let clock = TestClock()
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(clock: clock))
    let sent = SentActions()
    let task = Task { await handler.handle(.startLockoutTimer(.seconds(30)), send: sent.send) }
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(29))
    #expect(clock.sleeperCount == 1)
    #expect(sent.actions == [])
    await clock.advance(by: .seconds(1))
    await task.value
    #expect(sent.actions == [.lockoutEnded])
  }

  @Test func aCancelledLockoutTimerSendsNothing() async {
    let clock = TestClock()
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(clock: clock))
    let sent = SentActions()
    let task = Task { await handler.handle(.startLockoutTimer(.seconds(30)), send: sent.send) }
    #expect(await clock.waitForSleepers(1))
    task.cancel()
    await task.value
    #expect(clock.sleeperCount == 0)
    #expect(sent.actions == [])
  }

  @Test func sessionsAreSavedAndCleared() async {
    let sessions = InMemorySessionStore()
    let handler = LoginEffectHandler(dependencies: Fixtures.dependencies(sessions: sessions))
    let sent = SentActions()
    await handler.handle(.saveSession(Fixtures.session), send: sent.send)
    #expect(await sessions.load() == Fixtures.session)
    await handler.handle(.clearSession, send: sent.send)
    #expect(await sessions.load() == nil)
    #expect(sent.actions == [])
  }
}
