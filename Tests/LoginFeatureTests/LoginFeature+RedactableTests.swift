import LoginFeature
import StateStore
import Testing

struct LoginRedactionTests {
  static let ada = User(id: "2", username: "ada@example.com", displayName: "Ada Lovelace")

  @Test func usernamesKeepTheirShapeAndTheCharactersTheEmailRulesRead() {
    let state = LoginState(rules: .email, username: " ada@example.com", password: "Engine1843")
    let redacted = state.redacted(.usernames)
    #expect(redacted.username == " aaa@aaaaaaa.aaa")
    #expect(redacted.password == "Engine1843")
    #expect(redacted.validationErrors == state.validationErrors)
    #expect(redacted.redacted(.usernames) == redacted)
    #expect(state.redacted([]) == state)
  }

  @Test func invalidUsernamesStayInvalidUnderEveryRule() {
    for rules in [CredentialRules.default, .email, .minimumLength(6)] {
      for name in ["", "a", "@ada.org", "ada@example", "x@y.z", "elevenchars", "👩‍👩‍👧 é"] {
        let state = LoginState(rules: rules, username: name, password: "Secr3t")
        #expect(state.redacted(.usernames).validationErrors == state.validationErrors)
      }
    }
  }

  @Test func theSignedInUserIsMaskedInStateActionsAndEffects() {
    let masked = User(id: "2", username: "aaa@aaaaaaa.aaa", displayName: "Aaa Aaaaaaaa")
    let session = Session(user: Self.ada, token: "tok-1")
    let state = LoginState(username: "ada@example.com", user: Self.ada)
    #expect(state.redacted(.usernames).user == masked)
    #expect(
      LoginAction.loginResponse(attempt: 3, .success(session)).redacted(.usernames)
        == .loginResponse(attempt: 3, .success(Session(user: masked, token: "tok-1"))))
    #expect(LoginAction.usernameChanged("ada").redacted(.usernames) == .usernameChanged("aaa"))
    #expect(LoginAction.passwordChanged("Pw1").redacted(.usernames) == .passwordChanged("Pw1"))
    #expect(
      LoginEffect.saveSession(session).redacted(.usernames)
        == .saveSession(Session(user: masked, token: "tok-1")))
    #expect(
      LoginEffect.route(.push(.home(Self.ada))).redacted(.usernames)
        == .route(.push(.home(masked))))
    #expect(
      LoginEffect.authenticate(Credentials(username: "demo", password: "Pw1"), attempt: 1)
        .redacted(.usernames)
        == .authenticate(Credentials(username: "aaaa", password: "Pw1"), attempt: 1))
    #expect(LoginEffect.route(.popToRoot).redacted(.usernames) == .route(.popToRoot))
  }

  @Test func reducingARedactedActionGivesTheRedactedState() {
    let reducer = LoginReducer()
    var clear = LoginState(username: "demo", password: "Secr3t", isLoading: true, attemptID: 1)
    var masked = clear.redacted(.usernames)
    let session = Session(user: User(id: "1", username: "demo"), token: "t")
    let action = LoginAction.loginResponse(attempt: 1, .success(session))
    let clearEffects = reducer.reduce(into: &clear, action: action)
    let maskedEffects = reducer.reduce(into: &masked, action: action.redacted(.usernames))
    #expect(masked == clear.redacted(.usernames))
    #expect(maskedEffects == clearEffects.map { $0.redacted(.usernames) })
  }

  @Test func theFeatureNameOfLoginLogsIsLogin() {
    #expect(LoginReducer.actionLogFeature == "login")
  }
}
