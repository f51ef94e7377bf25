import StateStore

/// What the login screen needs the outside world to do, as data.
///
/// ``LoginReducer`` returns these; ``LoginEffectHandler`` carries them out. Because they are
/// `Equatable` values, tests assert them without running them, and action logs record them.
///
/// The request and the lockout timer each run in their own cancellation group: a new
/// ``authenticate(_:attempt:)`` replaces one still in flight, and
/// ``cancelAuthentication`` cancels it.
public enum LoginEffect: ComposedEffect, Equatable, Codable {
  /// Signs in with `credentials`; the answer comes back as
  /// ``LoginAction/loginResponse(attempt:_:)`` tagged with `attempt`.
  case authenticate(Credentials, attempt: Int)
  /// Cancels the request in flight; nothing comes back.
  case cancelAuthentication
  /// Navigates.
  case route(RouteCommand)
  /// Shows an alert; the tapped button comes back as ``LoginAction/alertButtonTapped(_:)``.
  case showAlert(Alert)
  /// Waits `duration` on the clock, then sends ``LoginAction/lockoutEnded``.
  case startLockoutTimer(Duration)
  /// Keeps the session for the next launch. When the store cannot keep it, the handler answers
  /// ``LoginAction/storageFailed(_:)``.
  case saveSession(Session)
  /// Forgets the kept session; a store that cannot is answered with
  /// ``LoginAction/storageFailed(_:)``.
  case clearSession
  /// An effect of the one-time-code step.
  case twoFactor(TwoFactorEffect)
  /// An optional child (the one-time-code step) went away: everything it started is cancelled.
  case childDismissed(ChildDismissal)
  /// Reads the saved session and lockout, and the wall clock; the answer comes back as
  /// ``LoginAction/restored(_:at:)``.
  case restoreLaunch
  /// Applies `change` to the kept failed attempts and lockout deadline, as one
  /// read-modify-write of the ``LockoutStore`` (the handler reads the wall clock for the
  /// deadline). A store that cannot is answered with ``LoginAction/storageFailed(_:)``.
  case updateLockout(LockoutChange)
  /// An effect of the password-reset step.
  case passwordReset(PasswordResetEffect)

  /// The cancellation group of the login request.
  public static let authenticationID: CancellationID = "login.authenticate"
  /// The cancellation group of the lockout timer.
  public static let lockoutTimerID: CancellationID = "login.lockout"

  /// ``authenticate(_:attempt:)`` joins ``authenticationID`` (cancelling an older request),
  /// ``cancelAuthentication`` cancels it, and ``startLockoutTimer(_:)`` joins
  /// ``lockoutTimerID`` (restarting a running timer). The rest run on their own.
  public var cancellation: EffectCancellation {
    switch self {
    case .authenticate: .group(Self.authenticationID, cancelInFlight: true)
    case .cancelAuthentication: .cancels(Self.authenticationID)
    case .startLockoutTimer: .group(Self.lockoutTimerID, cancelInFlight: true)
    // The children's effects and dismissals: from the case that carries them.
    default: childCancellation ?? .none
    }
  }

}
