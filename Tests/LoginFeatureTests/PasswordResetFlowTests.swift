import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// The password-reset step, end to end through an exhaustive `TestStore` with the fakes: the
/// login flow presenting it, every state change of the step, every effect (embedded as
/// `.passwordReset(…)`), every action the effects send back, and the waits before "Send again"
/// on the `TestClock`.
@MainActor struct PasswordResetFlowTests {
  private let ada: PersonalData = "ada@example.com"

  /// Opens the step from the empty form and types `email`.
  private func openTheStep(typing email: PersonalData, in store: TestStore<LoginReducer>) async {
    await store.send(.forgotPasswordTapped) { $0.passwordReset = PasswordResetState() }
    await store.send(.passwordReset(.edit(.set(\.email, to: email)))) {
      $0.passwordReset?.email = email
      $0.passwordReset?.isEmailEdited = true
    }
  }

  /// Taps "Send link" for `email` as request `request`.
  private func send(_ email: PersonalData, request: Int, in store: TestStore<LoginReducer>) async {
    await store.send(
      .passwordReset(.sendButtonTapped),
      effects: [.passwordReset(.requestReset(email: email, request: request))]
    ) {
      $0.passwordReset?.isSending = true
      $0.passwordReset?.requestID = request
      $0.passwordReset?.wasSubmitTried = true
    }
  }

  /// Moves the clock one second at a time and receives each tick of the wait, down to 0.
  private func waitOut(
    _ seconds: Int, in store: TestStore<LoginReducer>, clock: TestClock
  ) async {
    for left in (0..<seconds).reversed() {
      // The countdown sleeps again after each tick: move the clock only once it does.
      #expect(await clock.waitForSleepers(1))
      await clock.advance(by: .seconds(1))
      await store.receive(.passwordReset(.resendTimerTicked)) {
        $0.passwordReset?.resendCountdown = left
      }
    }
  }

  private func back(in store: TestStore<LoginReducer>) async {
    await store.send(
      .passwordReset(.backButtonTapped),
      effects: [.childDismissed(LoginReducer.passwordReset.dismissal)]
    ) {
      $0.passwordReset = nil
    }
  }

  @Test func anInvalidAddressCannotBeSent() async {
    let fakes = LoginFakes()
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: "ada", in: store)
    #expect(store.state.passwordReset?.validationError == .invalidEmail)
    #expect(store.state.passwordReset?.isSendButtonEnabled == false)
    #expect(store.state.passwordReset?.sendButtonTitle == "Send link")
    // Nothing is sent, but the step says why from now on.
    await store.send(.passwordReset(.sendButtonTapped)) { $0.passwordReset?.wasSubmitTried = true }
    await store.send(.passwordReset(.edit(.set(\.email, to: "  ")))) {
      $0.passwordReset?.email = "  "
      $0.passwordReset?.isEmailEdited = true
    }
    #expect(store.state.passwordReset?.validationError == .emptyEmail)
    await store.send(.passwordReset(.sendButtonTapped))
    await back(in: store)
    await store.finish()
    #expect(fakes.api.passwordResetEmails == [])
  }

  @Test func anAcceptedRequestSaysSoWithTheAddressMaskedAndSendAgainWaitsSixtySeconds() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.success(.accepted), .success(.accepted))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: " \(ada)", in: store)
    #expect(store.state.passwordReset?.isSendButtonEnabled == true)
    await send(ada, request: 1, in: store)
    #expect(store.state.passwordReset?.isSendButtonEnabled == false)
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .success(.accepted))),
      effects: [.passwordReset(.startResendTimer(seconds: 60))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.linkSentTo = ada
      $0.passwordReset?.resendCountdown = 60
    }
    #expect(
      store.state.passwordReset?.confirmation
        == "If an account exists for a••••@example.com, a reset link is on its way.")
    #expect(store.state.passwordReset?.sendButtonTitle == "Send again")
    #expect(store.state.passwordReset?.waitMessage == "You can send again in 1 minute.")
    #expect(store.state.passwordReset?.isSendButtonEnabled == false)
    await store.send(.passwordReset(.sendButtonTapped))

    await waitOut(60, in: store, clock: fakes.clock)
    #expect(store.state.passwordReset?.isSendButtonEnabled == true)
    #expect(store.state.passwordReset?.waitMessage == nil)
    await send(ada, request: 2, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 2, .success(.accepted))),
      effects: [.passwordReset(.startResendTimer(seconds: 60))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.resendCountdown = 60
    }
    await back(in: store)
    await store.finish()
    #expect(fakes.api.passwordResetEmails == [ada.value, ada.value])
    #expect(fakes.clock.sleeperCount == 0)
  }

  @Test func anotherAddressStartsANewRequestWithoutTheConfirmationOrTheWait() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.success(.accepted), .success(.accepted))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: ada, in: store)
    await send(ada, request: 1, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .success(.accepted))),
      effects: [.passwordReset(.startResendTimer(seconds: 60))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.linkSentTo = ada
      $0.passwordReset?.resendCountdown = 60
    }
    // The same address with spaces around it is the same address: the link and wait stay.
    await store.send(.passwordReset(.edit(.set(\.email, to: " \(ada) ")))) {
      $0.passwordReset?.email = " \(ada) "
    }
    #expect(store.state.passwordReset?.confirmation != nil)
    let grace: PersonalData = "grace@example.com"
    await store.send(
      .passwordReset(.edit(.set(\.email, to: grace))),
      effects: [.passwordReset(.cancelResendTimer)]
    ) {
      $0.passwordReset?.email = grace
      $0.passwordReset?.linkSentTo = nil
      $0.passwordReset?.resendCountdown = 0
    }
    #expect(store.state.passwordReset?.confirmation == nil)
    #expect(store.state.passwordReset?.waitMessage == nil)
    #expect(store.state.passwordReset?.sendButtonTitle == "Send link")
    #expect(store.state.passwordReset?.isSendButtonEnabled == true)
    // The old wait no longer ticks.
    await fakes.clock.advance(by: .seconds(60))
    await send(grace, request: 2, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 2, .success(.accepted))),
      effects: [.passwordReset(.startResendTimer(seconds: 60))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.linkSentTo = grace
      $0.passwordReset?.resendCountdown = 60
    }
    #expect(
      store.state.passwordReset?.confirmation
        == "If an account exists for g••••@example.com, a reset link is on its way.")
    await back(in: store)
    await store.finish()
    #expect(fakes.api.passwordResetEmails == [ada.value, grace.value])
  }

  /// A rate limit is the service's answer for the address it was asked about: another address
  /// is a new request, with no wait and "Send link"; spaces around the same address are not.
  @Test func anotherAddressEndsTheWaitTheServiceAskedForTheFirst() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.success(.rateLimited(retryAfterSeconds: 30)))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: ada, in: store)
    await send(ada, request: 1, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .success(.rateLimited(retryAfterSeconds: 30)))),
      effects: [.passwordReset(.startResendTimer(seconds: 30))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.isRateLimited = true
      $0.passwordReset?.resendCountdown = 30
    }
    await store.send(.passwordReset(.edit(.set(\.email, to: " ada@example.com ")))) {
      $0.passwordReset?.email = " ada@example.com "
    }
    #expect(store.state.passwordReset?.sendButtonTitle == "Send again")
    await store.send(
      .passwordReset(.edit(.set(\.email, to: "grace@example.com"))),
      effects: [.passwordReset(.cancelResendTimer)]
    ) {
      $0.passwordReset?.email = "grace@example.com"
      $0.passwordReset?.isRateLimited = false
      $0.passwordReset?.resendCountdown = 0
    }
    #expect(store.state.passwordReset?.waitMessage == nil)
    #expect(store.state.passwordReset?.sendButtonTitle == "Send link")
    #expect(store.state.passwordReset?.isSendButtonEnabled == true)
    await back(in: store)
    await store.finish()
  }

  @Test func aRateLimitedRequestCountsDownAndIsNotRetried() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.success(.rateLimited(retryAfterSeconds: 30)))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: "limited@example.com", in: store)
    await send("limited@example.com", request: 1, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .success(.rateLimited(retryAfterSeconds: 30)))),
      effects: [.passwordReset(.startResendTimer(seconds: 30))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.isRateLimited = true
      $0.passwordReset?.resendCountdown = 30
    }
    #expect(
      store.state.passwordReset?.waitMessage
        == "Too many requests. You can send again in 30 seconds.")
    #expect(store.state.passwordReset?.confirmation == nil)
    #expect(store.state.passwordReset?.sendButtonTitle == "Send again")
    await waitOut(30, in: store, clock: fakes.clock)
    #expect(store.state.passwordReset?.isSendButtonEnabled == true)
    // Nothing was sent again by itself.
    #expect(fakes.api.passwordResetEmails == ["limited@example.com"])
    await back(in: store)
    await store.finish()
  }

  @Test func anAcceptedRequestAfterARateLimitedOneIsNoLongerRateLimited() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(
      .success(.rateLimited(retryAfterSeconds: 1)), .success(.accepted))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: ada, in: store)
    await send(ada, request: 1, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .success(.rateLimited(retryAfterSeconds: 1)))),
      effects: [.passwordReset(.startResendTimer(seconds: 1))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.isRateLimited = true
      $0.passwordReset?.resendCountdown = 1
    }
    await waitOut(1, in: store, clock: fakes.clock)
    await send(ada, request: 2, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 2, .success(.accepted))),
      effects: [.passwordReset(.startResendTimer(seconds: 60))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.isRateLimited = false
      $0.passwordReset?.linkSentTo = ada
      $0.passwordReset?.resendCountdown = 60
    }
    // The wait is the ordinary one after a link was sent, not "Too many requests".
    #expect(store.state.passwordReset?.waitMessage == "You can send again in 1 minute.")
    #expect(
      store.state.passwordReset?.confirmation
        == "If an account exists for a••••@example.com, a reset link is on its way.")
    await back(in: store)
    await store.finish()
    #expect(fakes.api.passwordResetEmails == [ada.value, ada.value])
  }

  @Test func aRetryAfterIsTakenBetweenASecondAndAnHour() {
    for (asked, taken) in [(0, 1), (-5, 1), (1, 1), (3_600, 3_600), (Int.max, 3_600)] {
      var state = PasswordResetState(email: ada, isSending: true, requestID: 1)
      let effects = PasswordResetReducer().reduce(
        into: &state,
        action: .sendResponse(request: 1, .success(.rateLimited(retryAfterSeconds: asked))))
      #expect(effects == [.startResendTimer(seconds: taken)], "asked \(asked)")
      #expect(state.resendCountdown == taken)
    }
  }

  @Test func anyOtherFailureShowsAnErrorAlertInWords() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.failure(.wrongStatusCode(500)))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: "broken@example.com", in: store)
    await send("broken@example.com", request: 1, in: store)
    let alert = Alert(
      title: "Couldn't send the link",
      message: "The server could not handle the request. Please try again later.")
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .failure(.wrongStatusCode(500)))),
      effects: [.passwordReset(.showAlert(alert))]
    ) {
      $0.passwordReset?.isSending = false
    }
    await store.receive(.passwordReset(.alertButtonTapped("ok")))
    #expect(fakes.alertPresenter.alerts == [alert])
    // Nothing waits: the person can try again at once.
    #expect(store.state.passwordReset?.isSendButtonEnabled == true)
    #expect(store.state.passwordReset?.sendButtonTitle == "Send link")
    await back(in: store)
    await store.finish()
  }

  @Test func backEndsTheRequestAndALateAnswerChangesNothing() async {
    let fakes = LoginFakes()
    fakes.api.holdNextPasswordReset(honoringCancellation: false)
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: ada, in: store)
    await send(ada, request: 1, in: store)
    #expect(await fakes.api.heldPasswordResets.waitForCall() == ada.value)
    await back(in: store)
    // The service answers after Back: the request's task was cancelled, nothing comes back.
    #expect(fakes.api.heldPasswordResets.release(.success(.accepted)) == ada.value)
    await store.finish()
    #expect(store.state == LoginState())
  }

  @Test func backDuringTheWaitEndsTheCountdown() async {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.success(.accepted))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await openTheStep(typing: ada, in: store)
    await send(ada, request: 1, in: store)
    await store.receive(
      .passwordReset(.sendResponse(request: 1, .success(.accepted))),
      effects: [.passwordReset(.startResendTimer(seconds: 60))]
    ) {
      $0.passwordReset?.isSending = false
      $0.passwordReset?.linkSentTo = ada
      $0.passwordReset?.resendCountdown = 60
    }
    #expect(await fakes.clock.waitForSleepers(1))
    await back(in: store)
    await fakes.clock.advance(by: .seconds(120))
    await store.finish()
    #expect(fakes.clock.sleeperCount == 0)
  }

  @Test func theStepOpensOnlyFromTheSignedOutFormAndCarriesAnEmailOver() {
    let reducer = LoginReducer()
    var email = LoginState(rules: .email, username: " ada@example.com ")
    #expect(reducer.reduce(into: &email, action: .forgotPasswordTapped) == [])
    #expect(email.passwordReset == PasswordResetState(email: ada))
    // Tapped again while it shows: the step stays as it is.
    email.passwordReset?.email = "typed@example.com"
    let shown = email
    #expect(reducer.reduce(into: &email, action: .forgotPasswordTapped) == [])
    #expect(email == shown)

    var name = LoginState(username: "demo")
    _ = reducer.reduce(into: &name, action: .forgotPasswordTapped)
    #expect(name.passwordReset == PasswordResetState())

    for busy in [
      LoginState(isLoading: true), LoginState(user: Fixtures.demo),
      LoginState(twoFactor: TwoFactorState(challenge: Challenge(id: "c", destination: "x"))),
      LoginState(isRestoring: true),
    ] {
      var state = busy
      #expect(reducer.reduce(into: &state, action: .forgotPasswordTapped) == [])
      #expect(state == busy)
    }
    // A locked form is where a forgotten password hurts most: the step opens.
    var locked = LoginState(failedAttempts: 5, isLocked: true, lockedFor: .seconds(30))
    _ = reducer.reduce(into: &locked, action: .forgotPasswordTapped)
    #expect(locked.passwordReset == PasswordResetState())
  }

  @Test func theFormBeneathTheStepCannotSignIn() {
    var state = LoginState(username: "demo", password: "Secr3t")
    #expect(state.isLoginButtonEnabled)
    _ = LoginReducer().reduce(into: &state, action: .forgotPasswordTapped)
    #expect(state.isLoginButtonEnabled == false)
    let shown = state
    #expect(LoginReducer().reduce(into: &state, action: .loginButtonTapped) == [])
    #expect(state == shown)
  }

  @Test func staleAnswersChangeNothing() {
    let step = PasswordResetState(email: ada, isSending: true, requestID: 2)
    var state = LoginState(passwordResetForTest: step)
    for stale in [1, 3] {
      let effects = LoginReducer().reduce(
        into: &state, action: .passwordReset(.sendResponse(request: stale, .success(.accepted))))
      #expect(effects == [])
      #expect(state == LoginState(passwordResetForTest: step))
    }
    // The field is read-only while the request is in flight: the confirmation names the address
    // that was sent.
    var sending = step
    #expect(
      PasswordResetReducer().reduce(into: &sending, action: .edit(.set(\.email, to: "bob@x.io")))
        == [])
    #expect(sending == step)
    var idle = PasswordResetState(email: ada, requestID: 2)
    #expect(
      PasswordResetReducer().reduce(
        into: &idle, action: .sendResponse(request: 2, .success(.accepted))) == [])
    #expect(idle == PasswordResetState(email: ada, requestID: 2))
  }

  @Test func theDisplayMaskKeepsTheFirstCharacterAndTheDomain() {
    for (address, shown) in [
      ("ada@example.com", "a••••@example.com"), (" bob@x.io ", "b••••@x.io"),
      ("a@b.c", "a••••@b.c"), ("ada", "a••••"), ("", "••••"), ("@example.com", "••••@example.com"),
      ("👩‍👩‍👧x@y.z", "👩‍👩‍👧••••@y.z"),
    ] {
      #expect(PasswordResetState.displayMask(of: address) == shown, "\(address)")
    }
  }

  @Test func theChildIsDeclaredOnce() {
    #expect(
      LoginReducer.passwordReset.embeddingProblems(
        actions: [
          .edit(.set(\.email, to: ada)), .sendButtonTapped,
          .sendResponse(request: 1, .success(.accepted)),
          .resendTimerTicked, .backButtonTapped, .alertButtonTapped(nil),
        ],
        effects: [
          .requestReset(email: ada, request: 1), .startResendTimer(seconds: 60),
          .showAlert(Alert(title: "t", message: "m")),
        ]) == [])
  }
}

extension LoginState {
  /// The empty form with the password-reset step showing.
  fileprivate init(passwordResetForTest step: PasswordResetState) {
    self.init()
    passwordReset = step
  }
}
