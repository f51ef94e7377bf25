import Foundation
import StateStore

/// Everything the login screen is rendered from.
///
/// A plain value: ``LoginReducer`` changes it, the ``StateStore/Store`` publishes it. What can
/// be derived is computed, not stored — the validation errors and whether the login button is
/// enabled follow every keystroke without the reducer having to keep them in sync.
///
/// ```swift
/// var state = LoginState(rules: .email)
/// state.username = "ada@example.com"
/// state.password = "Engine1843"
/// state.isLoginButtonEnabled   // true
/// ```
public struct LoginState: Sendable, Equatable, Codable {
  /// The username (or email) as typed.
  public var username: PersonalData
  /// The password as typed.
  public var password: Secret
  /// Whether a login request is in flight: the spinner.
  public var isLoading: Bool
  /// Failed attempts with invalid credentials since the last success or lockout.
  public var failedAttempts: Int
  /// Whether too many failed attempts have locked the form until ``LoginAction/lockoutEnded``.
  public var isLocked: Bool
  /// The id of the latest login attempt: 0 before the first, then 1, 2, …
  ///
  /// A ``LoginAction/loginResponse(attempt:_:)`` for any other attempt is stale and ignored.
  public var attemptID: Int
  /// The signed-in user, after a successful login.
  public var user: User?
  /// The rules the form is validated against, and the lockout policy.
  public var rules: CredentialRules
  /// The one-time-code step, while the service waits for a second factor.
  public var twoFactor: TwoFactorState?
  /// A sentence to show above the form, e.g. that a restored session had expired.
  public var notice: String?
  /// How long the current lockout lasts from when it began or was restored: the rules'
  /// duration, or what remained of it at launch. `nil` while not locked.
  public var lockedFor: Duration?
  /// The password-reset step, while it shows.
  public var passwordReset: PasswordResetState?
  // Stored only while true, so that the logs of states without it keep their digests.
  private var restoring: Bool?
  // Each stored only while true, for the same reason: the logs of older states still decode
  // (a missing key is `false`) and keep their digests.
  private var usernameEdited: Bool?
  private var passwordEdited: Bool?
  private var submitTried: Bool?

  /// Whether the saved session and lockout are being read at launch: a host shows a splash,
  /// not the form, until ``LoginAction/restored(_:at:)`` arrives.
  public var isRestoring: Bool {
    get { restoring ?? false }
    set { restoring = newValue ? true : nil }
  }

  /// Whether the person has edited the username field since the form was shown: its hints
  /// (``visibleValidationMessages``) show from then on.
  public var isUsernameEdited: Bool {
    get { usernameEdited ?? false }
    set { usernameEdited = newValue ? true : nil }
  }

  /// Whether the person has edited the password field since the form was shown (or since the
  /// flow last emptied it): its hints show from then on.
  public var isPasswordEdited: Bool {
    get { passwordEdited ?? false }
    set { passwordEdited = newValue ? true : nil }
  }

  /// Whether the person has tapped Login on this form: every field's hints show from then on.
  public var wasSubmitTried: Bool {
    get { submitTried ?? false }
    set { submitTried = newValue ? true : nil }
  }

  /// Creates a state; `LoginState()` is the empty form under the default rules.
  ///
  /// - Parameters:
  ///   - rules: The validation rules and lockout policy.
  ///   - username: The username as typed.
  ///   - password: The password as typed.
  ///   - isLoading: Whether a request is in flight.
  ///   - failedAttempts: Failed attempts with invalid credentials so far.
  ///   - isLocked: Whether the form is locked.
  ///   - attemptID: The id of the latest attempt.
  ///   - user: The signed-in user.
  ///   - twoFactor: The one-time-code step, if it is showing.
  ///   - notice: A sentence to show above the form.
  ///   - lockedFor: How long the current lockout lasts.
  ///   - isRestoring: Whether the launch restore is in progress.
  public init(
    rules: CredentialRules = .default,
    username: PersonalData = "",
    password: Secret = "",
    isLoading: Bool = false,
    failedAttempts: Int = 0,
    isLocked: Bool = false,
    attemptID: Int = 0,
    user: User? = nil,
    twoFactor: TwoFactorState? = nil,
    notice: String? = nil,
    lockedFor: Duration? = nil,
    isRestoring: Bool = false
  ) {
    self.username = username
    self.password = password
    self.isLoading = isLoading
    self.failedAttempts = failedAttempts
    self.isLocked = isLocked
    self.attemptID = attemptID
    self.user = user
    self.rules = rules
    self.twoFactor = twoFactor
    self.notice = notice
    self.lockedFor = lockedFor
    self.restoring = isRestoring ? true : nil
  }

  /// Every rule the form breaks under ``rules``; empty when it is valid.
  public var validationErrors: [LoginFormValidationError] {
    rules.validate(username: username.value, password: password)
  }

  /// The user-facing messages of ``validationErrors``, in the same order.
  public var validationMessages: [String] {
    validationErrors.map(rules.message(for:))
  }

  /// The hints the form shows under its fields: the messages of ``validationErrors`` for the
  /// fields the person has edited, or all of them once Login was tapped. A form nobody has
  /// touched shows no errors, as a good iOS form does.
  ///
  /// ```swift
  /// var state = LoginState()
  /// state.visibleValidationMessages  // []
  /// state.isUsernameEdited = true
  /// state.visibleValidationMessages  // ["Username must be 2 to 10 characters"]
  /// ```
  public var visibleValidationMessages: [String] {
    validationErrors.filter { error in
      wasSubmitTried || (error.isAboutPassword ? isPasswordEdited : isUsernameEdited)
    }.map(rules.message(for:))
  }

  /// Whether the username and password satisfy ``rules``.
  public var isFormValid: Bool {
    validationErrors.isEmpty
  }

  /// Whether the login button can be tapped: the form is valid, no request is in flight, the
  /// form is not locked, and nobody is signed in, halfway through a second factor or resetting
  /// a password — exactly when ``LoginReducer`` would act on a tap.
  public var isLoginButtonEnabled: Bool {
    isFormActive && !isLocked && isFormValid
  }

  /// Whether the form is what the person sees and can act on: nobody is signed in, no request
  /// or relaunch is in flight, and no second-factor or password-reset step is shown. The one
  /// rule ``LoginReducer`` and ``isLoginButtonEnabled`` read ("Forgot password?" is enabled
  /// exactly then).
  public var isFormActive: Bool {
    guard !isLoading, !isRestoring, case .none = user, case .none = twoFactor,
      case .none = passwordReset
    else { return false }
    return true
  }
}

extension LoginState: EditableFields {
  /// The form's fields, for ``LoginAction/edit(_:)``: `username` and `password`, by these names
  /// in action logs.
  public static let fields: [EditableField<LoginState>] = [
    EditableField("username", \.username),
    EditableField("password", \.password),
  ]

  /// Empties the password the way the flow does after a second factor ends: the form starts
  /// over, so no hint shows until the person types again or taps Login.
  mutating func clearPassword() {
    password = ""
    isPasswordEdited = false
    wasSubmitTried = false
  }

  /// Notes that the field named `name` (one of ``fields``) was edited: its hints show.
  mutating func noteEdited(_ name: String) {
    switch name {
    case "username": isUsernameEdited = true
    case "password": isPasswordEdited = true
    default: break
    }
  }
}

extension LoginState: CustomReflectable {
  /// The fields as a host reads and writes them: the flags under the names a test writes
  /// (`isUsernameEdited: false`), not their stored form (`usernameEdited: nil`, kept only while
  /// true so that older logs keep their digests). A test failure, a dump and a debugger show
  /// what `$0.isUsernameEdited = true` sets. (The log keeps its own keys: see the ActionLogs
  /// article.)
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "username": username, "password": password, "isLoading": isLoading,
        "failedAttempts": failedAttempts, "isLocked": isLocked, "attemptID": attemptID,
        "user": user as Any, "rules": rules, "twoFactor": twoFactor as Any,
        "notice": notice as Any, "lockedFor": lockedFor as Any,
        "passwordReset": passwordReset as Any, "isRestoring": isRestoring,
        "isUsernameEdited": isUsernameEdited, "isPasswordEdited": isPasswordEdited,
        "wasSubmitTried": wasSubmitTried,
      ],
      displayStyle: .struct)
  }
}
