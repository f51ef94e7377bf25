import StateStore

/// Everything the password-reset step is rendered from.
///
/// The step is an optional child of the login flow (``LoginState/passwordReset``): "Forgot
/// password?" on the form shows it, and Back ends it. It asks for the account's email address,
/// checked by ``CredentialRules/validateEmail(_:)``, and sends a reset link to it.
///
/// The step's text is built here, from the state, so every host shows the same words:
///
/// ```swift
/// var step = PasswordResetState(email: "ada@example.com")
/// step.isSendButtonEnabled  // true
/// step.linkSentTo = "ada@example.com"
/// step.confirmation  // "If an account exists for a••••@example.com, a reset link is on its way."
/// ```
public struct PasswordResetState: Sendable, Equatable, Codable, PresentedState {
  /// How long after a link is sent another can be asked for, in seconds.
  public static let resendDelaySeconds = 60
  /// The longest wait a rate-limited answer is taken at, in seconds: an hour.
  public static let maxRetryAfterSeconds = 3_600

  /// The email address as typed.
  public var email: PersonalData
  /// Whether a request for a link is in flight.
  public var isSending: Bool
  /// The id of the latest request; answers for any other are stale.
  public var requestID: Int
  /// The address the service last accepted a request for; `nil` until it has.
  public var linkSentTo: PersonalData?
  /// Whether the service's last answer was "too many requests".
  public var isRateLimited: Bool
  /// Seconds until "Send again" can be tapped; 0 when it can.
  public var resendCountdown: Int
  /// How the step ended, for the login flow; `nil` while it shows.
  public var outcome: PasswordResetOutcome?
  // Each stored only while true, so that the logs of states without them still decode (a
  // missing key is `false`) and keep their digests.
  private var emailEdited: Bool?
  private var submitTried: Bool?

  /// Whether the person has edited the email field since the step was shown: its hint
  /// (``visibleValidationError``) shows from then on.
  public var isEmailEdited: Bool {
    get { emailEdited ?? false }
    set { emailEdited = newValue ? true : nil }
  }

  /// Whether the person has tapped "Send link" on this step: the hint shows from then on.
  public var wasSubmitTried: Bool {
    get { submitTried ?? false }
    set { submitTried = newValue ? true : nil }
  }

  /// Creates the step's state.
  ///
  /// - Parameters:
  ///   - email: The email address as typed.
  ///   - isSending: Whether a request is in flight.
  ///   - requestID: The id of the latest request.
  ///   - linkSentTo: The address the service last accepted a request for.
  ///   - isRateLimited: Whether the last answer was "too many requests".
  ///   - resendCountdown: Seconds until "Send again" can be tapped.
  ///   - outcome: How the step ended.
  public init(
    email: PersonalData = "",
    isSending: Bool = false,
    requestID: Int = 0,
    linkSentTo: PersonalData? = nil,
    isRateLimited: Bool = false,
    resendCountdown: Int = 0,
    outcome: PasswordResetOutcome? = nil
  ) {
    self.email = email
    self.isSending = isSending
    self.requestID = requestID
    self.linkSentTo = linkSentTo
    self.isRateLimited = isRateLimited
    self.resendCountdown = resendCountdown
    self.outcome = outcome
  }

  /// The rule the typed address breaks; `nil` when it is a valid address.
  public var validationError: LoginFormValidationError? {
    CredentialRules.validateEmail(email.value)
  }

  /// The rule the typed address breaks, once the field was edited or "Send link" tapped: what
  /// the step shows under the field. A step nobody has touched shows no error.
  public var visibleValidationError: LoginFormValidationError? {
    isEmailEdited || wasSubmitTried ? validationError : nil
  }

  /// Whether "Send link" can be tapped: the address is valid, nothing is in flight and the wait
  /// before "Send again" is over — exactly when ``PasswordResetReducer`` would act on a tap.
  public var isSendButtonEnabled: Bool {
    validationError == nil && !isSending && resendCountdown == 0 && outcome == nil
  }

  /// "Send link", or "Send again" once the service has answered a request.
  public var sendButtonTitle: String {
    linkSentTo == nil && !isRateLimited ? "Send link" : "Send again"
  }

  /// What the step says once a request was accepted: "If an account exists for
  /// a••••@example.com, a reset link is on its way." The same words whether or not there is
  /// such an account.
  public var confirmation: String? {
    linkSentTo.map {
      "If an account exists for \(Self.displayMask(of: $0.value)), a reset link is on its way."
    }
  }

  /// What the step says while "Send again" waits: "Too many requests. You can send again in
  /// 30 seconds." after a rate-limited answer, "You can send again in 42 seconds." after a link
  /// was sent; `nil` when nothing waits.
  public var waitMessage: String? {
    guard resendCountdown > 0 else { return nil }
    let wait = "You can send again in \(Duration.seconds(resendCountdown).inWords)."
    return isRateLimited ? "Too many requests. " + wait : wait
  }

  /// An address as the step shows it: its first character, `••••`, then `@` and the domain.
  ///
  /// ```swift
  /// PasswordResetState.displayMask(of: "ada@example.com")  // "a••••@example.com"
  /// PasswordResetState.displayMask(of: "ada")              // "a••••"
  /// ```
  ///
  /// - Parameter email: The address; surrounding whitespace is ignored.
  /// - Returns: The masked address.
  public static func displayMask(of email: String) -> String {
    let address = email.trimmingSurroundingWhitespace()
    guard let at = address.lastIndex(of: "@") else { return String(address.prefix(1)) + "••••" }
    return String(address[..<at].prefix(1)) + "••••" + String(address[at...])
  }
}

extension PasswordResetState: EditableFields {
  /// The step's one field, for ``PasswordResetAction/edit(_:)``: `email`, by this name in
  /// action logs.
  public static let fields: [EditableField<PasswordResetState>] = [EditableField("email", \.email)]
}

/// How the password-reset step ended.
public enum PasswordResetOutcome: Sendable, Equatable, Codable {
  /// The user went back to the form (Back, or Esc).
  case closed
}

extension PasswordResetState: CustomReflectable {
  /// The fields as a host reads and writes them: `isEmailEdited` and `wasSubmitTried`, not
  /// their stored forms (`emailEdited: nil`, kept only while true); see ``LoginState``'s.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "email": email, "isSending": isSending, "requestID": requestID,
        "linkSentTo": linkSentTo as Any, "isRateLimited": isRateLimited,
        "resendCountdown": resendCountdown, "outcome": outcome as Any,
        "isEmailEdited": isEmailEdited, "wasSubmitTried": wasSubmitTried,
      ],
      displayStyle: .struct)
  }
}
