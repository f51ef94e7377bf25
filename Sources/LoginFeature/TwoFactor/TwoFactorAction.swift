import StateStore

/// What happened on the one-time-code step.
public enum TwoFactorAction: Sendable, Equatable, Codable {
  /// The user typed or pasted into the code field; everything but digits is dropped.
  case codeChanged(Secret)
  /// The user tapped Verify.
  case verifyButtonTapped
  /// The service answered the verification with id `request`.
  indirect case verifyResponse(request: Int, VerifyCodeResult)
  /// The user tapped Resend.
  case resendButtonTapped
  /// The service answered the resend with id `request`.
  indirect case resendResponse(request: Int, ResendCodeResult)
  /// One second of the resend countdown passed.
  case resendTimerTicked
  /// The user tapped Cancel (or pressed Esc).
  case cancelButtonTapped
  /// The user tapped the alert button with this id; `nil` when dismissed.
  case alertButtonTapped(String?)
}
