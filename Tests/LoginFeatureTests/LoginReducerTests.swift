import LoginFeature
import StateStore
import Testing

struct LoginReducerTests {
  private let reducer = LoginReducer()
  private let demo = Fixtures.demo
  private let session = Fixtures.session

  private func reduce(_ state: inout LoginState, _ action: LoginAction) -> [LoginEffect] {
    reducer.reduce(into: &state, action: action)
  }

  /// A valid form with a request in flight for attempt 1.
  private func loadingState() -> LoginState {
    var state = LoginState(username: "demo", password: "Secr3t")
    _ = reduce(&state, .loginButtonTapped)
    return state
  }

  // MARK: - Typing

  @Test func typingUpdatesTheFieldsAndTheButtonFollowsEveryKeystroke() {
    var state = LoginState()
    #expect(state.isLoginButtonEnabled == false)

    #expect(reduce(&state, .edit(.set(\.username, to: "demo"))) == [])
    #expect(state.username == "demo")
    #expect(state.isLoginButtonEnabled == false)

    #expect(reduce(&state, .edit(.set(\.password, to: "Secr3"))) == [])
    #expect(state.isLoginButtonEnabled == true)

    #expect(reduce(&state, .edit(.set(\.password, to: "secr3"))) == [])
    #expect(state.password == "secr3")
    #expect(state.validationErrors == [.invalidPasswordCharacters])
    #expect(state.isLoginButtonEnabled == false)

    #expect(reduce(&state, .edit(.set(\.username, to: "d"))) == [])
    #expect(state.validationErrors == [.invalidUsernameLength, .invalidPasswordCharacters])
  }

  // MARK: - Login tapped

  @Test func loginWithAValidFormStartsAuthenticationForANewAttempt() {
    var state = LoginState(username: "demo", password: "Secr3t")
    let effects = reduce(&state, .loginButtonTapped)
    #expect(effects == [.authenticate(Fixtures.credentials, attempt: 1)])
    var expected = LoginState(username: "demo", password: "Secr3t", isLoading: true, attemptID: 1)
    expected.wasSubmitTried = true
    #expect(state == expected)
    #expect(state.isLoginButtonEnabled == false)
  }

  @Test func loginSendsTheUsernameWithoutSurroundingWhitespace() {
    var state = LoginState(username: "  demo \n", password: "Secr3t")
    #expect(reduce(&state, .loginButtonTapped) == [.authenticate(Fixtures.credentials, attempt: 1)])
    #expect(state.username == "  demo \n")
  }

  @Test func loginWhileLoadingDoesNothing() {
    var state = loadingState()
    let before = state
    #expect(reduce(&state, .loginButtonTapped) == [])
    #expect(state == before)
  }

  @Test func loginWhileLockedDoesNothing() {
    var state = LoginState(username: "demo", password: "Secr3t", failedAttempts: 5, isLocked: true)
    let before = state
    #expect(reduce(&state, .loginButtonTapped) == [])
    #expect(state == before)
  }

  @Test func loginWhileSignedInDoesNothing() {
    var state = LoginState(username: "demo", password: "Secr3t", attemptID: 1, user: demo)
    let before = state
    #expect(reduce(&state, .loginButtonTapped) == [])
    #expect(state == before)
  }

  @Test func loginWithAnEmptyFormListsEveryBrokenRuleAndCallsNoAPI() {
    var state = LoginState()
    let effects = reduce(&state, .loginButtonTapped)
    let alert = Alert(
      title: "Validation Errors",
      message: """
        Username must be 2 to 10 characters
        Password must be at least 3 characters
        Password needs an uppercase letter and a digit
        """)
    #expect(effects == [.showAlert(alert)])
    #expect(alert.buttons == [AlertButton(id: "ok", title: "OK", role: .cancel)])
    // Nothing changes but that every field's hints show from now on.
    var expected = LoginState()
    expected.wasSubmitTried = true
    #expect(state == expected)
  }

  @Test func loginWithAWhitespaceOnlyUsernameShowsTheLengthRule() {
    var state = LoginState(username: "   ", password: "Secr3t")
    let effects = reduce(&state, .loginButtonTapped)
    let alert = Alert(title: "Validation Errors", message: "Username must be 2 to 10 characters")
    #expect(effects == [.showAlert(alert)])
    #expect(state.isLoading == false)
    #expect(state.attemptID == 0)
  }

  @Test func validationAlertUsesTheEmailRulesMessages() {
    var state = LoginState(rules: .email, username: " ", password: "12345678")
    let alert = Alert(
      title: "Validation Errors",
      message: "Email can't be empty\nPassword must be longer than 8 characters")
    #expect(reduce(&state, .loginButtonTapped) == [.showAlert(alert)])

    state.username = "not-an-email"
    let invalid = Alert(
      title: "Validation Errors",
      message: "Email is not valid\nPassword must be longer than 8 characters")
    #expect(reduce(&state, .loginButtonTapped) == [.showAlert(invalid)])
  }

  @Test func validationAlertUsesTheMinimumLengthLimits() {
    var state = LoginState(rules: .minimumLength(6), username: "abcde", password: "12345")
    let alert = Alert(
      title: "Validation Errors",
      message: "Username must be at least 6 characters\nPassword must be at least 6 characters")
    #expect(reduce(&state, .loginButtonTapped) == [.showAlert(alert)])
  }

  // MARK: - Responses

  @Test func successStoresTheUserSavesTheSessionAndRoutesHome() {
    var state = loadingState()
    state.failedAttempts = 3
    let effects = reduce(&state, .loginResponse(attempt: 1, .success(session)))
    // The three failures kept for the next launch are cleared with the success.
    #expect(
      effects == [
        .saveSession(session), .route(.push(.home(demo))),
        .updateLockout(.reset),
      ])
    var expected = LoginState(username: "demo", password: "Secr3t", attemptID: 1, user: demo)
    expected.wasSubmitTried = true
    #expect(state == expected)
  }

  @Test func invalidCredentialsShowAnErrorAndCountAFailedAttempt() {
    var state = loadingState()
    let effects = reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials)))
    #expect(
      effects == [
        .showAlert(Alert(title: "Couldn't sign in", message: "Incorrect username or password")),
        .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
      ])
    #expect(state.isLoading == false)
    #expect(state.failedAttempts == 1)
    #expect(state.isLocked == false)
    #expect(state.user == nil)
    #expect(state.isLoginButtonEnabled == true)
  }

  @Test(
    arguments: [
      LoginServiceError.nilData, .wrongStatusCode(500), .decodingFailed, .timeout,
      .transport("offline"),
    ])
  func otherFailuresShowTheirMessageWithoutCountingAnAttempt(error: LoginServiceError) {
    var state = loadingState()
    let effects = reduce(&state, .loginResponse(attempt: 1, .failure(error)))
    #expect(effects == [.showAlert(Alert(title: "Couldn't sign in", message: error.message))])
    #expect(state.isLoading == false)
    #expect(state.failedAttempts == 0)
  }

  @Test func aCancelledResponseStopsLoadingAndShowsNothing() {
    var state = loadingState()
    #expect(reduce(&state, .loginResponse(attempt: 1, .failure(.cancelled))) == [])
    #expect(state.isLoading == false)
    #expect(state.failedAttempts == 0)
  }

  // MARK: - Lockout

  @Test func theFifthFailedAttemptLocksTheFormAndStartsTheTimer() {
    var state = LoginState(username: "demo", password: "wr0nG")
    for attempt in 1...4 {
      #expect(
        reduce(&state, .loginButtonTapped) == [
          .authenticate(
            Credentials(username: "demo", password: "wr0nG"), attempt: attempt)
        ])
      _ = reduce(&state, .loginResponse(attempt: attempt, .failure(.invalidCredentials)))
      #expect(state.failedAttempts == attempt)
      #expect(state.isLocked == false)
    }
    _ = reduce(&state, .loginButtonTapped)
    let effects = reduce(&state, .loginResponse(attempt: 5, .failure(.invalidCredentials)))
    let alert = Alert(
      title: "Sign-in locked",
      message:
        "Maximum number of retries exceeded. The form is locked for 30 seconds. Please try again later."
    )
    #expect(
      effects == [
        .showAlert(alert), .startLockoutTimer(.seconds(30)),
        .updateLockout(.failedAttempt(counted: 5, lockingAt: 5, lockFor: .seconds(30))),
      ])
    #expect(state.failedAttempts == 5)
    #expect(state.lockedFor == .seconds(30))
    #expect(state.isLocked == true)
    #expect(state.isLoading == false)
    #expect(state.isFormValid == true)
    #expect(state.isLoginButtonEnabled == false)
    #expect(reduce(&state, .loginButtonTapped) == [])
  }

  @Test func lockoutEndedUnlocksTheFormAndResetsTheCount() {
    var state = LoginState(
      username: "demo", password: "Secr3t", failedAttempts: 5, isLocked: true,
      lockedFor: .seconds(30))
    #expect(reduce(&state, .lockoutEnded) == [.updateLockout(.reset)])
    #expect(state == LoginState(username: "demo", password: "Secr3t"))
    #expect(state.isLoginButtonEnabled == true)
    #expect(reduce(&state, .loginButtonTapped) == [.authenticate(Fixtures.credentials, attempt: 1)])
  }

  @Test func lockoutEndedWhenNotLockedChangesNothing() {
    var state = LoginState(username: "demo", failedAttempts: 2)
    #expect(reduce(&state, .lockoutEnded) == [])
    #expect(state == LoginState(username: "demo", failedAttempts: 2))
  }

  @Test func theRulesDecideTheAttemptLimitAndTheLockoutDuration() {
    let rules = CredentialRules(maxAttempts: 2, lockoutDuration: .seconds(1))
    var state = LoginState(rules: rules, username: "demo", password: "Secr3t", failedAttempts: 1)
    _ = reduce(&state, .loginButtonTapped)
    let effects = reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials)))
    let alert = Alert(
      title: "Sign-in locked",
      message:
        "Maximum number of retries exceeded. The form is locked for 1 second. Please try again later."
    )
    #expect(
      effects == [
        .showAlert(alert), .startLockoutTimer(.seconds(1)),
        .updateLockout(.failedAttempt(counted: 2, lockingAt: 2, lockFor: .seconds(1))),
      ])
    #expect(state.isLocked == true)
  }

  @Test(arguments: [
    (Duration.milliseconds(1_140), "1.14 seconds"),
    (.milliseconds(250), "250 milliseconds"),
    (.seconds(90), "1 minute 30 seconds"),
    (.milliseconds(59_999), "59.999 seconds"),
  ])
  func theLockoutAlertWritesItsDurationTheWayAPersonWould(duration: Duration, words: String) {
    let rules = CredentialRules(maxAttempts: 1, lockoutDuration: duration)
    var state = LoginState(rules: rules, username: "demo", password: "Secr3t")
    _ = reduce(&state, .loginButtonTapped)
    let effects = reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials)))
    let alert = Alert(
      title: "Sign-in locked",
      message:
        "Maximum number of retries exceeded. The form is locked for \(words). Please try again later."
    )
    #expect(
      effects == [
        .showAlert(alert), .startLockoutTimer(duration),
        .updateLockout(.failedAttempt(counted: 1, lockingAt: 1, lockFor: duration)),
      ])
  }

  @Test func failuresOtherThanInvalidCredentialsNeverLock() {
    var state = LoginState(username: "demo", password: "Secr3t", failedAttempts: 4)
    _ = reduce(&state, .loginButtonTapped)
    _ = reduce(&state, .loginResponse(attempt: 1, .failure(.timeout)))
    #expect(state.failedAttempts == 4)
    #expect(state.isLocked == false)
  }

  // MARK: - Cancel and stale responses

  @Test func cancelWhileLoadingCancelsTheRequest() {
    var state = loadingState()
    #expect(reduce(&state, .cancelButtonTapped) == [.cancelAuthentication])
    var expected = LoginState(username: "demo", password: "Secr3t", attemptID: 1)
    expected.wasSubmitTried = true
    #expect(state == expected)
  }

  @Test func cancelWhileIdleDoesNothing() {
    var state = LoginState(username: "demo")
    #expect(reduce(&state, .cancelButtonTapped) == [])
    #expect(state == LoginState(username: "demo"))
  }

  @Test func aResponseAfterCancelChangesNothing() {
    var state = loadingState()
    _ = reduce(&state, .cancelButtonTapped)
    let cancelled = state
    #expect(reduce(&state, .loginResponse(attempt: 1, .success(session))) == [])
    #expect(reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials))) == [])
    #expect(state == cancelled)
  }

  @Test func aResponseForAnOlderAttemptChangesNothing() {
    var state = loadingState()
    _ = reduce(&state, .cancelButtonTapped)
    #expect(reduce(&state, .loginButtonTapped) == [.authenticate(Fixtures.credentials, attempt: 2)])
    let loading = state

    #expect(reduce(&state, .loginResponse(attempt: 1, .success(session))) == [])
    #expect(reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials))) == [])
    #expect(state == loading)

    let effects = reduce(&state, .loginResponse(attempt: 2, .success(session)))
    #expect(effects == [.saveSession(session), .route(.push(.home(demo)))])
    #expect(state.user == demo)
  }

  @Test func aSecondResponseForTheSameAttemptChangesNothing() {
    var state = loadingState()
    _ = reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials)))
    let answered = state
    #expect(reduce(&state, .loginResponse(attempt: 1, .failure(.invalidCredentials))) == [])
    #expect(state == answered)
  }

  // MARK: - Alerts and logout

  @Test func alertButtonTapsAreAcknowledgedWithoutChanges() {
    var state = LoginState(username: "demo", failedAttempts: 1)
    #expect(reduce(&state, .alertButtonTapped("ok")) == [])
    #expect(reduce(&state, .alertButtonTapped(nil)) == [])
    #expect(state == LoginState(username: "demo", failedAttempts: 1))
  }

  @Test func logoutClearsTheSessionRoutesBackAndKeepsOnlyTheUsername() {
    var state = LoginState(
      rules: .email, username: "demo", password: "Secr3t", attemptID: 3, user: demo)
    let effects = reduce(&state, .logoutButtonTapped)
    #expect(effects == [.clearSession, .route(.popToRoot)])
    #expect(state == LoginState(rules: .email, username: "demo", attemptID: 3))
  }

  @Test func logoutWhenSignedOutDoesNothing() {
    var state = LoginState(username: "demo", password: "Secr3t")
    #expect(reduce(&state, .logoutButtonTapped) == [])
    #expect(state == LoginState(username: "demo", password: "Secr3t"))
  }

  @Test func aResponseForTheAttemptBeforeLogoutChangesNothing() {
    var state = loadingState()
    _ = reduce(&state, .loginResponse(attempt: 1, .success(session)))
    _ = reduce(&state, .logoutButtonTapped)
    #expect(reduce(&state, .loginResponse(attempt: 1, .success(session))) == [])
    #expect(state.user == nil)
  }

  @Test func wrongCredentialsUnderTheEmailRulesSpeakOfTheEmail() {
    var state = LoginState(rules: .email, username: "ada@example.com", password: "Engine18430")
    _ = LoginReducer().reduce(into: &state, action: .loginButtonTapped)
    let effects = LoginReducer().reduce(
      into: &state, action: .loginResponse(attempt: 1, .failure(.invalidCredentials)))
    #expect(
      effects.first
        == .showAlert(Alert(title: "Couldn't sign in", message: "Incorrect email or password")))
  }
}
