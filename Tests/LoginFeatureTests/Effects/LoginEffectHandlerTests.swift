import LoginDemoBackend
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

@MainActor struct LoginEffectHandlerTests {
  @Test func authenticateSendsTheSessionTaggedWithTheAttempt() async {
    let fakes = LoginFakes(results: [.success(Fixtures.session)])
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(.authenticate(Fixtures.credentials, attempt: 7), send: sent.send)
    #expect(fakes.api.requests == [Fixtures.credentials])
    #expect(sent.actions == [.loginResponse(attempt: 7, .success(Fixtures.session))])
  }

  @Test func authenticateSendsTheFailure() async {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(.authenticate(Fixtures.credentials, attempt: 2), send: sent.send)
    #expect(sent.actions == [.loginResponse(attempt: 2, .failure(.invalidCredentials))])
  }

  @Test func aRequestTheAPICancelledOnItsOwnIsReportedSoTheSpinnerStops() async {
    let fakes = LoginFakes(results: [.failure(.cancelled)])
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(.authenticate(Fixtures.credentials, attempt: 1), send: sent.send)
    #expect(fakes.api.requests.count == 1)
    #expect(sent.actions == [.loginResponse(attempt: 1, .failure(.cancelled))])
    var state = LoginState(username: "demo", password: "Secr3t", isLoading: true, attemptID: 1)
    #expect(LoginReducer().reduce(into: &state, action: sent.actions[0]) == [])
    #expect(state.isLoading == false)
  }

  @Test func cancellingTheTaskMidRequestSendsNothing() async {
    let fakes = LoginFakes()
    let api = DemoLoginAPI(latency: .seconds(1), clock: fakes.clock)
    let handler = LoginEffectHandler(dependencies: fakes.dependencies(api: api))
    let sent = SentActions()
    let task = Task {
      await handler.handle(.authenticate(Fixtures.credentials, attempt: 1), send: sent.send)
    }
    #expect(await fakes.clock.waitForSleepers(1))
    task.cancel()
    await task.value
    await fakes.clock.advance(by: .seconds(1))
    #expect(sent.actions == [])
  }

  @Test func cancelAuthenticationDoesNothingItself() async {
    let fakes = LoginFakes()
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(.cancelAuthentication, send: sent.send)
    #expect(fakes.api.requests == [])
    #expect(fakes.router.commands == [])
    #expect(sent.actions == [])
  }

  @Test func routeCommandsGoToTheRouter() async {
    let fakes = LoginFakes()
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(.route(.push(.home(Fixtures.demo))), send: sent.send)
    await handler.handle(.route(.popToRoot), send: sent.send)
    #expect(fakes.router.commands == [.push(.home(Fixtures.demo)), .popToRoot])
    #expect(sent.actions == [])
  }

  @Test func anAlertSendsBackTheTappedButton() async {
    let fakes = LoginFakes()
    fakes.alertPresenter.tapOnNext("retry")
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    let alert = Alert(
      title: "Error", message: "Incorrect username or password",
      buttons: [.ok, AlertButton(id: "retry", title: "Retry")])
    await handler.handle(.showAlert(alert), send: sent.send)
    #expect(fakes.alertPresenter.alerts == [alert])
    #expect(sent.actions == [.alertButtonTapped("retry")])
  }

  @Test func aDismissedAlertSendsNil() async {
    let fakes = LoginFakes()
    fakes.alertPresenter.respondToNext(.dismiss)
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(
      .showAlert(Alert(title: "Couldn't sign in", message: "m")), send: sent.send)
    #expect(sent.actions == [.alertButtonTapped(nil)])
  }

  @Test func theLockoutTimerEndsAfterItsDurationOnTheClock() async {
    let fakes = LoginFakes()
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    let task = Task { await handler.handle(.startLockoutTimer(.seconds(30)), send: sent.send) }
    #expect(await fakes.clock.waitForSleepers(1))
    await fakes.clock.advance(by: .seconds(29))
    #expect(fakes.clock.sleeperCount == 1)
    #expect(sent.actions == [])
    await fakes.clock.advance(by: .seconds(1))
    await task.value
    #expect(sent.actions == [.lockoutEnded])
  }

  @Test func aCancelledLockoutTimerSendsNothing() async {
    let fakes = LoginFakes()
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    let task = Task { await handler.handle(.startLockoutTimer(.seconds(30)), send: sent.send) }
    #expect(await fakes.clock.waitForSleepers(1))
    task.cancel()
    await task.value
    #expect(fakes.clock.sleeperCount == 0)
    #expect(sent.actions == [])
  }

  @Test func sessionsAreSavedAndCleared() async {
    let fakes = LoginFakes()
    let handler = LoginEffectHandler(dependencies: fakes.dependencies)
    let sent = SentActions()
    await handler.handle(.saveSession(Fixtures.session), send: sent.send)
    #expect(await fakes.sessionStore.load() == Fixtures.session)
    await handler.handle(.clearSession, send: sent.send)
    #expect(await fakes.sessionStore.load() == nil)
    #expect(sent.actions == [])
  }
}
