import StateStore

/// What the password-reset step needs the outside world to do, as data.
public enum PasswordResetEffect: StoreEffect, Equatable, Codable {
  /// Asks the service to send a reset link to `email`; the answer comes back as
  /// ``PasswordResetAction/sendResponse(request:_:)`` tagged with `request`.
  case requestReset(email: PersonalData, request: Int)
  /// Sends ``PasswordResetAction/resendTimerTicked`` once a second, `seconds` times.
  case startResendTimer(seconds: Int)
  /// Ends the wait before "Send again": the address it was for changed. The store cancels
  /// ``resendTimerID``; a handler has nothing to do.
  case cancelResendTimer
  /// Shows an alert; the tapped button comes back as
  /// ``PasswordResetAction/alertButtonTapped(_:)``.
  case showAlert(Alert)

  /// The cancellation group of the request.
  public static let requestID: CancellationID = "passwordReset.request"
  /// The cancellation group of the wait before "Send again".
  public static let resendTimerID: CancellationID = "passwordReset.resendTimer"

  /// A request replaces one in flight in ``requestID``; the countdown restarts in
  /// ``resendTimerID``, and ``cancelResendTimer`` ends it. Both end when the step goes away.
  public var cancellation: EffectCancellation {
    switch self {
    case .requestReset: .group(Self.requestID, cancelInFlight: true)
    case .startResendTimer: .group(Self.resendTimerID, cancelInFlight: true)
    case .cancelResendTimer: .cancels(Self.resendTimerID)
    case .showAlert: .none
    }
  }
}
