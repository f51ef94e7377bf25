import AppFeature
import LoginFeature
import LoginScreen
import ReplayTool
import StateStore

// The mock screens of the HTML timeline (`replay --html`) for the two features this build
// knows. They draw the elements the terminal demo draws (`LoginScreenContent`) from the
// replayed state, and keep what the state does not hold: the navigation stack (from the route
// effects so far), the alert showing (from the last `showAlert` effect until the alert's button
// comes back as an action), the lockout's seconds left (on the recorded step times) and
// whether the last tap on Login met a locked form.

/// The login feature's screen.
struct LoginTimelineScreen: TimelineScreenRenderer {
  private var memory = LoginScreenMemory()

  func facts(about initialState: LoginState) -> [TimelineFact] {
    LoginScreenMemory.facts(about: initialState)
  }

  mutating func reset(to state: LoginState) {
    memory = LoginScreenMemory(resumingAt: state)
  }

  mutating func apply(
    _ transition: Transition<LoginState, LoginAction, LoginEffect>, at time: Duration?
  ) {
    memory.apply(
      transition.action, transition.effects, origin: transition.origin,
      before: transition.stateBefore, after: transition.stateAfter, at: time)
  }

  func screen(for state: LoginState) -> TimelineScreen {
    memory.screen(login: state) { user in HomeState(user: user) }
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

  mutating func apply(
    _ transition: Transition<AppState, AppAction, AppEffect>, at time: Duration?
  ) {
    var action: LoginAction?
    if case .login(let login) = transition.action { action = login }
    let effects = transition.effects.compactMap { effect -> LoginEffect? in
      if case .login(let login) = effect { login } else { nil }
    }
    memory.apply(
      action, effects, origin: transition.origin, before: transition.stateBefore.login,
      after: transition.stateAfter.login, at: time)
  }

  func screen(for state: AppState) -> TimelineScreen {
    memory.screen(login: state.login) { user in state.home ?? HomeState(user: user) }
  }
}

/// What the login screen shows beyond its state: the navigation stack, the alerts, the
/// lockout's countdown and a tap on a locked form.
struct LoginScreenMemory {
  var routes: [Route] = [.login]
  /// The alerts showing, oldest first: the login form's and the steps' alike.
  var alerts: [Alert] = []
  /// The lockout's countdown on the recorded step times.
  var countdown = LockoutCountdown()
  /// The whole seconds left of the lockout at the last step; `nil` in a log without times
  /// (the screen then reads the lockout's length) or while not locked.
  var lockoutSecondsLeft: Int?
  /// Whether the last action of the person was a tap on Login that met a locked form.
  var tappedWhileLocked = false

  init() {}

  /// Where a log resumes after dropped transitions: signed in or not, no alert.
  init(resumingAt state: LoginState) {
    routes = state.user.map { [.login, .home($0)] } ?? [.login]
  }

  /// A tapped alert button dismisses the alert on top; then the step's effects navigate, and
  /// the alerts they present — the login form's and the code step's alike — are what shows.
  ///
  /// The countdown starts at the step that locks the form, as `login-demo`'s starts when the
  /// form locks on its clock; a tap on Login while locked shows why nothing happened until the
  /// person's next action, as in the demo.
  mutating func apply(
    _ action: LoginAction?, _ effects: [LoginEffect], origin: ActionOrigin,
    before: LoginState, after: LoginState, at time: Duration?
  ) {
    if origin == .user {
      tappedWhileLocked = action == .loginButtonTapped && before.isLocked
    }
    if let time {
      countdown.update(after, now: time)
      lockoutSecondsLeft = countdown.secondsLeft(at: time)
    } else {
      lockoutSecondsLeft = nil
    }
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

  func screen(login state: LoginState, home: (User) -> HomeState) -> TimelineScreen {
    let elements: [ScreenElement]
    switch routes.last ?? .login {
    case .login:
      elements = LoginScreenContent.login(
        state, lockoutSecondsLeft: lockoutSecondsLeft, tappedWhileLocked: tappedWhileLocked)
    case .home(let user): elements = LoginScreenContent.home(home(user))
    }
    return TimelineScreen(
      title: "LoginStore demo", path: routes.map(Self.describe),
      elements: elements.compactMap(Self.widget),
      alerts: alerts.map {
        TimelineScreen.Alert(title: $0.title, message: $0.message, buttons: $0.buttons.map(\.title))
      })
  }

  /// The page's widget for a screen element: the code as dots (never its digits), a button's
  /// remark after its title; no blank lines (the page has its own spacing).
  static func widget(_ element: ScreenElement) -> TimelineScreen.Element? {
    switch element {
    case .heading(let text): .heading(text)
    case .text(let text, let tone), .paragraph(let text, let tone): .text(text, tone: tone.page)
    case .caption(let text): .text(text, tone: .dim)
    case .field(_, let label, let value): .field(label: label, value: value)
    case .secureField(_, let label, let length): .secureField(label: label, length: length)
    case .codeField(_, let label, let code, _): .secureField(label: label, length: code.mask.count)
    case .button(_, let title, let isEnabled, let detail):
      .button(title + (detail.map { " " + $0 } ?? ""), isEnabled: isEnabled)
    case .spinner(let text): .spinner(text)
    case .space: nil
    }
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

extension ScreenElement.Tone {
  /// The page's tone for this one.
  fileprivate var page: TimelineScreen.Tone {
    switch self {
    case .plain: .plain
    case .dim: .dim
    case .success: .success
    case .error: .error
    case .warning: .warning
    }
  }
}
