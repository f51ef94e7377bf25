import Foundation
import LoginFeature
import StateStore
import Testing

struct LoginStateTests {
  @Test func theDefaultStateIsTheEmptyFormUnderTheDefaultRules() {
    let state = LoginState()
    #expect(state.username == "")
    #expect(state.password == "")
    #expect(state.isLoading == false)
    #expect(state.failedAttempts == 0)
    #expect(state.isLocked == false)
    #expect(state.attemptID == 0)
    #expect(state.user == nil)
    #expect(state.rules == .default)
    #expect(state.isFormValid == false)
    #expect(state.isLoginButtonEnabled == false)
  }

  @Test func theButtonIsEnabledOnlyWhenValidIdleAndUnlocked() {
    let valid = LoginState(username: "demo", password: "Secr3t")
    #expect(valid.isLoginButtonEnabled == true)
    #expect(
      LoginState(username: "demo", password: "Secr3t", isLoading: true).isLoginButtonEnabled
        == false)
    #expect(
      LoginState(username: "demo", password: "Secr3t", isLocked: true).isLoginButtonEnabled == false
    )
    #expect(LoginState(username: "d", password: "Secr3t").isLoginButtonEnabled == false)
  }

  @Test func validationMessagesFollowTheErrorsInOrder() {
    let state = LoginState(rules: .minimumLength(6), username: "abc", password: "abc")
    #expect(state.validationErrors == [.invalidUsernameLength, .invalidPasswordLength])
    #expect(
      state.validationMessages == [
        "Username must be at least 6 characters", "Password must be at least 6 characters",
      ])
  }

  @Test func aStateDumpShowsThePasswordMaskOnly() {
    let state = LoginState(username: "demo", password: "Secr3t", user: Fixtures.demo)
    let text = Dump.render(state)
    #expect(!text.contains("Secr3t"))
    #expect(
      text == """
        LoginState(
          username: "demo",
          password: Secret(Aaaa0a),
          isLoading: false,
          failedAttempts: 0,
          isLocked: false,
          attemptID: 0,
          user: User(
            id: "1",
            username: "demo",
            displayName: "Demo User",
            email: nil
          ),
          rules: CredentialRules(
            kind: CredentialRules.Kind.default,
            maxAttempts: 5,
            lockoutDuration: 30 seconds
          ),
          twoFactor: nil,
          notice: nil,
          lockedFor: nil,
          passwordReset: nil,
          isRestoring: false,
          isUsernameEdited: false,
          isPasswordEdited: false,
          wasSubmitTried: false
        )
        """)
  }

  /// What a dump, a test failure and a debugger show of each state is every field the state
  /// encodes, under the names a test writes: a field added to a state but not to its
  /// `customMirror` fails here.
  @Test func aStatesMirrorShowsEveryEncodedFieldUnderTheNameATestWrites() throws {
    let renamed = [
      "restoring": "isRestoring", "usernameEdited": "isUsernameEdited",
      "passwordEdited": "isPasswordEdited", "submitTried": "wasSubmitTried",
      "emailEdited": "isEmailEdited", "resent": "wasCodeResent",
    ]
    func keys(_ value: some Encodable) throws -> Set<String> {
      let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
      return Set(((object as? [String: Any]) ?? [:]).keys.map { renamed[$0] ?? $0 })
    }
    func labels(_ value: Any) -> Set<String> {
      Set(Mirror(reflecting: value).children.compactMap(\.label))
    }
    var twoFactor = TwoFactorState(challenge: Challenge(id: "c", destination: "x"))
    twoFactor.outcome = .cancelled
    twoFactor.wasCodeResent = true
    var reset = PasswordResetState(linkSentTo: "ada@example.com", outcome: .closed)
    reset.isEmailEdited = true
    reset.wasSubmitTried = true
    var state = LoginState(
      user: Fixtures.demo, twoFactor: twoFactor, notice: "n", lockedFor: .seconds(1),
      isRestoring: true)
    state.passwordReset = reset
    state.isUsernameEdited = true
    state.isPasswordEdited = true
    state.wasSubmitTried = true
    #expect(try keys(state) == labels(state))
    #expect(try keys(twoFactor) == labels(twoFactor))
    #expect(try keys(reset) == labels(reset))
    #expect(labels(state).isSuperset(of: ["isUsernameEdited", "wasSubmitTried"]))
    let failure = Dump.diff(of: LoginState(), and: state) ?? ""
    #expect(
      failure.split(separator: "\n").contains {
        $0.hasPrefix("+") && $0.contains("wasSubmitTried: true")
      })
    #expect(!failure.contains("submitTried: nil"))
  }

  @Test func actionsAndEffectsDumpWithTheirCaseNamesAndMasks() {
    #expect(Dump.render(LoginAction.loginButtonTapped) == "LoginAction.loginButtonTapped")
    #expect(
      Dump.render(LoginAction.edit(.set(\.username, to: "demo")))
        == #"LoginAction.edit(set(username: "demo"))"#)
    #expect(
      Dump.render(LoginAction.edit(.set(\.password, to: "Secr3t")))
        == "LoginAction.edit(set(password: Secret(Aaaa0a)))")
    let effect = LoginEffect.authenticate(Fixtures.credentials, attempt: 1)
    let text = Dump.render(effect)
    #expect(!text.contains("Secr3t"))
    #expect(text.contains("password: Secret(Aaaa0a)"))
    #expect(text.hasPrefix("LoginEffect.authenticate("))
    #expect(!Dump.render(LoginEffect.saveSession(Fixtures.session)).contains("demo-token-1"))
  }

  @Test func aStateRoundTripsThroughJSONWithTheSecretMasked() throws {
    let state = LoginState(
      rules: .minimumLength(6), username: "ada", password: "Secr3t", isLoading: true,
      failedAttempts: 2, isLocked: false, attemptID: 4, user: Fixtures.demo)
    let data = try JSONEncoder().encode(state)
    let json = String(decoding: data, as: UTF8.self)
    #expect(!json.contains("Secr3t"))
    #expect(json.contains("Aaaa0a"))
    let decoded = try JSONDecoder().decode(LoginState.self, from: data)
    #expect(decoded.password == Secret("Aaaa0a"))
    var expected = state
    expected.password = "Aaaa0a"
    #expect(decoded == expected)
    #expect(decoded.validationErrors == state.validationErrors)
  }

  @Test func actionsAndEffectsRoundTripThroughJSON() throws {
    let actions: [LoginAction] = [
      .edit(.set(\.username, to: "demo")), .edit(.set(\.password, to: "Aaaa0a")),
      .loginButtonTapped,
      .cancelButtonTapped, .loginResponse(attempt: 2, .success(Fixtures.session)),
      .loginResponse(attempt: 3, .failure(.wrongStatusCode(503))),
      .loginResponse(attempt: 4, .failure(.transport("offline"))), .alertButtonTapped("ok"),
      .alertButtonTapped(nil), .lockoutEnded, .logoutButtonTapped,
    ]
    let decodedActions = try JSONDecoder().decode(
      [LoginAction].self, from: JSONEncoder().encode(actions))
    var maskedActions = actions
    maskedActions[4] = .loginResponse(
      attempt: 2, .success(Session(user: Fixtures.demo, token: Secret(Fixtures.session.token.mask)))
    )
    #expect(decodedActions == maskedActions)

    let effects: [LoginEffect] = [
      .authenticate(Credentials(username: "demo", password: "Aaaa0a"), attempt: 1),
      .cancelAuthentication, .route(.push(.home(Fixtures.demo))), .route(.popToRoot),
      .route(.present(.login)), .route(.dismiss), .route(.pop),
      .showAlert(Alert(title: "Couldn't sign in", message: "Incorrect username or password")),
      .startLockoutTimer(.seconds(30)), .clearSession,
    ]
    let decodedEffects = try JSONDecoder().decode(
      [LoginEffect].self, from: JSONEncoder().encode(effects))
    #expect(decodedEffects == effects)
  }

  @Test func effectsDeclareTheirCancellationGroups() {
    #expect(
      LoginEffect.authenticate(Fixtures.credentials, attempt: 1).cancellation
        == .group("login.authenticate", cancelInFlight: true))
    #expect(LoginEffect.cancelAuthentication.cancellation == .cancels("login.authenticate"))
    #expect(
      LoginEffect.startLockoutTimer(.seconds(30)).cancellation
        == .group("login.lockout", cancelInFlight: true))
    #expect(LoginEffect.route(.pop).cancellation == .none)
    #expect(LoginEffect.showAlert(Alert(title: "t", message: "m")).cancellation == .none)
    #expect(LoginEffect.saveSession(Fixtures.session).cancellation == .none)
    #expect(LoginEffect.clearSession.cancellation == .none)
  }

  @Test func serviceErrorsHaveUserFacingMessages() {
    let errors: [LoginServiceError] = [
      .invalidCredentials, .nilData, .wrongStatusCode(503), .decodingFailed, .timeout,
      .transport("offline"), .cancelled,
    ]
    #expect(
      errors.map(\.message) == [
        "Incorrect username or password",
        "The server sent an empty answer. Please try again.",
        "The server could not handle the request. Please try again later.",
        "The server's answer could not be read. Please try again later.",
        "The server took too long to answer. Please try again.",
        "Could not reach the server (offline). Please check your connection.",
        "The login was cancelled.",
      ])
    // What a person reads names no HTTP status; the error keeps it, and so does the log.
    for error in [LoginServiceError.wrongStatusCode(503), .redirected(status: 307)] {
      #expect(!error.message.contains("503") && !error.message.contains("307"))
      #expect(!error.message.contains("status"))
    }
  }
}
