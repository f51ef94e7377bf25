import StateStore

/// What the one-time-code step needs the outside world to do, as data.
public enum TwoFactorEffect: StoreEffect, Equatable, Codable {
  /// Verifies `code` for `challenge`; the answer comes back as
  /// ``TwoFactorAction/verifyResponse(request:_:)`` tagged with `request`.
  case verifyCode(Secret, challenge: Challenge, request: Int)
  /// Asks for a new code; the answer comes back as
  /// ``TwoFactorAction/resendResponse(request:_:)``.
  case resendCode(challenge: Challenge, request: Int)
  /// Sends ``TwoFactorAction/resendTimerTicked`` once a second, `seconds` times.
  case startResendTimer(seconds: Int)
  /// Shows an alert; the tapped button comes back as ``TwoFactorAction/alertButtonTapped(_:)``.
  case showAlert(Alert)

  /// The cancellation group of verifications and resends.
  public static let requestID: CancellationID = "twoFactor.request"
  /// The cancellation group of the resend countdown.
  public static let resendTimerID: CancellationID = "twoFactor.resendTimer"

  /// Requests replace each other in ``requestID``; the countdown restarts in
  /// ``resendTimerID``.
  public var cancellation: EffectCancellation {
    switch self {
    case .verifyCode, .resendCode: .group(Self.requestID, cancelInFlight: true)
    case .startResendTimer: .group(Self.resendTimerID, cancelInFlight: true)
    case .showAlert: .none
    }
  }
}
