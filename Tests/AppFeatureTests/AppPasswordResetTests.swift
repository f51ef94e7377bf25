import AppFeature
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// The password-reset step inside the app store, with no app code of its own: the login slice
/// presents it, its effects run in the login child's namespace nested in the step's, and Back
/// ends them.
@MainActor struct AppPasswordResetTests {
  @Test func theStepRunsInTheAppAndBackEndsItsRequest() async {
    let fakes = LoginFakes()
    fakes.api.holdNextPasswordReset()
    let store = TestStore(app: AppState(), fakes: fakes)
    await store.send(.login(.forgotPasswordTapped)) {
      $0.login.passwordReset = PasswordResetState()
    }
    let email: PersonalData = "ada@example.com"
    await store.send(.login(.passwordReset(.edit(.set(\.email, to: email))))) {
      $0.login.passwordReset?.email = email
      $0.login.passwordReset?.isEmailEdited = true
    }
    await store.send(
      .login(.passwordReset(.sendButtonTapped)),
      effects: [.login(.passwordReset(.requestReset(email: email, request: 1)))]
    ) {
      $0.login.passwordReset?.isSending = true
      $0.login.passwordReset?.requestID = 1
      $0.login.passwordReset?.wasSubmitTried = true
    }
    #expect(await fakes.api.heldPasswordResets.waitForCall() == email.value)
    await store.send(
      .login(.passwordReset(.backButtonTapped)),
      effects: [.login(.childDismissed(LoginReducer.passwordReset.dismissal))]
    ) {
      $0.login.passwordReset = nil
    }
    await store.finish()
    // The held call honored the cancellation: it ended with the step.
    #expect(fakes.api.heldPasswordResets.count == 0)
  }

  @Test func theStepsEffectsLiveInItsNamespaceWithinTheLoginChild() {
    let request = AppEffect.login(.passwordReset(.requestReset(email: "a@b.c", request: 1)))
    #expect(
      request.cancellation
        == EffectCancellation(
          .group(PasswordResetEffect.requestID, cancelInFlight: true),
          namespace: ["login", "passwordReset"]))
    #expect(
      AppEffect.login(.childDismissed(LoginReducer.passwordReset.dismissal)).cancellation
        == EffectCancellation(.cancelsNamespace, namespace: ["login", "passwordReset"]))
  }
}
