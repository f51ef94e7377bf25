/// What the login service answers a request for a password-reset link with.
///
/// The service answers the same for an address it knows and one it does not, so the step never
/// tells who has an account: ``accepted`` means "if there is an account, a link is on its way".
public enum PasswordResetAnswer: Sendable, Equatable, Codable {
  /// The request was accepted (HTTP `202`).
  case accepted
  /// Too many requests (HTTP `429`): another can be sent after this many seconds (its
  /// `Retry-After`).
  case rateLimited(retryAfterSeconds: Int)
}

/// The answer to a request for a password-reset link, as the step hears it.
public enum PasswordResetResult: Sendable, Equatable, Codable {
  /// The service answered.
  case success(PasswordResetAnswer)
  /// It failed: any ``LoginServiceError``.
  case failure(LoginServiceError)
}
