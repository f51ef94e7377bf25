import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// The login screen's classic scenarios, end to end through a `TestStore` with the fakes:
/// every state change, every effect, the exact received actions, the routes, the alerts and the
/// API's requests.
@MainActor struct ClassicLoginFlowTests {
  private let demo = Fixtures.demo
  private let session = Fixtures.session
  private let credentials = Fixtures.credentials
  private let errorAlert = Alert(
    title: "Couldn't sign in", message: "Incorrect username or password")

  /// Types `username` and `password` into the form, asserting each keystroke's state.
  private func type(
    _ username: String,
    _ password: Secret,
    into store: TestStore<LoginReducer>
  ) async {
    await store.send(.edit(.set(\.username, to: PersonalData(username))), effects: []) {
      $0.username = PersonalData(username)
      $0.isUsernameEdited = true
    }
    await store.send(.edit(.set(\.password, to: password)), effects: []) {
      $0.password = password
      $0.isPasswordEdited = true
    }
  }

  private func validationAlert(_ messages: String...) -> Alert {
    Alert(title: "Validation Errors", message: messages.joined(separator: "\n"))
  }

  // MARK: - 1, 2: validation under the default rules

  @Test func aOneCharacterUsernameShowsTheValidationAlertAndNeverCallsTheAPI() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("d", "Secr3t", into: store)
    #expect(store.state.validationErrors == [.invalidUsernameLength])
    #expect(store.state.isLoginButtonEnabled == false)

    let alert = validationAlert("Username must be 2 to 10 characters")
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [])
  }

  @Test func aTwoCharacterPasswordIsTooShort() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "A1", into: store)
    #expect(store.state.validationErrors == [.invalidPasswordLength])

    let alert = validationAlert("Password must be at least 3 characters")
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [])
  }

  @Test(arguments: ["secr3t", "Secret"])
  func aPasswordWithoutAnUppercaseLetterOrADigitIsRejected(password: String) async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", Secret(password), into: store)
    #expect(store.state.validationErrors == [.invalidPasswordCharacters])

    let alert = validationAlert("Password needs an uppercase letter and a digit")
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [])
  }

  // MARK: - 3, 4: service failures

  @Test func invalidCredentialsShowTheErrorAlertAndStopTheSpinner() async {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "Secr3t", into: store)

    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(
      .loginResponse(attempt: 1, .failure(.invalidCredentials)),
      effects: [
        .showAlert(errorAlert),
        .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
      ]
    ) {
      $0.isLoading = false
      $0.failedAttempts = 1
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(store.state.isLoading == false)
    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: errorAlert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [credentials])
    #expect(Dump.render(fakes.api.requests).contains("Secr3t") == false)
  }

  @Test(
    arguments: zip(
      [LoginServiceError.nilData, .wrongStatusCode(500)],
      [
        "The server sent an empty answer. Please try again.",
        "The server could not handle the request. Please try again later.",
      ]))
  func aServerFailureShowsItsErrorAlertWithoutCountingAnAttempt(
    error: LoginServiceError,
    message: String
  ) async {
    let fakes = LoginFakes(results: [.failure(error)])
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "Secr3t", into: store)

    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    let alert = Alert(title: "Couldn't sign in", message: message)
    await store.receive(.loginResponse(attempt: 1, .failure(error)), effects: [.showAlert(alert)]) {
      $0.isLoading = false
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [credentials])
  }

  // MARK: - 5, 6: success and the spinner

  @Test func aSuccessfulLoginSavesTheSessionAndPushesHomeWithoutAnAlert() async {
    let fakes = LoginFakes(results: [.success(session)])
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "Secr3t", into: store)

    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(
      .loginResponse(attempt: 1, .success(session)),
      effects: [.saveSession(session), .route(.push(.home(demo)))]
    ) {
      $0.isLoading = false
      $0.user = demo
    }
    await store.finish()

    #expect(fakes.router.commands == [.push(.home(demo))])
    #expect(fakes.alertPresenter.history == [])
    #expect(fakes.api.requests == [credentials])
    #expect(await fakes.sessionStore.load() == session)
  }

  @Test func theSpinnerIsOnExactlyWhileTheRequestIsInFlight() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    var spinner: [Bool] = []
    let subscription = store.store.observe { spinner.append($0.isLoading) }
    await type("demo", "Secr3t", into: store)
    #expect(store.state.isLoading == false)

    fakes.api.holdNextCall()
    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    #expect(await fakes.api.waitForHeldCall() == credentials)
    #expect(store.state.isLoading == true)
    #expect(store.state.isLoginButtonEnabled == false)

    fakes.api.release(with: .success(session))
    await store.receive(
      .loginResponse(attempt: 1, .success(session)),
      effects: [.saveSession(session), .route(.push(.home(demo)))]
    ) {
      $0.isLoading = false
      $0.user = demo
    }
    await store.finish()
    subscription.cancel()

    #expect(store.state.isLoading == false)
    #expect(fakes.api.heldCallCount == 0)
    // username, password, tap (on), response (off): on once, off once.
    #expect(spinner == [false, false, true, false])
    #expect(fakes.router.commands == [.push(.home(demo))])
    #expect(fakes.alertPresenter.history == [])
    #expect(fakes.api.requests == [credentials])
  }

  // MARK: - 7: lockout

  @Test func fiveInvalidAttemptsLockTheFormUntilTheLockoutEnds() async {
    let fakes = LoginFakes(results: Array(repeating: .failure(.invalidCredentials), count: 5))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "Secr3t", into: store)

    for attempt in 1...4 {
      await store.send(
        .loginButtonTapped, effects: [.authenticate(credentials, attempt: attempt)]
      ) {
        $0.isLoading = true
        $0.wasSubmitTried = true
        $0.attemptID = attempt
      }
      await store.receive(
        .loginResponse(attempt: attempt, .failure(.invalidCredentials)),
        effects: [
          .showAlert(errorAlert),
          .updateLockout(.failedAttempt(counted: attempt, lockingAt: 5, lockFor: .seconds(30))),
        ]
      ) {
        $0.isLoading = false
        $0.failedAttempts = attempt
      }
      await store.receive(.alertButtonTapped("ok"), effects: [])
    }

    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 5)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 5
    }
    let lockout = Alert(
      title: "Sign-in locked",
      message:
        "Maximum number of retries exceeded. The form is locked for 30 seconds. Please try again later."
    )
    await store.receive(
      .loginResponse(attempt: 5, .failure(.invalidCredentials)),
      effects: [
        .showAlert(lockout), .startLockoutTimer(.seconds(30)),
        .updateLockout(.failedAttempt(counted: 5, lockingAt: 5, lockFor: .seconds(30))),
      ]
    ) {
      $0.isLoading = false
      $0.failedAttempts = 5
      $0.isLocked = true
      $0.lockedFor = .seconds(30)
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    #expect(store.state.isLoginButtonEnabled == false)

    // The disabled button does nothing, even if tapped.
    await store.send(.loginButtonTapped, effects: [])
    await fakes.clock.advance(by: .seconds(29))
    #expect(store.state.isLocked == true)
    #expect(fakes.clock.sleeperCount == 1)

    await fakes.clock.advance(by: .seconds(1))
    await store.receive(.lockoutEnded, effects: [.updateLockout(.reset)]) {
      $0.isLocked = false
      $0.failedAttempts = 0
      $0.lockedFor = nil
    }
    #expect(store.state.isLoginButtonEnabled == true)
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(
      fakes.alertPresenter.history
        == Array(repeating: .init(alert: errorAlert, outcome: .tapped(.ok)), count: 4)
        + [.init(alert: lockout, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == Array(repeating: credentials, count: 5))
  }

  // MARK: - 8, 9: other rule presets

  @Test func anEmptyEmailIsReportedInTheValidationAlert() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(rules: .email), fakes: fakes)
    await store.send(.edit(.set(\.password, to: "Engine1843")), effects: []) {
      $0.password = "Engine1843"
      $0.isPasswordEdited = true
    }
    #expect(store.state.validationErrors == [.emptyEmail])

    let alert = validationAlert("Email can't be empty")
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [])
  }

  @Test(arguments: ["ada.example.com", "ada@example", "@example.com", "  .ada@example"])
  func aMalformedEmailIsRejected(email: String) async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(rules: .email), fakes: fakes)
    await type(email, "Engine1843", into: store)
    #expect(store.state.validationErrors == [.invalidEmail])

    let alert = validationAlert("Email is not valid")
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])
    await store.finish()

    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [])
  }

  @Test func theMinimumLengthPresetNeedsSixCharactersInBothFields() async {
    let fakes = LoginFakes(results: [.success(session)])
    let store = TestStore(login: LoginState(rules: .minimumLength(6)), fakes: fakes)
    await type("short", "12345", into: store)
    #expect(store.state.validationErrors == [.invalidUsernameLength, .invalidPasswordLength])

    let alert = validationAlert(
      "Username must be at least 6 characters", "Password must be at least 6 characters")
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    await store.receive(.alertButtonTapped("ok"), effects: [])

    // Six characters each, no uppercase letter or digit needed.
    await type("sixsix", "abcdef", into: store)
    #expect(store.state.isLoginButtonEnabled == true)
    let valid = Credentials(username: "sixsix", password: "abcdef")
    await store.send(.loginButtonTapped, effects: [.authenticate(valid, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(
      .loginResponse(attempt: 1, .success(session)),
      effects: [.saveSession(session), .route(.push(.home(demo)))]
    ) {
      $0.isLoading = false
      $0.user = demo
    }
    await store.finish()

    #expect(fakes.router.commands == [.push(.home(demo))])
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(fakes.api.requests == [valid])
  }

  // MARK: - 10: cancel

  @Test func cancellingDuringTheRequestRoutesNothingAndIgnoresALateResponse() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "Secr3t", into: store)

    // The server answers even after the user cancelled.
    fakes.api.holdNextCall(honoringCancellation: false)
    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await fakes.api.waitForHeldCall()
    await store.send(.cancelButtonTapped, effects: [.cancelAuthentication]) {
      $0.isLoading = false
    }
    fakes.api.release(with: .success(session))
    // The same late answer, had it reached the store: stale, so it changes nothing.
    await store.send(.loginResponse(attempt: 1, .success(session)), effects: [])
    await store.finish()

    #expect(store.state.user == nil)
    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [])
    #expect(fakes.api.requests == [credentials])
    #expect(await fakes.sessionStore.load() == nil)
  }

  @Test func cancellingEndsTheHeldRequestAtOnceAndSendsNothing() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    await type("demo", "Secr3t", into: store)

    fakes.api.holdNextCall()
    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await fakes.api.waitForHeldCall()
    await store.send(.cancelButtonTapped, effects: [.cancelAuthentication]) {
      $0.isLoading = false
    }
    await store.finish()

    #expect(fakes.api.heldCallCount == 0)
    #expect(
      store.story.performedLines == [
        #"api.login(username: "demo", password: Secret(Aaaa0a)) → cancelled"#
      ])
    #expect(fakes.router.commands == [])
    #expect(fakes.alertPresenter.history == [])
    #expect(fakes.api.requests == [credentials])
  }
}
