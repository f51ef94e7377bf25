import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// The one-time-code step, end to end through an exhaustive `TestStore` with the fakes: every
/// state change of the login flow and of its child step, every effect (the step's embedded as
/// `.twoFactor(…)`), every action the effects send back, and the time of the resend countdown
/// on the `TestClock`.
@MainActor struct TwoFactorFlowTests {
  private let grace = User(id: "3", username: "grace", displayName: "Grace Hopper")
  private var session: Session { Session(user: grace, token: "demo-token-3") }
  private let challenge = Challenge(id: "c-1", destination: "•••• 42")
  private let credentials = Credentials(username: "grace", password: "Cobol1959")

  /// Types grace's credentials, taps login and receives the challenge: the code step shows
  /// and its countdown starts.
  private func reachTheCodeStep(_ store: TestStore<LoginReducer>) async {
    await store.send(.edit(.set(\.username, to: "grace"))) {
      $0.username = "grace"
      $0.isUsernameEdited = true
    }
    await store.send(.edit(.set(\.password, to: "Cobol1959"))) {
      $0.password = "Cobol1959"
      $0.isPasswordEdited = true
    }
    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(
      .loginResponse(attempt: 1, .challenge(challenge)),
      effects: [.twoFactor(.startResendTimer(seconds: 30))]
    ) {
      $0.isLoading = false
      $0.twoFactor = TwoFactorState(challenge: challenge, resendCountdown: 30)
    }
  }

  /// Types `code` and taps Verify, asserting the step's state on the way.
  private func verify(_ code: Secret, request: Int, in store: TestStore<LoginReducer>) async {
    await store.send(.twoFactor(.codeChanged(code))) { $0.twoFactor?.code = code }
    await store.send(
      .twoFactor(.verifyButtonTapped),
      effects: [.twoFactor(.verifyCode(code, challenge: challenge, request: request))]
    ) {
      $0.twoFactor?.isVerifying = true
      $0.twoFactor?.requestID = request
    }
  }

  @Test func aChallengeShowsTheStepAndARightCodeSignsInExactlyAsAPasswordDoes() async {
    let fakes = LoginFakes(results: [.challenge(challenge)])
    fakes.api.enqueueVerifications(.success(session))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await reachTheCodeStep(store)
    #expect(store.state.twoFactor?.title == "Enter the 6-digit code sent to •••• 42")
    #expect(store.state.isLoginButtonEnabled == false)

    // A pasted "123 456" keeps its digits; Verify is enabled at exactly six.
    await store.send(.twoFactor(.codeChanged("12345"))) { $0.twoFactor?.code = "12345" }
    #expect(store.state.twoFactor?.isVerifyButtonEnabled == false)
    await store.send(.twoFactor(.verifyButtonTapped))
    await store.send(.twoFactor(.codeChanged("424 242"))) { $0.twoFactor?.code = "424242" }
    #expect(store.state.twoFactor?.isVerifyButtonEnabled == true)
    await store.send(
      .twoFactor(.verifyButtonTapped),
      effects: [.twoFactor(.verifyCode("424242", challenge: challenge, request: 1))]
    ) {
      $0.twoFactor?.isVerifying = true
      $0.twoFactor?.requestID = 1
    }
    await store.receive(
      .twoFactor(.verifyResponse(request: 1, .success(session))),
      effects: [
        .saveSession(session), .route(.push(.home(grace))),
        .childDismissed(LoginReducer.twoFactor.dismissal),
      ]
    ) {
      $0.twoFactor = nil
      $0.user = grace
    }
    await store.finish()

    #expect(fakes.router.commands == [.push(.home(grace))])
    #expect(await fakes.sessionStore.load() == session)
    #expect(fakes.api.verifiedCodes == ["424242"])
    // The countdown ended with the step: moving time sends nothing.
    await fakes.clock.advance(by: .seconds(60))
    #expect(fakes.clock.sleeperCount == 0)
    #expect(store.state.isLoginButtonEnabled == false)
  }

  /// Digits of other scripts count as the ASCII digit of the same value: a secret's mask shows
  /// them as `0` too, so a replay keeps exactly what the original kept.
  @Test func aDashedOrLetteredPasteKeepsItsDigitsOnlyUpToTheCodeLength() {
    var state = LoginState(twoFactor: TwoFactorState(challenge: challenge))
    for (typed, kept) in [
      ("123-456", "123456"), ("1 2 3 4 5 6 7 8", "123456"), ("abc12٣4", "1234"), ("", ""),
      ("１２３", "123"), ("3\u{301}45", "45"), ("½7", "7"),
    ] {
      _ = LoginReducer().reduce(into: &state, action: .twoFactor(.codeChanged(Secret(typed))))
      #expect(state.twoFactor?.code.reveal() == kept, "typed \(typed)")
      var replayed = LoginState(twoFactor: TwoFactorState(challenge: challenge))
      let masked = Secret(Secret.mask(of: typed))
      _ = LoginReducer().reduce(into: &replayed, action: .twoFactor(.codeChanged(masked)))
      #expect(replayed.twoFactor?.code.mask == state.twoFactor?.code.mask, "replayed \(typed)")
    }
  }

  @Test(arguments: [
    (1, "You can ask for a new code in 1 second."),
    (2, "You can ask for a new code in 2 seconds."),
    (0, "Tap Resend to get a new code."),
  ])
  func anExpiredCodeSaysTheWaitInWords(countdown: Int, message: String) {
    var state = TwoFactorState(
      challenge: challenge, isVerifying: true, resendCountdown: countdown, requestID: 3)
    let effects = TwoFactorReducer().reduce(
      into: &state, action: .verifyResponse(request: 3, .failure(.codeExpired)))
    guard case .showAlert(let alert)? = effects.first else {
      Issue.record("no alert: \(effects)")
      return
    }
    #expect(alert.message == message)
  }

  @Test func wrongCodesShowTheAttemptsLeftAndTheThirdEndsTheSignIn() async {
    let fakes = LoginFakes(results: [.challenge(challenge)])
    fakes.api.enqueueVerifications(
      .failure(.incorrectCode), .failure(.incorrectCode), .failure(.incorrectCode))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await reachTheCodeStep(store)

    for (request, left) in [(1, "2 attempts left."), (2, "1 attempt left.")] {
      await verify("111111", request: request, in: store)
      let alert = Alert(title: "Incorrect code", message: left)
      await store.receive(
        .twoFactor(.verifyResponse(request: request, .failure(.incorrectCode))),
        effects: [.twoFactor(.showAlert(alert))]
      ) {
        $0.twoFactor?.isVerifying = false
        $0.twoFactor?.incorrectCodes = request
        $0.twoFactor?.code = ""
      }
      await store.receive(.twoFactor(.alertButtonTapped("ok")))
    }

    await verify("111111", request: 3, in: store)
    let ended = Alert(
      title: "Couldn't sign in", message: "Too many incorrect codes. Please sign in again.")
    await store.receive(
      .twoFactor(.verifyResponse(request: 3, .failure(.incorrectCode))),
      effects: [
        .showAlert(ended),
        .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
        .childDismissed(LoginReducer.twoFactor.dismissal),
      ]
    ) {
      $0.twoFactor = nil
      $0.password = ""
      $0.isPasswordEdited = false
      $0.wasSubmitTried = false
      $0.failedAttempts = 1
    }
    await store.receive(.alertButtonTapped("ok"))
    await store.finish()
    #expect(fakes.router.commands == [])
    #expect(await fakes.sessionStore.load() == nil)
  }

  @Test func theThirdWrongCodeAtFourFailuresLocksTheFormInsteadOfTheEndedAlert() {
    let step = TwoFactorState(
      challenge: challenge, isVerifying: true, incorrectCodes: 2, requestID: 3)
    var state = LoginState(password: "Cobol1959", failedAttempts: 4, twoFactor: step)
    let effects = LoginReducer().reduce(
      into: &state, action: .twoFactor(.verifyResponse(request: 3, .failure(.incorrectCode))))
    let lockout = Alert(
      title: "Sign-in locked",
      message:
        "Maximum number of retries exceeded. The form is locked for 30 seconds. Please try again later."
    )
    #expect(
      effects == [
        .showAlert(lockout), .startLockoutTimer(.seconds(30)),
        .updateLockout(.failedAttempt(counted: 5, lockingAt: 5, lockFor: .seconds(30))),
        .childDismissed(LoginReducer.twoFactor.dismissal),
      ])
    #expect(state == LoginState(failedAttempts: 5, isLocked: true, lockedFor: .seconds(30)))
  }

  @Test func anExpiredCodeWaitsForResendWhichSendsANewCodeAfterTheCountdown() async {
    let renewed = Challenge(id: "c-1", destination: "•••• 42", expiresInSeconds: 600)
    let fakes = LoginFakes(results: [.challenge(challenge)])
    fakes.api.enqueueVerifications(.failure(.codeExpired))
    fakes.api.enqueueResends(.success(renewed))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await reachTheCodeStep(store)

    await verify("424242", request: 1, in: store)
    let expired = Alert(
      title: "The code has expired", message: "You can ask for a new code in 30 seconds.")
    await store.receive(
      .twoFactor(.verifyResponse(request: 1, .failure(.codeExpired))),
      effects: [.twoFactor(.showAlert(expired))]
    ) {
      $0.twoFactor?.isVerifying = false
      $0.twoFactor?.isExpired = true
      $0.twoFactor?.code = ""
    }
    await store.receive(.twoFactor(.alertButtonTapped("ok")))
    // Verify waits for a new code; Resend waits for the countdown.
    await store.send(.twoFactor(.codeChanged("424242"))) { $0.twoFactor?.code = "424242" }
    #expect(store.state.twoFactor?.isVerifyButtonEnabled == false)
    await store.send(.twoFactor(.resendButtonTapped))

    for second in (0..<30).reversed() {
      // The countdown sleeps again after each tick: move the clock only once it does.
      #expect(await fakes.clock.waitForSleepers(1))
      await fakes.clock.advance(by: .seconds(1))
      await store.receive(.twoFactor(.resendTimerTicked)) {
        $0.twoFactor?.resendCountdown = second
      }
    }
    #expect(store.state.twoFactor?.isResendButtonEnabled == true)
    await store.send(
      .twoFactor(.resendButtonTapped),
      effects: [.twoFactor(.resendCode(challenge: challenge, request: 2))]
    ) {
      $0.twoFactor?.isResending = true
      $0.twoFactor?.requestID = 2
    }
    await store.receive(
      .twoFactor(.resendResponse(request: 2, .success(renewed))),
      effects: [.twoFactor(.startResendTimer(seconds: 30))]
    ) {
      $0.twoFactor?.isResending = false
      $0.twoFactor?.challenge = renewed
      $0.twoFactor?.code = ""
      $0.twoFactor?.isExpired = false
      $0.twoFactor?.resendCountdown = 30
      $0.twoFactor?.wasCodeResent = true
    }
    #expect(fakes.api.resendCount == 1)
    await store.send(
      .twoFactor(.cancelButtonTapped), effects: [.childDismissed(LoginReducer.twoFactor.dismissal)]
    ) {
      $0.twoFactor = nil
      $0.password = ""
      $0.isPasswordEdited = false
      $0.wasSubmitTried = false
    }
    await store.finish()
  }

  @Test func aResendTheServerFindsTooSoonIsShownAndNotRetried() async {
    let fakes = LoginFakes()
    fakes.api.enqueueResends(.failure(.resendTooSoon(retryAfterSeconds: 12)))
    let step = TwoFactorState(challenge: challenge)
    let store = TestStore(login: LoginState(username: "grace", twoFactor: step), fakes: fakes)
    await store.send(
      .twoFactor(.resendButtonTapped),
      effects: [.twoFactor(.resendCode(challenge: challenge, request: 1))]
    ) {
      $0.twoFactor?.isResending = true
      $0.twoFactor?.requestID = 1
    }
    let alert = Alert(
      title: "Couldn't send a new code", message: "A new code can be sent in 12 seconds.")
    await store.receive(
      .twoFactor(.resendResponse(request: 1, .failure(.resendTooSoon(retryAfterSeconds: 12)))),
      effects: [.twoFactor(.showAlert(alert)), .twoFactor(.startResendTimer(seconds: 12))]
    ) {
      $0.twoFactor?.isResending = false
      $0.twoFactor?.resendCountdown = 12
    }
    await store.receive(.twoFactor(.alertButtonTapped("ok")))
    #expect(fakes.api.resendCount == 1)
    await store.send(
      .twoFactor(.cancelButtonTapped), effects: [.childDismissed(LoginReducer.twoFactor.dismissal)]
    ) {
      $0.twoFactor = nil
    }
    await store.finish()
    #expect(fakes.api.resendCount == 1)
  }

  @Test func cancelLeavesTheStepEndsItsEffectsAndClearsThePassword() async {
    let fakes = LoginFakes(results: [.challenge(challenge)])
    let store = TestStore(login: LoginState(), fakes: fakes)
    await reachTheCodeStep(store)
    #expect(await fakes.clock.waitForSleepers(1))
    await store.send(
      .twoFactor(.cancelButtonTapped), effects: [.childDismissed(LoginReducer.twoFactor.dismissal)]
    ) {
      $0.twoFactor = nil
      $0.password = ""
      $0.isPasswordEdited = false
      $0.wasSubmitTried = false
    }
    await fakes.clock.advance(by: .seconds(60))
    await store.finish()
    #expect(fakes.clock.sleeperCount == 0)
    #expect(fakes.api.verifiedCodes == [])
  }

  @Test func theStepSaysHowLongTheCodeStaysValid() {
    var step = TwoFactorState(
      challenge: Challenge(id: "c-1", destination: "g•••@example.com", expiresInSeconds: 300))
    #expect(step.validityMessage == "The code is valid for 5 minutes.")
    step.challenge.expiresInSeconds = 90
    #expect(step.validityMessage == "The code is valid for 1 minute 30 seconds.")
    step.isExpired = true
    #expect(step.validityMessage == nil)
  }

  @Test func staleAnswersChangeNothing() {
    let step = TwoFactorState(challenge: challenge, code: "424242", isVerifying: true, requestID: 2)
    var state = LoginState(username: "grace", twoFactor: step)
    for stale in [1, 3] {
      let effects = LoginReducer().reduce(
        into: &state, action: .twoFactor(.verifyResponse(request: stale, .success(session))))
      #expect(effects == [])
      #expect(state == LoginState(username: "grace", twoFactor: step))
    }
    // A resend answer while no resend is in flight is stale too.
    #expect(
      LoginReducer().reduce(
        into: &state, action: .twoFactor(.resendResponse(request: 2, .success(challenge)))) == [])
    #expect(state == LoginState(username: "grace", twoFactor: step))
  }

  @Test func anAnswerAfterTheStepWentAwayIsIgnoredAndReported() {
    var state = LoginState(username: "grace")
    let warnings = Guarded<[String]>([])
    let effects = RuntimeWarning.$reporter.withValue(
      .init { warning in warnings.withLock { $0.append(warning.message) } }
    ) {
      LoginReducer().reduce(
        into: &state, action: .twoFactor(.verifyResponse(request: 1, .success(session))))
    }
    #expect(effects == [])
    #expect(state == LoginState(username: "grace"))
    #expect(warnings.withLock { $0.count } == 1)
    #expect(warnings.withLock { $0.first?.contains("demo-token") } == false)
  }
}
