import AppFeature
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// The app feature end to end through a `TestStore` with the fakes: the login flow as a child
/// of the app store, the home screen as an optional child, every state change through the
/// nesting, every child effect as an app effect value, every received child action as an app
/// action.
@MainActor struct AppFeatureTests {
  @Test func signingInShowsTheHomeScreenWhichLoadsTheProfile() async {
    let fakes = LoginFakes(results: [.success(Sample.session)])
    let store = TestStore(app: AppState(), fakes: fakes)
    await store.typeAndTapLogin()
    await store.receiveSuccessfulSignIn()

    #expect(await fakes.clock.waitForSleepers(1))
    await fakes.clock.advance(by: Sample.profileDelay)
    await store.receive(.home(.profileLoaded(Sample.profile)), effects: []) {
      $0.home?.isLoadingProfile = false
      $0.home?.profile = Sample.profile
    }
    await store.finish()

    #expect(fakes.router.commands == [.push(.home(Sample.user))])
    #expect(fakes.api.requests == [Sample.credentials])
    #expect(await fakes.sessionStore.load() == Sample.session)
  }

  @Test func loggingOutWhileTheProfileLoadsCancelsTheRequestAndClosesHome() async {
    let fakes = LoginFakes(results: [.success(Sample.session)])
    let store = TestStore(app: AppState(), fakes: fakes)
    await store.typeAndTapLogin()
    await store.receiveSuccessfulSignIn()
    #expect(await fakes.clock.waitForSleepers(1))

    await store.send(
      .login(.logoutButtonTapped),
      effects: [
        .login(.clearSession), .login(.route(.popToRoot)),
        .childDismissed(AppReducer.home.dismissal),
      ]
    ) {
      $0.login = LoginState(username: "demo", attemptID: 1)
      $0.home = nil
    }
    // The profile request was cancelled with the home screen: moving time sends nothing.
    await fakes.clock.advance(by: .seconds(10))
    await store.finish()
    #expect(fakes.clock.sleeperCount == 0)
    #expect(await fakes.sessionStore.load() == nil)
    #expect(fakes.router.commands == [.push(.home(Sample.user)), .popToRoot])
  }

  @Test func aFailedProfileShowsItsMessageAndCanBeReloaded() async {
    let fakes = LoginFakes(results: [.success(Sample.session)])
    let store = TestStore(app: AppState(), fakes: fakes, profiles: FlakyProfileAPI(failures: 1))
    await store.typeAndTapLogin()
    await store.receiveSuccessfulSignIn()
    let message = "The profile could not be loaded. Please try again."
    await store.receive(.home(.profileFailed(message)), effects: []) {
      $0.home?.isLoadingProfile = false
      $0.home?.profileError = message
    }

    await store.send(.home(.reloadButtonTapped), effects: [.home(.loadProfile(Sample.user))]) {
      $0.home?.isLoadingProfile = true
      $0.home?.profileError = nil
    }
    await store.receive(.home(.profileLoaded(Sample.profile)), effects: []) {
      $0.home?.isLoadingProfile = false
      $0.home?.profile = Sample.profile
    }
    await store.finish()
  }

  @Test func aHomeActionWhileSignedOutFailsTheTestAtItsLineAndChangesNothing() async {
    let store = TestStore(app: AppState(), fakes: LoginFakes())
    let failures = FailureReporter.Recorder()
    let sendLine = #line + 2
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(.home(.reloadButtonTapped), effects: [])
    }
    #expect(failures.failures.map(\.location.line) == [sendLine])
    let expected: String = """
      Runtime warning: AppAction.home(HomeAction.reloadButtonTapped) was sent to the optional \
      child 'home', which is absent; the action was ignored.

      An optional child's actions must arrive while it is there. Send them only while the \
      child's state is present, and let ifLet's dismissal effect cancel the child's effects \
      when it goes away.
      """
    #expect(failures.messages == [expected])
    #expect(store.state == AppState())
    await store.finish()
  }

  @Test func aWrongStateThroughTheNestingShowsTheDiffWithTheSecretMasked() async {
    let store = TestStore(app: AppState(), fakes: LoginFakes())
    let failures = FailureReporter.Recorder()
    await FailureReporter.$current.withValue(failures.reporter) {
      await store.send(.login(.edit(.set(\.password, to: "Secr3t"))), effects: []) {
        $0.login.password = "Other1"
        $0.login.isPasswordEdited = true
      }
    }
    #expect(failures.messages.count == 1)
    let failure = failures.messages.joined(separator: "\n")
    #expect(failure.contains("\u{2212}     password: Secret(Aaaaa0),"))
    #expect(failure.contains("+     password: Secret(Aaaa0a),"))
    #expect(!failure.contains("Secr3t"))
    #expect(!failure.contains("Other1"))
    await store.finish()
  }

  @Test func childEffectsLiveInTheNamespaceOfTheirPlace() {
    #expect(
      AppEffect.login(.authenticate(Sample.credentials, attempt: 1)).cancellation
        == EffectCancellation(
          .group(LoginEffect.authenticationID, cancelInFlight: true), namespace: ["login"]))
    #expect(
      AppEffect.login(.cancelAuthentication).cancellation
        == EffectCancellation(.cancels(LoginEffect.authenticationID), namespace: ["login"]))
    #expect(
      AppEffect.home(.loadProfile(Sample.user)).cancellation
        == EffectCancellation(
          .group(HomeEffect.profileRequestID, cancelInFlight: true), namespace: ["home"]))
    #expect(
      AppEffect.childDismissed(AppReducer.home.dismissal).cancellation == .cancelsAll(in: "home"))
  }

  @Test func everyChildOfTheAppAndTheLoginFlowIsDeclaredConsistently() {
    let challenge = Challenge(id: "c-1", destination: "•••• 42", codeLength: 6)
    let twoFactorEffects: [TwoFactorEffect] = [
      .verifyCode("123456", challenge: challenge, request: 1),
      .resendCode(challenge: challenge, request: 2), .startResendTimer(seconds: 30),
      .showAlert(Alert(title: "t", message: "m")),
    ]
    #expect(
      LoginReducer.twoFactor.embeddingProblems(
        actions: [.codeChanged("1"), .verifyButtonTapped, .resendTimerTicked, .cancelButtonTapped],
        effects: twoFactorEffects) == [])
    #expect(
      AppReducer.login.embeddingProblems(
        actions: [
          .edit(.set(\.username, to: "demo")), .loginButtonTapped, .twoFactor(.verifyButtonTapped),
        ],
        effects: [
          .authenticate(Sample.credentials, attempt: 1), .cancelAuthentication,
          .startLockoutTimer(.seconds(30)), .clearSession,
          .childDismissed(LoginReducer.twoFactor.dismissal),
        ] + twoFactorEffects.map(LoginEffect.twoFactor)) == [])
    #expect(
      AppReducer.home.embeddingProblems(
        actions: [.reloadButtonTapped, .profileFailed("x")],
        effects: [.loadProfile(Sample.user)]) == [])
  }
}
