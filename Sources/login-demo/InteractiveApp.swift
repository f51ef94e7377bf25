import AppFeature
import Foundation
import LoginFeature
import StateStore

/// Interactive mode: the login screen drawn full-screen from the store's state on every
/// change, driven by the keyboard.
///
/// | key              | login form                         | alert          | home    |
/// |------------------|------------------------------------|----------------|---------|
/// | text             | edits the focused field            | —              | —       |
/// | Backspace        | deletes the last character         | —              | —       |
/// | Tab / Shift-Tab  | next / previous element            | next button    | —       |
/// | Enter            | taps the button, or next field     | taps button    | logout  |
/// | Esc              | cancels the request in flight      | dismisses      | —       |
/// | Ctrl-C           | quits                              | quits          | quits   |
@MainActor
final class InteractiveApp {
  private let store: Store<AppReducer>
  private let router: DemoRouter
  private let alerts: DemoAlertPresenter
  private var terminal: Terminal?
  private var model = ScreenModel(showsKeyHints: true)
  private var spinner: Task<Void, Never>?
  private var subscription: StoreSubscription?
  private var recording: Integrations.Recording?

  /// Sets up a store on the real clock for `options`.
  ///
  /// - Throws: ``DemoFailure`` when an integration (`--api`, `--record`) is not available.
  init(options: DemoOptions) throws(DemoFailure) {
    let router = DemoRouter()
    let alerts = DemoAlertPresenter()
    let clock = ContinuousClock()
    let stores = try Integrations.stores(options)
    let now: @Sendable () -> Date = { Date() }
    let dependencies = AppDependencies(
      login: LoginDependencies(
        api: try Integrations.loginAPI(options, clock: clock, now: now),
        router: router,
        alertPresenter: alerts,
        sessionStore: stores.sessions,
        clock: clock,
        lockoutStore: stores.lockout,
        now: now
      ),
      profiles: DemoProfileAPI(clock: clock)
    )
    store = Store(
      app: AppState(login: LoginState(rules: options.rules)), dependencies: dependencies)
    self.router = router
    self.alerts = alerts
    // Standard error is under the full screen here: the notice goes on the screen, and
    // main says it again once the terminal is restored.
    let relay = StopRelay()
    recording = try Integrations.startRecording(store, options) { message in
      Task { @MainActor in relay.handler?(message) }
    }
    relay.handler = { [weak self] message in self?.recordingStopped(message) }
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
    self.terminal = terminal
    router.onChange = { [weak self] in self?.routeChanged() }
    alerts.onChange = { [weak self] in
      self?.model.alertSelection = 0
      self?.render()
    }
    subscription = store.observe { [weak self] _ in self?.stateChanged() }
    store.send(.login(.launched))
    render()
    var status: Int32 = 0
    for await key in KeyReader.keys() {
      if key == .interrupt {
        status = 128 + SIGINT
        break
      }
      handle(key)
      render()
    }
    // Nothing more is drawn: a notice from closing the log is said after the restore.
    self.terminal = nil
    spinner?.cancel()
    store.cancelAll()
    await recording?.stop()
    return status
  }

  private func recordingStopped(_ message: String) {
    model.notice = message.prefix(1).uppercased() + message.dropFirst()
    render()
  }

  // MARK: - Keys

  private func handle(_ key: Key) {
    if let alert = alerts.current {
      handleAlert(key, alert)
      return
    }
    switch router.top {
    case .home:
      if key == .enter { store.send(.login(.logoutButtonTapped)) }
    case .login:
      if store.state.login.twoFactor != nil {
        handleCodeStep(key)
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
    let order = ScreenModel.codeStepOrder
    let position = order.firstIndex(of: model.focus) ?? 0
    switch key {
    case .tab, .down:
      model.focus = order[(position + 1) % order.count]
    case .backTab, .up:
      model.focus = order[(position + order.count - 1) % order.count]
    case .enter:
      switch model.focus {
      case .code, .verifyButton: store.send(.login(.twoFactor(.verifyButtonTapped)))
      case .resendButton: store.send(.login(.twoFactor(.resendButtonTapped)))
      default: store.send(.login(.twoFactor(.cancelButtonTapped)))
      }
    case .escape:
      store.send(.login(.twoFactor(.cancelButtonTapped)))
    case .character, .backspace:
      guard var code = store.state.login.twoFactor?.code.reveal() else { return }
      model.focus = .code
      if case .character(let character) = key {
        code.append(character)
      } else if !code.isEmpty {
        code.removeLast()
      }
      store.send(.login(.twoFactor(.codeChanged(Secret(code)))))
    default:
      break
    }
  }

  private func handleLoginForm(_ key: Key) {
    let order = ScreenModel.formOrder
    let position = order.firstIndex(of: model.focus) ?? 0
    switch key {
    case .tab, .down:
      model.focus = order[(position + 1) % order.count]
    case .backTab, .up:
      model.focus = order[(position + order.count - 1) % order.count]
    case .enter:
      if model.focus == .loginButton {
        store.send(.login(.loginButtonTapped))
      } else {
        model.focus = order[position + 1]
      }
    case .escape:
      store.send(.login(.cancelButtonTapped))
    case .character(let character):
      edit { $0.append(character) }
    case .backspace:
      edit { text in if !text.isEmpty { text.removeLast() } }
    default:
      break
    }
  }

  private func edit(_ change: (inout String) -> Void) {
    switch model.focus {
    case .username:
      var text = store.state.login.username
      change(&text)
      store.send(.login(.usernameChanged(text)))
    case .password:
      // The only place the demo reads the clear password: to edit it.
      var text = store.state.login.password.reveal()
      change(&text)
      store.send(.login(.passwordChanged(Secret(text))))
    default:
      break
    }
  }

  // MARK: - Drawing

  private func routeChanged() {
    model.focus = router.top == .login ? .username : .logoutButton
    render()
  }

  private func stateChanged() {
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
    render()
  }

  private var isLoading: Bool {
    let step = store.state.login.twoFactor
    return store.state.login.isLoading || store.state.home?.isLoadingProfile == true
      || step?.isVerifying == true || step?.isResending == true
  }

  private func render() {
    guard let terminal else { return }
    model.routes = router.stack
    model.alert = alerts.current
    model.focus = ScreenModel.settle(model.focus, routes: model.routes, state: store.state)
    terminal.draw(ScreenRenderer.render(store.state, model))
  }
}

/// Hands a message from a recorder's background queue to the app on the main actor.
@MainActor
private final class StopRelay {
  var handler: ((String) -> Void)?
}
