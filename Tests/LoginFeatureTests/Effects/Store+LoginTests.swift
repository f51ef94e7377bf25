import LoginDemoBackend
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

@MainActor struct StoreLoginTests {
  @Test func aStoreSignsInWithTheDemoAPIAndLogsOut() async {
    let fakes = LoginFakes()
    let (clock, router, sessions) = (fakes.clock, fakes.router, fakes.sessionStore)
    let store = Store(
      login: LoginState(),
      dependencies: fakes.dependencies(
        api: DemoLoginAPI(latency: .seconds(1), clock: clock, now: { fakes.now })))

    store.send(.edit(.set(\.username, to: "demo")))
    store.send(.edit(.set(\.password, to: "Secr3t")))
    let login = store.send(.loginButtonTapped)
    #expect(store.state.isLoading == true)
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    #expect(await login.finish(within: .seconds(60)), "effects still running after a minute")

    #expect(store.state.isLoading == false)
    #expect(store.state.user == Fixtures.demo)
    #expect(router.commands == [.push(.home(Fixtures.demo))])
    // Issued one second (the latency) after the fakes' wall-clock start, for 12 hours.
    let issued = LoginFakes.defaultWallClockStart.addingTimeInterval(1)
    #expect(
      await sessions.load()
        == Session(
          user: Fixtures.demo, token: "demo-token-1",
          expiresAt: issued.addingTimeInterval(12 * 3_600)))

    await store.send(.logoutButtonTapped).finish()
    #expect(store.state == LoginState(username: "demo", attemptID: 1))
    #expect(router.commands == [.push(.home(Fixtures.demo)), .popToRoot])
    #expect(await sessions.load() == nil)
  }

  @Test func cancellingThroughTheStoreDropsTheResponse() async {
    let fakes = LoginFakes()
    let (clock, router) = (fakes.clock, fakes.router)
    let store = Store(
      login: LoginState(username: "demo", password: "Secr3t"),
      dependencies: fakes.dependencies(api: DemoLoginAPI(latency: .seconds(1), clock: clock)))

    let login = store.send(.loginButtonTapped)
    #expect(await clock.waitForSleepers(1))
    await store.send(.cancelButtonTapped).finish()
    #expect(await login.finish(within: .seconds(60)), "effects still running after a minute")
    await clock.advance(by: .seconds(1))

    var cancelled = LoginState(username: "demo", password: "Secr3t", attemptID: 1)
    cancelled.wasSubmitTried = true
    #expect(store.state == cancelled)
    #expect(router.commands == [])
    #expect(store.runningEffectCount == 0)
  }

  @Test func theLockoutEndsOnTheInjectedClock() async {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
    let (clock, alerts) = (fakes.clock, fakes.alertPresenter)
    let store = Store(
      login: LoginState(username: "demo", password: "wr0nG", failedAttempts: 4),
      dependencies: fakes.dependencies)

    let login = store.send(.loginButtonTapped)
    #expect(await clock.waitForSleepers(1))
    #expect(store.state.isLocked == true)
    #expect(alerts.alerts.map(\.title) == ["Sign-in locked"])
    await clock.advance(by: .seconds(30))
    #expect(await login.finish(within: .seconds(60)), "effects still running after a minute")

    #expect(store.state.isLocked == false)
    #expect(store.state.failedAttempts == 0)
    #expect(store.state.isLoginButtonEnabled == true)
  }

  @Test func theAnswerIsThereWhileTheAlertAndTheLockoutStillRun() async {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
    fakes.alertPresenter.respondToNext(.hold)
    let store = Store(
      login: LoginState(username: "demo", password: "wr0nG", failedAttempts: 4),
      dependencies: fakes.dependencies)

    let login = store.send(.loginButtonTapped)
    let answered = await store.state(where: { !$0.isLoading })
    #expect(answered?.isLocked == true)
    #expect(answered?.failedAttempts == 5)
    // What `login.finish()` would still wait for: the alert until it is closed, and the
    // lockout's 30 seconds, which pass on a test clock only when the test advances it.
    #expect(
      await fakes.alertPresenter.waitForHeldAlert(timeout: .seconds(10))?.title
        == "Sign-in locked")
    #expect(await fakes.clock.waitForSleepers(1))
    fakes.alertPresenter.release()
    await fakes.clock.advance(by: .seconds(30))
    #expect(await login.finish(within: .seconds(60)), "effects still running after a minute")
    #expect(store.state.isLocked == false)
  }
}
