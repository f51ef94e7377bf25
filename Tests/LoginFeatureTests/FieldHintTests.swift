import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// A field's hints (the ✗ lines under it) show once the person edited it or tried to submit,
/// on the form, the password-reset step and the form after logout — never on a screen nobody
/// has touched yet. The rules and their wording stay as they are.
@MainActor struct FieldHintTests {
  @Test func anUntouchedFormShowsNoHintsAndEachFieldShowsItsOwnOnceEdited() async {
    let store = TestStore(login: LoginState(), fakes: LoginFakes())
    #expect(store.state.validationMessages.count == 3)
    #expect(store.state.visibleValidationMessages == [])

    await store.send(.edit(.set(\.username, to: "d"))) {
      $0.username = "d"
      $0.isUsernameEdited = true
    }
    #expect(store.state.visibleValidationMessages == ["Username must be 2 to 10 characters"])

    await store.send(.edit(.set(\.password, to: "ab"))) {
      $0.password = "ab"
      $0.isPasswordEdited = true
    }
    #expect(
      store.state.visibleValidationMessages == [
        "Username must be 2 to 10 characters", "Password must be at least 3 characters",
        "Password needs an uppercase letter and a digit",
      ])
    // Editing a field to what it holds is no edit.
    await store.send(.edit(.set(\.password, to: "ab")))
    await store.finish()
  }

  @Test func aTapOnLoginShowsEveryFieldsHints() async {
    let alert = Alert(
      title: LoginReducer.validationAlertTitle,
      message: "Password must be longer than 8 characters")
    let store = TestStore(
      login: LoginState(rules: .email, username: "ada@example.com"), fakes: LoginFakes())
    #expect(store.state.visibleValidationMessages == [])
    await store.send(.loginButtonTapped, effects: [.showAlert(alert)]) {
      $0.wasSubmitTried = true
    }
    #expect(store.state.visibleValidationMessages == ["Password must be longer than 8 characters"])
    await store.receive(.alertButtonTapped("ok"))
    await store.finish()
  }

  @Test func theFormAfterALogoutShowsNoHints() async {
    let fakes = LoginFakes(results: [.success(Fixtures.session)])
    let store = TestStore(login: LoginState(), fakes: fakes)
    await store.send(.edit(.set(\.username, to: "demo"))) {
      $0.username = "demo"
      $0.isUsernameEdited = true
    }
    await store.send(.edit(.set(\.password, to: "Secr3t"))) {
      $0.password = "Secr3t"
      $0.isPasswordEdited = true
    }
    await store.send(.loginButtonTapped) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(.loginResponse(attempt: 1, .success(Fixtures.session))) {
      $0.isLoading = false
      $0.user = Fixtures.demo
    }
    await store.send(.logoutButtonTapped) {
      $0.password = ""
      $0.user = nil
      $0.isUsernameEdited = false
      $0.isPasswordEdited = false
      $0.wasSubmitTried = false
    }
    #expect(store.state.validationMessages.count == 2)
    #expect(store.state.visibleValidationMessages == [])
    await store.finish()
  }

  @Test func theResetStepShowsTheEmailHintOnceEditedOrSendTapped() async {
    let store = TestStore(login: LoginState(), fakes: LoginFakes())
    await store.send(.forgotPasswordTapped) { $0.passwordReset = PasswordResetState() }
    #expect(store.state.passwordReset?.validationError == .emptyEmail)
    #expect(store.state.passwordReset?.visibleValidationError == nil)
    await store.send(.passwordReset(.sendButtonTapped)) { $0.passwordReset?.wasSubmitTried = true }
    #expect(store.state.passwordReset?.visibleValidationError == .emptyEmail)

    var edited = PasswordResetState()
    edited.email = "ada"
    _ = PasswordResetReducer().reduce(into: &edited, action: .edit(.set(\.email, to: "ad")))
    #expect(edited.isEmailEdited)
    #expect(edited.visibleValidationError == .invalidEmail)
    await store.send(.passwordReset(.backButtonTapped)) { $0.passwordReset = nil }
    await store.finish()
  }

  /// States recorded before the hints existed have none of their keys: they decode as
  /// untouched, and a state that was never touched encodes as it did then (so logs of such
  /// states keep their digests).
  @Test func statesWithoutTheHintKeysDecodeAsUntouchedAndEncodeAsBefore() throws {
    let old =
      #"{"attemptID":0,"failedAttempts":0,"isLoading":false,"isLocked":false,"#
      + #""password":"","rules":{"kind":{"default":{}},"lockoutDuration":[1,11553255926290448384],"#
      + #""maxAttempts":5},"username":"d","passwordReset":{"email":"","isSending":false,"#
      + #""requestID":0,"isRateLimited":false,"resendCountdown":0}}"#
    let state = try JSONDecoder().decode(LoginState.self, from: Data(old.utf8))
    #expect(state.isUsernameEdited == false)
    #expect(state.isPasswordEdited == false)
    #expect(state.wasSubmitTried == false)
    #expect(state.passwordReset?.isEmailEdited == false)
    #expect(state.passwordReset?.wasSubmitTried == false)
    let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
    for key in ["usernameEdited", "passwordEdited", "submitTried", "emailEdited"] {
      #expect(!json.contains(key))
    }
  }
}
