import AppFeature
import Foundation
import LoginFeature
import LoginScreen
import StateStore

/// Interactive mode: the login screen drawn full-screen from the store's state on every
/// change, driven by the keyboard.
///
/// | key              | login form                         | alert          | home    |
/// |------------------|------------------------------------|----------------|---------|
/// | text             | inserts at the cursor              | —              | —       |
/// | Backspace/Delete | deletes before / under the cursor  | —              | —       |
/// | ← → Home End     | moves the cursor (Ctrl-A, Ctrl-E)  | ← → buttons    | —       |
/// | Ctrl-U / Ctrl-W  | deletes to the start / a word      | —              | —       |
/// | Tab / Shift-Tab  | next / previous element            | next button    | —       |
/// | Enter            | taps the button, next field; in the password field, signs in; while signing in, taps Cancel | taps button | logout |
/// | Esc              | cancels the request in flight      | dismisses      | —       |
/// | Ctrl-C           | quits                              | quits          | quits   |
///
/// "Forgot password?" (after Login in Tab order) opens the password-reset step: its email field
/// edits like the form's, Enter sends the link (or goes back, on Back), and Esc goes back.
///
/// The code step's field edits like the others at its end (typing, Backspace, Ctrl-U, Ctrl-W;
/// typing on a button types into it) and shows the digits as they are typed; after Resend the
/// focus goes to it, off the button the new code's countdown disables.
///
/// Keys arrive in batches (see ``KeyReader``): a run of characters in a batch — a paste — is
/// one field change, and the screen is drawn once per batch. Changes that come from effects are
/// drawn together on the next turn of the main actor. A resize (SIGWINCH) redraws the screen.
@MainActor
package final class InteractiveApp {
  /// The app store.
  package let store: Store<AppReducer>
  /// The login screen's handle on the app store, as the Composing features article teaches a
  /// view to hold one: its state and its actions only.
  private let login: ScopedStore<LoginState, LoginAction>
  private let router: DemoRouter
  private let alerts: DemoAlertPresenter
  /// Draws a screen; `clear` asks for the whole terminal to be cleared first (after a
  /// resize). The terminal while ``run()`` runs; a test's function in tests; `nil` draws
  /// nothing.
  package var drawScreen: ((_ lines: [ScreenLine], _ clear: Bool) -> Void)?
  /// The height of the screen drawn on, when known: the terminal's while ``run()`` runs.
  private var terminalRows: () -> Int? = { nil }
  private var needsRender = false
  private var isRenderScheduled = false
  /// The draw ``setNeedsRender()`` last scheduled for the next turn of the main actor: a test
  /// awaits it to see every draw a change led to.
  package private(set) var scheduledRender: Task<Void, Never>?
  private var clearsNextFrame = false
  private var model = ScreenModel(showsKeyHints: true, revealsCode: true)
  private var spinner: Task<Void, Never>?
  private var countdown = LockoutCountdown()
  private var countdownTicker: Task<Void, Never>?
  /// The clock the store's effects run on: the lockout counts down on it too.
  private let clock: any Clock<Duration>
  /// The time on ``clock`` since the app started.
  private let elapsed: @Sendable () -> Duration
  private var now: Duration { elapsed() }
  private var subscription: StoreSubscription?
  private var recording: Integrations.Recording?

  /// Sets up a store for `options` on `clock` and the wall clock `now`: the real ones, or a
  /// test's.
  ///
  /// The service's latency, the timers and the lockout's countdown on the screen all run on
  /// `clock`; sessions and lockouts kept between launches are dated by `now`.
  ///
  /// - Throws: ``DemoFailure`` when an integration (`--api`, `--record`) is not available.
  package init(
    options: DemoOptions, clock: any Clock<Duration> = ContinuousClock(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) async throws(DemoFailure) {
    let router = DemoRouter()
    let alerts = DemoAlertPresenter()
    let dependencies = try Integrations.dependencies(
      options, router: router, alerts: alerts, clock: clock, now: now)
    store = Store(
      app: AppState(login: LoginState(rules: options.rules)), dependencies: dependencies)
    login = store.scope(AppReducer.login)
    self.router = router
    self.alerts = alerts
    self.clock = clock
    elapsed = Self.elapsed(on: clock)
    // Standard error is under the full screen here: the notice goes on the screen, and
    // main says it again once the terminal is restored.
    let relay = StopRelay()
    let warningRelay = StopRelay()
    recording = try await Integrations.startRecording(store, options) { message in
      Task { @MainActor in relay.handler?(message) }
    } onWarning: { message in
      Task { @MainActor in warningRelay.handler?(message) }
    }
    relay.handler = { [weak self] message in self?.recordingStopped(message) }
    warningRelay.handler = { [weak self] message in self?.recorderWarned(message) }
    model.recording = recording?.target
  }

  /// The time on `clock` since now.
  private static func elapsed<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  /// Why recording stopped early (`recording stopped: …`), or `nil`.
  var recordingFailure: String? { recording?.failure() }

  /// Takes over the terminal until Ctrl-C or the end of input, then restores it.
  ///
  /// - Returns: The exit status: 130 (128 + SIGINT, as a shell reports an interrupted
  ///   program) after Ctrl-C, 0 at the end of input.
  /// - Throws: ``DemoFailure`` when the terminal cannot be set up.
  func run() async throws(DemoFailure) -> Int32 {
    let terminal = try Terminal.open()
    defer { Terminal.restore() }
    drawScreen = { lines, clear in terminal.draw(lines, clearing: clear) }
    terminalRows = { Terminal.size()?.rows }
    attach()
    watchResizes()
    login.send(.launched)
    render()
    let keys = KeyReader.keys()
    var status: Int32 = 0
    while let batch = await keys.next() {
      guard process(batch) else {
        status = 128 + SIGINT
        break
      }
    }
    // Nothing more is drawn: a notice from closing the log is said after the restore.
    drawScreen = nil
    spinner?.cancel()
    countdownTicker?.cancel()
    store.cancelAll()
    await recording?.stop()
    return status
  }

  /// What the recorders warned of, for main to say again once the terminal is restored.
  var recordingWarnings: [String] { recording?.warnings() ?? [] }

  private func recorderWarned(_ message: String) {
    model.notice = message.prefix(1).uppercased() + message.dropFirst()
    setNeedsRender()
  }

  private func recordingStopped(_ message: String) {
    model.recording = nil
    model.notice = message.prefix(1).uppercased() + message.dropFirst()
    setNeedsRender()
  }

  /// Follows the store, the router and the alerts, redrawing when they change.
  package func attach() {
    router.onChange = { [weak self] in self?.routeChanged() }
    alerts.onChange = { [weak self] in
      self?.model.alertSelection = 0
      self?.setNeedsRender()
    }
    // The callback's state, not `login.state`: a handle takes the store's new slice after the
    // store's own observers have run.
    subscription = store.observe { [weak self] state in self?.stateChanged(state.login) }
  }

  /// Redraws everything when the terminal is resized.
  private func watchResizes() {
    Terminal.onResize { [weak self] in
      Task { @MainActor in
        guard let self else { return }
        self.clearsNextFrame = true
        self.render()
      }
    }
  }

  // MARK: - Keys

  /// Handles one batch of keys and draws the screen once.
  ///
  /// - Parameter keys: The keys that arrived together, in order.
  /// - Returns: `false` when the batch holds Ctrl-C: the app quits (keys after it are
  ///   ignored).
  package func process(_ keys: [Key]) -> Bool {
    for key in Key.coalesced(keys) {
      if key == .interrupt {
        render()
        return false
      }
      handle(key)
    }
    render()
    return true
  }

  private func handle(_ key: Key) {
    model.tappedWhileLocked = false
    if let alert = alerts.current {
      handleAlert(key, alert)
      return
    }
    switch router.top {
    case .home:
      if key == .enter { login.send(.logoutButtonTapped) }
    case .login:
      if login.state.twoFactor != nil {
        handleCodeStep(key)
      } else if login.state.passwordReset != nil {
        handlePasswordReset(key)
      } else {
        handleLoginForm(key)
      }
    }
  }

  private func handleAlert(_ key: Key, _ alert: Alert) {
    let count = alert.buttons.count
    switch key {
    case .escape:
      alerts.dismiss()
    case .enter:
      if alert.buttons.indices.contains(model.alertSelection) {
        alerts.tap(alert.buttons[model.alertSelection])
      } else {
        alerts.dismiss()
      }
    case .tab, .right, .down:
      if count > 0 { model.alertSelection = (model.alertSelection + 1) % count }
    case .backTab, .left, .up:
      if count > 0 { model.alertSelection = (model.alertSelection + count - 1) % count }
    default:
      break
    }
  }

  private func handleCodeStep(_ key: Key) {
    if model.moveFocus(key, through: ScreenModel.codeStepOrder) { return }
    switch key {
    case .enter:
      switch model.focus {
      case .code, .verifyButton: login.send(.twoFactor(.verifyButtonTapped))
      case .resendButton:
        let resends = login.state.twoFactor?.isResendButtonEnabled == true
        login.send(.twoFactor(.resendButtonTapped))
        if resends { model.focus = ScreenModel.focusAfterResend }
      default: login.send(.twoFactor(.cancelButtonTapped))
      }
    case .escape:
      login.send(.twoFactor(.cancelButtonTapped))
    default:
      // Typing on a button types into the code, as the field is the step's one field.
      if FieldEditing.changesText(key) { model.focus = .code }
      edit(key)
    }
  }

  private func handleLoginForm(_ key: Key) {
    // While signing in, Enter does nothing: an impatient second Enter must not cancel the
    // sign-in it started. Cancelling is a deliberate key, Esc.
    if key == .enter, login.state.isLoading { return }
    if model.moveFocus(key, through: ScreenModel.formOrder) { return }
    let order = ScreenModel.formOrder
    let position = order.firstIndex(of: model.focus) ?? 0
    switch key {
    case .enter where model.focus == .forgotButton:
      login.send(.forgotPasswordTapped)
    case .enter:
      if model.focus == .loginButton || model.focus == .password {
        // A locked form ignores the tap; the screen says why instead of doing nothing.
        model.tappedWhileLocked = login.state.isLocked
        login.send(.loginButtonTapped)
      } else {
        model.focus = order[position + 1]
      }
    case .escape:
      login.send(.cancelButtonTapped)
    default:
      edit(key)
    }
  }

  private func handlePasswordReset(_ key: Key) {
    if model.moveFocus(key, through: ScreenModel.passwordResetOrder) { return }
    switch key {
    case .enter where model.focus == .backButton, .escape:
      login.send(.passwordReset(.backButtonTapped))
    case .enter:
      login.send(.passwordReset(.sendButtonTapped))
    default:
      edit(key)
    }
  }

  /// Applies an editing key to the focused field at the cursor; an edit that changes nothing
  /// (Backspace in an empty field, an arrow) sends no action.
  private func edit(_ key: Key) {
    let old: String
    switch model.focus {
    case .username: old = login.state.username.value
    // The only place the demo reads the clear password: to edit it.
    case .password: old = login.state.password.reveal()
    case .email:
      guard let step = login.state.passwordReset else { return }
      old = step.email.value
    // And to edit the one-time code, which the reducer keeps as digits only.
    case .code:
      guard let step = login.state.twoFactor else { return }
      old = step.code.reveal()
    default: return
    }
    var text = old
    // A one-time code is typed and erased at its end, as on iOS: no cursor to move in it.
    var cursor = model.focus == .code ? old.count : (model.cursor ?? old.count)
    guard FieldEditing.apply(key, to: &text, cursor: &cursor) else { return }
    model.cursor = cursor == text.count || model.focus == .code ? nil : cursor
    guard text != old else { return }
    switch model.focus {
    case .username: login.send(.edit(.set(\.username, to: PersonalData(text))))
    case .email: login.send(.passwordReset(.edit(.set(\.email, to: PersonalData(text)))))
    case .code: login.send(.twoFactor(.codeChanged(Secret(text))))
    default: login.send(.edit(.set(\.password, to: Secret(text))))
    }
  }

  // MARK: - Drawing

  private func routeChanged() {
    model.focus = router.top == .login ? .username : .logoutButton
    setNeedsRender()
  }

  private func stateChanged(_ login: LoginState) {
    countdown.update(login, now: now)
    if countdown.secondsLeft(at: now) != nil, countdownTicker == nil {
      countdownTicker = Task { [weak self] in
        while !Task.isCancelled {
          guard let self, let wait = self.countdown.untilNextTick(at: self.now) else { break }
          do {
            try await self.clock.sleep(for: wait)
          } catch {
            break
          }
          self.render()
        }
        self?.countdownTicker = nil
      }
    }
    if isLoading, spinner == nil {
      spinner = Task { [weak self] in
        while !Task.isCancelled {
          try? await Task.sleep(for: .milliseconds(80))
          guard let self, self.isLoading else { break }
          self.model.spinnerFrame += 1
          self.render()
        }
        self?.spinner = nil
      }
    }
    setNeedsRender()
  }

  private var isLoading: Bool { ScreenModel.isLoading(store.state) }

  /// Draws on the next turn of the main actor, once for every change until then — unless a
  /// batch of keys draws first.
  private func setNeedsRender() {
    needsRender = true
    guard !isRenderScheduled else { return }
    isRenderScheduled = true
    scheduledRender = Task { @MainActor [weak self] in
      guard let self else { return }
      self.isRenderScheduled = false
      if self.needsRender { self.render() }
    }
  }

  private func render() {
    needsRender = false
    guard let drawScreen else { return }
    model.routes = router.stack
    model.alert = alerts.current
    model.focus = ScreenModel.settle(model.focus, routes: model.routes, state: store.state)
    model.lockoutSecondsLeft = countdown.secondsLeft(at: now)
    model.rows = terminalRows()
    drawScreen(ScreenRenderer.render(store.state, model), clearsNextFrame)
    clearsNextFrame = false
  }
}

/// Hands a message from a recorder's background queue to the app on the main actor.
@MainActor
private final class StopRelay {
  var handler: ((String) -> Void)?
}
