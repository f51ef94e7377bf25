import ActionLog
import AppFeature
import Foundation
import LoginFeature
import LoginScreen
import StateStore

/// Script mode: carries out one UI event per line and prints every screen as plain text.
///
/// Time is a `ManualClock` that only the script moves, and a screen is printed only once
/// the store is idle (see ``EffectTracker``), so the same script prints the same bytes on every
/// run.
///
/// <!-- sample: excerpt Tests/EndToEndTests/DemoScripts/success-logout.expected.txt -->
/// ```text
/// ── after line 4: tap login ──
///  LoginStore demo                                       login
///  ───────────────────────────────────────────────────────────
///
///    Username  demo
///    Password  ••••••
///
///    ✓ Ready to sign in
///
///  › [ Login ] (disabled)
///    [ Forgot password? ] (disabled)
///
///    ⠋ Signing in…
///    [ Cancel ]
/// ```
@MainActor
final class ScriptRunner {
  private let store: Store<AppReducer>
  /// The login screen's handle on the app store: its state and its actions only.
  private let login: ScopedStore<LoginState, LoginAction>
  private let router: DemoRouter
  private let alerts: DemoAlertPresenter
  private let clock: ManualClock
  private let tracker: EffectTracker
  private let write: (String) throws(DemoFailure) -> Void
  private var focus: ScreenModel.Focus = .username
  private var countdown = LockoutCountdown()
  private var tappedWhileLocked = false
  private var subscriptions: [StoreSubscription] = []
  private var recording: Integrations.Recording?

  /// Sets up a store on a virtual clock for `options`.
  ///
  /// - Parameters:
  ///   - options: The command line.
  ///   - write: Prints a screen; it throws when standard output cannot be written.
  /// - Throws: ``DemoFailure`` when an integration (`--api`, `--record`) is not available.
  init(
    options: DemoOptions, write: @escaping (String) throws(DemoFailure) -> Void
  ) async throws(DemoFailure) {
    let tracker = EffectTracker()
    let clock = ManualClock(sleepersChanged: { Task { @MainActor in tracker.check() } })
    let router = DemoRouter()
    let alerts = DemoAlertPresenter()
    alerts.onChange = { tracker.check() }
    tracker.blockedCount = { alerts.count + clock.sleeperCount }
    // Wall-clock time in script mode is virtual too: `--now`, plus the virtual clock.
    let start = options.scriptStart
    let now: @Sendable () -> Date = { [clock] in
      start.addingTimeInterval(clock.now.offset.timeInterval)
    }
    var dependencies = try Integrations.dependencies(
      options, router: router, alerts: alerts, clock: clock, now: now)
    if options.apiURL != nil {
      // A request to the real service waits on the outside world: the next command goes
      // ahead (and can cancel it) while it is in flight; `wait` waits for it.
      let inFlight = Guarded(0)
      dependencies.login.api = CountedLoginAPI(
        base: dependencies.login.api, inFlight: inFlight,
        changed: { Task { @MainActor in tracker.check() } })
      tracker.outsideCount = { inFlight.withLock { $0 } }
    }
    // The same handler `Store(app:dependencies:)` uses, wrapped so script mode knows when an
    // effect is done.
    store = Store(
      initialState: AppState(login: LoginState(rules: options.rules)),
      reducer: AppReducer(),
      handler: TrackingEffectHandler(
        base: AppEffectHandler(dependencies: dependencies), tracker: tracker)
    )
    login = store.scope(AppReducer.login)
    subscriptions.append(store.observeTransitions { tracker.effectsStarted($0.effects.count) })

    self.router = router
    self.alerts = alerts
    self.clock = clock
    self.tracker = tracker
    self.write = write
    subscriptions.append(
      store.observe { [weak self] state in
        guard let self else { return }
        self.countdown.update(state.login, now: self.clock.now.offset)
      })
    // The log's step times are the script's virtual time, like everything else it prints.
    recording = try await Integrations.startRecording(
      store, options, clock: RecordingClock(clock)
    ) { message in
      // Standard error is not the screen here: say it at once. `FileHandle.write` traps when
      // the write fails (a full disk, a closed stream); a failed warning must not.
      _ = WriteAll.write("login-demo: \(message)\n", to: STDERR_FILENO)
    } onWarning: { message in
      _ = WriteAll.write("login-demo: \(message)\n", to: STDERR_FILENO)
    }
  }

  /// Why recording stopped early, or `nil`.
  var recordingFailure: String? { recording?.failure() }

  /// Runs every line of `script`, printing the first screen and then one screen per command.
  ///
  /// - Parameter script: Where the lines come from, one at a time.
  /// - Throws: ``DemoFailure``: a usage error (exit status 2) naming the first line that
  ///   cannot be read, parsed or carried out, or a read or write error (exit status 1).
  func run(_ script: ScriptSource) async throws(DemoFailure) {
    do {
      try await runLines(script)
    } catch {
      await recording?.stop()
      throw error
    }
    await recording?.stop()
  }

  private func runLines(_ script: ScriptSource) async throws(DemoFailure) {
    // The first screen is what the launch restored: the form, or straight home.
    login.send(.launched)
    await tracker.untilIdle()
    try printScreen(header: "start")
    while let text = try script.next() {
      let number = script.lineNumber
      let command: ScriptCommand
      do throws(ScriptError) {
        guard let parsed = try ScriptParser.parse(text, line: number) else { continue }
        command = parsed
        try await perform(command, line: number)
      } catch {
        throw .usage(error.description)
      }
      try printScreen(
        header: "after line \(number): " + ScriptParser.display(command, original: text))
    }
  }

  private func perform(_ command: ScriptCommand, line: Int) async throws(ScriptError) {
    func fail(_ reason: ScriptError.Reason) -> ScriptError {
      ScriptError(line: line, reason: reason)
    }
    tappedWhileLocked = false
    if let alert = alerts.current {
      guard case .tapAlert(let title) = command else {
        if command == .wait {
          await waitForRequest()
          return
        }
        if case .advance(let duration) = command {
          await advance(by: duration)
          return
        }
        throw fail(.alertShowing(alert.title))
      }
      guard let button = alert.buttons.first(where: { $0.title == title }) else {
        throw fail(.noSuchButton(title, available: alert.buttons.map(\.title)))
      }
      alerts.tap(button)
      await tracker.untilIdle()
      return
    }
    let onHome = router.top != .login
    let onCodeStep = !onHome && login.state.twoFactor != nil
    let onPasswordReset = !onHome && login.state.passwordReset != nil
    let onForm = !onHome && !onCodeStep && !onPasswordReset
    switch command {
    case .type(.code, let text):
      guard onCodeStep else { throw fail(.screenNotShowing("code step")) }
      focus = .code
      login.send(.twoFactor(.codeChanged(Secret(text))))
    case .type(.email, let text):
      guard onPasswordReset else { throw fail(.screenNotShowing("password-reset step")) }
      focus = .email
      login.send(.passwordReset(.edit(.set(\.email, to: PersonalData(text)))))
    case .type(let field, let text):
      guard onForm else { throw fail(.screenNotShowing("login form")) }
      if field == .username {
        focus = .username
        login.send(.edit(.set(\.username, to: PersonalData(text))))
      } else {
        focus = .password
        login.send(.edit(.set(\.password, to: Secret(text))))
      }
    case .tapCancel where onCodeStep:
      focus = .cancelButton
      login.send(.twoFactor(.cancelButtonTapped))
    case .tapLogin, .tapCancel:
      guard onForm else { throw fail(.screenNotShowing("login form")) }
      if command == .tapLogin {
        focus = .loginButton
        tappedWhileLocked = login.state.isLocked
      }
      login.send(command == .tapLogin ? .loginButtonTapped : .cancelButtonTapped)
    case .tapVerify, .tapResend:
      guard onCodeStep else { throw fail(.screenNotShowing("code step")) }
      let resends = login.state.twoFactor?.isResendButtonEnabled == true
      focus =
        command == .tapVerify
        ? .verifyButton : (resends ? ScreenModel.focusAfterResend : .resendButton)
      login.send(.twoFactor(command == .tapVerify ? .verifyButtonTapped : .resendButtonTapped))
    case .tapForgot:
      guard onForm else { throw fail(.screenNotShowing("login form")) }
      focus = .forgotButton
      login.send(.forgotPasswordTapped)
    case .tapSend, .tapBack:
      guard onPasswordReset else { throw fail(.screenNotShowing("password-reset step")) }
      focus = command == .tapSend ? .sendButton : .backButton
      login.send(.passwordReset(command == .tapSend ? .sendButtonTapped : .backButtonTapped))
    case .tapLogout:
      guard onHome else { throw fail(.screenNotShowing("home screen")) }
      login.send(.logoutButtonTapped)
    case .tapAlert:
      throw fail(.noAlert)
    case .wait:
      await waitForRequest()
      return
    case .advance(let duration):
      await advance(by: duration)
      return
    }
    await tracker.untilIdle()
  }

  /// `wait`: lets the requests in flight finish — the sign-in and the home screen's profile
  /// that follows it, the code step's, a password-reset link's — moving the virtual clock to
  /// their answers, and waiting for the answers of the real service of `--api`.
  private func waitForRequest() async {
    await tracker.untilQuiet()
    while ScreenModel.isLoading(store.state), let deadline = clock.nextDeadline {
      await clock.advance(to: deadline)
      await tracker.untilQuiet()
    }
  }

  /// `advance`: moves the virtual clock deadline by deadline, letting the store settle at each,
  /// so a timer that sleeps again (the resend countdown) ticks as often as it would have.
  private func advance(by duration: Duration) async {
    await tracker.untilIdle()
    let target = clock.now.advanced(by: duration)
    while let deadline = clock.nextDeadline, deadline <= target {
      await clock.advance(to: deadline)
      await tracker.untilIdle()
    }
    await clock.advance(to: target)
    await tracker.untilIdle()
  }

  private func printScreen(header: String) throws(DemoFailure) {
    let routes = router.stack
    focus = ScreenModel.settle(focus, routes: routes, state: store.state)
    var model = ScreenModel(routes: routes, focus: focus, alert: alerts.current)
    model.lockoutSecondsLeft = countdown.secondsLeft(at: clock.now.offset)
    model.tappedWhileLocked = tappedWhileLocked
    try write("── \(header) ──\n" + ScreenRenderer.plainText(store.state, model) + "\n")
  }
}
