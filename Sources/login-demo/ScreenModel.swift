import AppFeature
import LoginFeature
import LoginScreen

/// What the screen shows besides the store's state: the host app's own UI state.
///
/// ``ScreenRenderer`` is a pure function of a `LoginState` and this model, so script mode and
/// interactive mode draw exactly the same screens.
struct ScreenModel: Equatable {
  /// The element keys go to: an element of the screen ``LoginScreenContent`` describes.
  typealias Focus = ScreenControl

  /// The navigation stack; the top decides the screen.
  var routes: [Route] = [.login]
  /// The focused element.
  var focus: Focus = .username {
    didSet { if focus != oldValue { cursor = nil } }
  }
  /// Where the cursor is in the focused field, in characters from its start; `nil` at its end
  /// (where focusing a field puts it).
  var cursor: Int?
  /// The alert showing, if any.
  var alert: Alert?
  /// The index of the selected button of ``alert``.
  var alertSelection = 0
  /// Which frame of the spinner to draw while a request is in flight.
  var spinnerFrame = 0
  /// Whether to add the line explaining the keys (interactive mode only).
  var showsKeyHints = false
  /// The terminal's height in rows, when known: the key hints are left out when the screen
  /// would not fit with them, so a short window still shows the form (or the alert) itself.
  var rows: Int?
  /// A warning about the app itself, below the screen: `Recording stopped: …` (interactive
  /// mode only; script mode says it on standard error).
  var notice: String?
  /// What is being recorded, shown while it is (`session.jsonl`, `the folder 'logs'`); `nil`
  /// when nothing is, or once recording stopped (the notice then says why).
  var recording: String?
  /// The whole seconds left of the lockout, counted down on the app's clock; `nil` while the
  /// form is not locked.
  var lockoutSecondsLeft: Int?
  /// Whether the last tap on Login met a locked form: the screen says why nothing happened.
  var tappedWhileLocked = false
  /// Whether the one-time code shows its digits, as iOS one-time-code fields do: on the
  /// terminal the person types at (interactive mode). Script mode's screens go to files and CI
  /// logs, where the code stays dots, as every secret does.
  var revealsCode = false

  /// The elements of the login form, in Tab order.
  static let formOrder: [Focus] = [.username, .password, .loginButton, .forgotButton]
  /// Where the focus goes after a tap on an enabled Resend: the code field, where the new code
  /// goes, off the button its countdown disables (a tap on the disabled button leaves it).
  static let focusAfterResend: Focus = .code
  /// The elements of the code step, in Tab order.
  static let codeStepOrder: [Focus] = [.code, .verifyButton, .resendButton, .cancelButton]
  /// The elements of the password-reset step, in Tab order.
  static let passwordResetOrder: [Focus] = [.email, .sendButton, .backButton]

  /// Tab or ↓ moves the focus to the next element of `order`, Shift-Tab or ↑ to the previous.
  ///
  /// - Returns: Whether `key` moved it.
  mutating func moveFocus(_ key: Key, through order: [Focus]) -> Bool {
    let position = order.firstIndex(of: focus) ?? 0
    switch key {
    case .tab, .down: focus = order[(position + 1) % order.count]
    case .backTab, .up: focus = order[(position + order.count - 1) % order.count]
    default: return false
    }
    return true
  }

  /// `focus`, moved to the screen showing: the logout button on the home screen, the code
  /// field when the code step appears, the email field when the password-reset step appears,
  /// the username when the form comes back.
  static func settle(_ focus: Focus, routes: [Route], state: AppState) -> Focus {
    if case .home = routes.last ?? .login { return .logoutButton }
    if state.login.passwordReset != nil {
      return passwordResetOrder.contains(focus) ? focus : .email
    }
    if state.login.twoFactor != nil {
      return codeStepOrder.contains(focus) ? focus : .code
    }
    return formOrder.contains(focus) ? focus : .username
  }

  /// Whether a request is in flight that the screen shows a spinner for and `wait` waits for:
  /// the sign-in, the profile, the code step's and the password-reset step's requests.
  static func isLoading(_ state: AppState) -> Bool {
    let step = state.login.twoFactor
    return state.login.isLoading || state.home?.isLoadingProfile == true
      || step?.isVerifying == true || step?.isResending == true
      || state.login.passwordReset?.isSending == true
  }
}
