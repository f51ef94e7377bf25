import AppFeature
import LoginFeature
import ReplayTool
import StateStore

// The mock screens of the HTML timeline (`replay --html`) for the two features this build
// knows. They draw what the terminal demo draws — the form with its hints, the spinner, the
// alert, the home screen — from the replayed state, and keep what the state does not hold:
// the navigation stack (from the route effects so far) and the alert showing (from the last
// `showAlert` effect until the alert's button comes back as an action).

/// The login feature's screen.
struct LoginTimelineScreen: TimelineScreenRenderer {
  private var memory = LoginScreenMemory()

  func facts(about initialState: LoginState) -> [TimelineFact] {
    LoginScreenMemory.facts(about: initialState)
  }

  mutating func reset(to state: LoginState) {
    memory = LoginScreenMemory(resumingAt: state)
  }

  mutating func apply(_ transition: Transition<LoginState, LoginAction, LoginEffect>) {
    memory.apply(transition.action, transition.effects)
  }

  func screen(for state: LoginState) -> TimelineScreen {
    memory.screen(login: state) { user in LoginScreenMemory.home(user: user, home: nil) }
  }
}

/// The app feature's screen: the login flow, or the home screen with the user's profile.
struct AppTimelineScreen: TimelineScreenRenderer {
  private var memory = LoginScreenMemory()

  func facts(about initialState: AppState) -> [TimelineFact] {
    LoginScreenMemory.facts(about: initialState.login)
  }

  mutating func reset(to state: AppState) {
    memory = LoginScreenMemory(resumingAt: state.login)
  }

  mutating func apply(_ transition: Transition<AppState, AppAction, AppEffect>) {
    var action: LoginAction?
    if case .login(let login) = transition.action { action = login }
    let effects = transition.effects.compactMap { effect -> LoginEffect? in
      if case .login(let login) = effect { login } else { nil }
    }
    memory.apply(action, effects)
  }

  func screen(for state: AppState) -> TimelineScreen {
    memory.screen(login: state.login) { user in
      LoginScreenMemory.home(user: user, home: state.home)
    }
  }
}

/// What the login screen shows beyond its state: the navigation stack and the alerts.
struct LoginScreenMemory {
  var routes: [Route] = [.login]
  /// The alerts showing, oldest first: the login form's and the steps' alike.
  var alerts: [Alert] = []

  init() {}

  /// Where a log resumes after dropped transitions: signed in or not, no alert.
  init(resumingAt state: LoginState) {
    routes = state.user.map { [.login, .home($0)] } ?? [.login]
  }

  /// A tapped alert button dismisses the alert on top; then the step's effects navigate, and
  /// the alerts they present — the login form's and the code step's alike — are what shows.
  mutating func apply(_ action: LoginAction?, _ effects: [LoginEffect]) {
    switch action {
    case .alertButtonTapped, .twoFactor(.alertButtonTapped), .passwordReset(.alertButtonTapped):
      _ = alerts.popLast()
    default: break
    }
    var presented: [Alert] = []
    for effect in effects {
      switch effect {
      case .route(let command): command.apply(to: &routes)
      case .showAlert(let shown), .twoFactor(.showAlert(let shown)),
        .passwordReset(.showAlert(let shown)):
        presented.append(shown)
      default: break
      }
    }
    if !presented.isEmpty { alerts = presented }
  }

  func screen(
    login state: LoginState, home: (User) -> [TimelineScreen.Element]
  ) -> TimelineScreen {
    let elements: [TimelineScreen.Element]
    switch routes.last ?? .login {
    case .login: elements = Self.form(state)
    case .home(let user): elements = home(user)
    }
    return TimelineScreen(
      title: "LoginStore demo", path: routes.map(Self.describe), elements: elements,
      alerts: alerts.map {
        TimelineScreen.Alert(title: $0.title, message: $0.message, buttons: $0.buttons.map(\.title))
      })
  }

  static func form(_ state: LoginState) -> [TimelineScreen.Element] {
    if state.isRestoring { return [.spinner("Restoring your session…")] }
    if let step = state.twoFactor { return codeStep(step) }
    if let step = state.passwordReset { return passwordReset(step) }
    var elements: [TimelineScreen.Element] = state.notice.map { [.text($0, tone: .warning)] } ?? []
    elements += [
      .field(label: state.rules.kind == .email ? "Email" : "Username", value: state.username.value),
      .secureField(label: "Password", length: state.password.mask.count),
    ]
    // As login-demo shows them: a field's hints once it was edited or Login was tapped.
    let messages = state.visibleValidationMessages
    if !messages.isEmpty {
      elements += messages.map { .text("✗ " + $0, tone: .error) }
    } else if state.isFormValid {
      elements.append(.text("✓ Ready to sign in", tone: .success))
    }
    if state.isLocked {
      elements.append(
        .text(
          "Locked for \((state.lockedFor ?? state.rules.lockoutDuration).inWords) after "
            + "\(state.rules.maxAttempts) failed attempts", tone: .warning))
    } else if state.failedAttempts > 0 {
      elements.append(
        .text(
          "Failed attempts: \(state.failedAttempts) of \(state.rules.maxAttempts)",
          tone: .warning))
    }
    elements.append(.button("Login", isEnabled: state.isLoginButtonEnabled))
    if state.isLoading { elements.append(.spinner("Signing in…")) }
    return elements
  }

  /// The one-time-code step: its title, the code as dots, Verify, Resend and Cancel.
  static func codeStep(_ step: TwoFactorState) -> [TimelineScreen.Element] {
    var elements: [TimelineScreen.Element] = [
      .heading(step.title),
      .secureField(label: "Code", length: step.code.mask.count),
    ]
    if step.isExpired {
      elements.append(.text("✗ The code has expired: ask for a new one", tone: .error))
    } else if step.incorrectCodes > 0 {
      elements.append(.text("Incorrect codes: \(step.incorrectCodes)", tone: .warning))
    }
    elements.append(.button("Verify", isEnabled: step.isVerifyButtonEnabled))
    let countdown = step.resendCountdown > 0 ? " in \(step.resendCountdown) s" : ""
    elements.append(.button("Resend" + countdown, isEnabled: step.isResendButtonEnabled))
    elements.append(.button("Cancel", isEnabled: true))
    if step.isVerifying { elements.append(.spinner("Verifying…")) }
    if step.isResending { elements.append(.spinner("Sending a new code…")) }
    return elements
  }

  /// The password-reset step: the email as the state holds it (a log recorded with masking
  /// holds the mask), what is wrong with it, the confirmation, the wait before "Send again",
  /// "Send link" or "Send again", and Back.
  static func passwordReset(_ step: PasswordResetState) -> [TimelineScreen.Element] {
    var elements: [TimelineScreen.Element] = [
      .heading("Reset your password"),
      .field(label: "Email", value: step.email.value),
    ]
    if let error = step.visibleValidationError {
      elements.append(.text("✗ " + error.message, tone: .error))
    }
    if let confirmation = step.confirmation {
      elements.append(.text("✓ " + confirmation, tone: .success))
    }
    if let wait = step.waitMessage { elements.append(.text(wait, tone: .warning)) }
    elements.append(.button(step.sendButtonTitle, isEnabled: step.isSendButtonEnabled))
    elements.append(.button("Back", isEnabled: true))
    if step.isSending { elements.append(.spinner("Sending the link…")) }
    return elements
  }

  static func home(user: User, home: HomeState?) -> [TimelineScreen.Element] {
    var elements: [TimelineScreen.Element] = [
      .heading("Hello \(user.displayName)"),
      .text("Signed in as \(user.username)", tone: .dim),
    ]
    if let home {
      if home.isLoadingProfile {
        elements.append(.spinner("Loading your profile…"))
      } else if let profile = home.profile {
        let messages = profile.unreadMessages == 1 ? "message" : "messages"
        elements.append(
          .text("\(profile.plan) plan · \(profile.unreadMessages) unread \(messages)", tone: .plain)
        )
      } else if let error = home.profileError {
        elements.append(.text("✗ " + error, tone: .error))
      }
    }
    elements.append(.button("Logout", isEnabled: true))
    return elements
  }

  static func facts(about state: LoginState) -> [TimelineFact] {
    let rules = state.rules
    let kind: String
    switch rules.kind {
    case .default:
      kind =
        "default (username 2 to 10 characters; password at least 3 characters with an "
        + "uppercase letter and a digit)"
    case .email:
      kind = "email (username is an email address; password longer than 8 characters)"
    case .minimumLength(let length):
      kind = "minimum length (username and password at least \(length) characters)"
    }
    return [
      TimelineFact(
        label: "Rules",
        value: kind + "; \(rules.maxAttempts) failed attempts lock the form for "
          + rules.lockoutDuration.inWords)
    ]
  }

  static func describe(_ route: Route) -> String {
    switch route {
    case .login: "login"
    case .home(let user): "home(\(user.username))"
    }
  }
}
