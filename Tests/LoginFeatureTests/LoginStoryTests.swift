import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// Whole login flows as story snapshots: every step, every effect and what the fakes performed.
@MainActor struct LoginStoryTests {
  @Test func twoFailuresOneSuccessAndALogout() async {
    let demo = Fixtures.demo
    let session = Fixtures.session
    let fakes = LoginFakes(results: [
      .failure(.invalidCredentials), .failure(.wrongStatusCode(500)), .success(session),
    ])
    let store = TestStore(login: LoginState(), fakes: fakes)
    let wrong = Credentials(username: "demo", password: "Wr0ng")
    let right = Credentials(username: "demo", password: "Secr3t")

    await store.send(.edit(.set(\.username, to: "demo")), effects: []) {
      $0.username = "demo"
      $0.isUsernameEdited = true
    }
    await store.send(.edit(.set(\.password, to: "Wr0ng")), effects: []) {
      $0.password = "Wr0ng"
      $0.isPasswordEdited = true
    }
    await store.send(.loginButtonTapped, effects: [.authenticate(wrong, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    let invalid = Alert(title: "Couldn't sign in", message: "Incorrect username or password")
    await store.receive(
      .loginResponse(attempt: 1, .failure(.invalidCredentials)),
      effects: [
        .showAlert(invalid),
        .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
      ]
    ) {
      $0.isLoading = false
      $0.failedAttempts = 1
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])

    await store.send(.edit(.set(\.password, to: "Secr3t")), effects: []) {
      $0.password = "Secr3t"
      $0.isPasswordEdited = true
    }
    await store.send(.loginButtonTapped, effects: [.authenticate(right, attempt: 2)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 2
    }
    let serverError = Alert(
      title: "Couldn't sign in",
      message: "The server could not handle the request. Please try again later.")
    await store.receive(
      .loginResponse(attempt: 2, .failure(.wrongStatusCode(500))),
      effects: [.showAlert(serverError)]
    ) {
      $0.isLoading = false
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])

    let success = await store.send(.loginButtonTapped, effects: [.authenticate(right, attempt: 3)])
    {
      $0.isLoading = true
      $0.attemptID = 3
    }
    await store.receive(
      .loginResponse(attempt: 3, .success(session)),
      effects: [
        .saveSession(session), .route(.push(.home(demo))),
        .updateLockout(.reset),
      ]
    ) {
      $0.isLoading = false
      $0.failedAttempts = 0
      $0.user = demo
    }
    // The router runs on the main actor, like this test: let it push before the user logs out,
    // so the story shows the push before the logout.
    #expect(await success.finish(within: .seconds(60)), "effects still running after a minute")

    await store.send(.logoutButtonTapped, effects: [.clearSession, .route(.popToRoot)]) {
      $0.password = ""
      $0.user = nil
      $0.isUsernameEdited = false
      $0.isPasswordEdited = false
      $0.wasSubmitTried = false
    }
    await store.finish()

    #expect(fakes.router.commands == [.push(.home(demo)), .popToRoot])
    #expect(fakes.alertPresenter.alerts == [invalid, serverError])
    #expect(fakes.api.requests == [wrong, right, right])
    #expect(await fakes.sessionStore.load() == nil)
    store.assertStory()
  }
}
