import ActionLog
import AppFeature
import Foundation
import LoginFeature
import StateStore
import Testing

/// Masking by type: every `PersonalData` in a state, an action or an effect, at any depth, is
/// masked by an encoder asked to, with no redaction code in the features.
struct PersonalDataMaskingTests {
  static let ada = User(id: "2", username: "ada@example.com", displayName: "Ada Lovelace")
  static let masked = User(id: "2", username: "aaa@aaaaaaa.aaa", displayName: "Aaa Aaaaaaaa")

  @Test func usernamesKeepTheirShapeAndTheCharactersTheEmailRulesRead() throws {
    let state = LoginState(rules: .email, username: " ada@example.com", password: "Engine1843")
    let masked = try PersonalData.masking(in: state)
    #expect(masked.username == " aaa@aaaaaaa.aaa")
    #expect(masked.password.mask == state.password.mask)
    #expect(masked.validationErrors == state.validationErrors)
    #expect(try PersonalData.masking(in: masked) == masked)
  }

  @Test func invalidUsernamesStayInvalidUnderEveryRule() throws {
    for rules in [CredentialRules.default, .email, .minimumLength(6)] {
      for name in ["", "a", "@ada.org", "ada@example", "x@y.z", "elevenchars", "👩‍👩‍👧 é", "a..b@c"] {
        let state = LoginState(rules: rules, username: PersonalData(name), password: "Secr3t")
        #expect(try PersonalData.masking(in: state).validationErrors == state.validationErrors)
      }
    }
  }

  @Test func theSignedInUserIsMaskedInStateActionsAndEffects() throws {
    let session = Session(user: Self.ada, token: "tok-1")
    let maskedSession = Session(user: Self.masked, token: "aaa*0")
    let state = LoginState(username: "ada@example.com", user: Self.ada)
    #expect(try PersonalData.masking(in: state).user == Self.masked)
    #expect(
      try PersonalData.masking(in: LoginAction.loginResponse(attempt: 3, .success(session)))
        == .loginResponse(attempt: 3, .success(maskedSession)))
    #expect(
      try PersonalData.masking(in: LoginAction.edit(.set(\.username, to: "ada")))
        == .edit(.set(\.username, to: "aaa")))
    #expect(
      try PersonalData.masking(in: LoginEffect.saveSession(session)) == .saveSession(maskedSession))
    #expect(
      try PersonalData.masking(in: LoginEffect.route(.push(.home(Self.ada))))
        == .route(.push(.home(Self.masked))))
    #expect(
      try PersonalData.masking(
        in: LoginEffect.authenticate(Credentials(username: "demo", password: "Pw1"), attempt: 1))
        == .authenticate(Credentials(username: "aaaa", password: "Aa0"), attempt: 1))
    #expect(try PersonalData.masking(in: LoginEffect.route(.popToRoot)) == .route(.popToRoot))
  }

  @Test func theAppsChildrenAreMaskedWithoutRedactionCodeOfTheirOwn() throws {
    let profile = Profile(displayName: "Ada Lovelace", unreadMessages: 3, plan: "Team")
    #expect(
      try PersonalData.masking(in: AppAction.home(.profileLoaded(profile)))
        == .home(
          .profileLoaded(Profile(displayName: "Aaa Aaaaaaaa", unreadMessages: 3, plan: "Team"))))
    let state = AppState(home: HomeState(user: Self.ada, profile: profile))
    let maskedState = try PersonalData.masking(in: state)
    #expect(maskedState.home?.user == Self.masked)
    #expect(maskedState.home?.profile?.displayName == "Aaa Aaaaaaaa")
    #expect(
      try PersonalData.masking(in: AppEffect.home(.loadProfile(Self.ada)))
        == .home(.loadProfile(Self.masked)))
  }

  @Test func reducingAMaskedActionGivesTheMaskedState() throws {
    let reducer = LoginReducer()
    var clear = LoginState(username: "demo", password: "Secr3t", isLoading: true, attemptID: 1)
    var masked = try PersonalData.masking(in: clear)
    let session = Session(user: User(id: "1", username: "demo"), token: "t")
    let action = LoginAction.loginResponse(attempt: 1, .success(session))
    let clearEffects = reducer.reduce(into: &clear, action: action)
    let maskedEffects = reducer.reduce(into: &masked, action: try PersonalData.masking(in: action))
    #expect(masked == (try PersonalData.masking(in: clear)))
    #expect(maskedEffects == (try PersonalData.masking(in: clearEffects)))
  }

  @Test func thePasswordResetStepsAddressIsMaskedWhereverItSits() throws {
    let ada: PersonalData = "ada@example.com"
    let step = PasswordResetState(email: ada, linkSentTo: ada)
    let masked = try PersonalData.masking(in: step)
    #expect(masked.email == "aaa@aaaaaaa.aaa" && masked.linkSentTo == "aaa@aaaaaaa.aaa")
    #expect(masked.validationError == step.validationError)
    let typed = LoginAction.passwordReset(.edit(.set(\.email, to: ada)))
    #expect(
      try PersonalData.masking(in: typed)
        == .passwordReset(.edit(.set(\.email, to: "aaa@aaaaaaa.aaa"))))
    #expect(
      try PersonalData.masking(in: LoginEffect.passwordReset(.requestReset(email: ada, request: 1)))
        == .passwordReset(.requestReset(email: "aaa@aaaaaaa.aaa", request: 1)))
  }

  @Test func theFeatureNameOfLoginLogsIsLogin() {
    #expect(LoginReducer.actionLogFeature == "login")
  }
}
