import StateStore

/// What happened on the password-reset step.
///
/// Only ``edit(_:)`` carries the address the person typed (as personal data); the answers
/// carry none.
public enum PasswordResetAction: Sendable, Equatable, Codable {
  /// The user edited the email field (`.edit(.set(\.email, to: "ada@example.com"))`).
  case edit(FieldEdit<PasswordResetState>)
  /// The user tapped "Send link" (or "Send again").
  case sendButtonTapped
  /// The service answered the request with id `request`.
  case sendResponse(request: Int, PasswordResetResult)
  /// One second of the wait before "Send again" passed.
  case resendTimerTicked
  /// The user tapped Back (or pressed Esc): the step closes.
  case backButtonTapped
  /// The user tapped the alert button with this id; `nil` when dismissed.
  case alertButtonTapped(String?)
}
