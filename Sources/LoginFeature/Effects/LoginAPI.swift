import StateStore

/// Signs a user in: the login service, as the effect handler sees it.
///
/// Conform a client for your backend; ``LoginDemoBackend/DemoLoginAPI`` is an in-memory one for demos and
/// previews, and ``LoginHTTPClient/HTTPLoginAPI`` speaks the JSON protocol of the "Signing in over HTTP"
/// article. Failures are typed: map every transport, status and decoding problem to a
/// ``LoginServiceError``, and cancellation of the calling task to
/// ``LoginServiceError/cancelled``.
///
/// A correct password is answered with a session, or — when the account has a second factor —
/// with a ``Challenge``; the one-time code then goes to ``verifyCode(_:for:)``. A service
/// without a second factor never answers with a challenge, so its `verifyCode` and
/// `resendCode` are never called: it implements ``login(_:)`` and
/// ``requestPasswordReset(email:)``, and keeps the default implementations of the other two.
///
/// ```swift
/// struct MyAPI: LoginAPI {
///   func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
///     throw .invalidCredentials
///   }
///   func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
///     -> Session { throw .incorrectCode }
///   func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge {
///     throw .resendTooSoon(retryAfterSeconds: 30)
///   }
///   func requestPasswordReset(email: String) async throws(LoginServiceError)
///     -> PasswordResetAnswer { .accepted }
/// }
/// ```
public protocol LoginAPI: Sendable {
  /// Signs in with `credentials`.
  ///
  /// - Parameter credentials: The username and password.
  /// - Returns: The new session, or a second-factor challenge.
  /// - Throws: ``LoginServiceError``; ``LoginServiceError/cancelled`` when the task was
  ///   cancelled.
  func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer

  /// Completes a second-factor challenge with the one-time code.
  ///
  /// - Parameters:
  ///   - code: The code the user typed: ASCII digits.
  ///   - challenge: The challenge it answers.
  /// - Returns: The new session.
  /// - Throws: ``LoginServiceError/incorrectCode``, ``LoginServiceError/codeExpired``, or any
  ///   other ``LoginServiceError``.
  func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
    -> Session

  /// Sends a new one-time code for `challenge`.
  ///
  /// - Parameter challenge: The challenge to send a new code for.
  /// - Returns: The challenge with the new code's expiry.
  /// - Throws: ``LoginServiceError/resendTooSoon(retryAfterSeconds:)``, or any other
  ///   ``LoginServiceError``.
  func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge

  /// Asks the service to send a password-reset link to `email`.
  ///
  /// Answer the same for an address with an account and one without (no account enumeration):
  /// ``PasswordResetAnswer/accepted``, or ``PasswordResetAnswer/rateLimited(retryAfterSeconds:)``
  /// when asked too often.
  ///
  /// - Parameter email: The address typed in the password-reset step, trimmed.
  /// - Returns: Whether the request was accepted or must wait.
  /// - Throws: ``LoginServiceError``; ``LoginServiceError/cancelled`` when the task was
  ///   cancelled.
  func requestPasswordReset(email: String) async throws(LoginServiceError) -> PasswordResetAnswer
}

extension LoginAPI {
  /// For a service without a second factor, which never answers ``login(_:)`` with a
  /// challenge: throws ``LoginServiceError/wrongStatusCode(_:)`` 501, "not implemented".
  ///
  /// - Parameters:
  ///   - code: The code typed.
  ///   - challenge: The challenge it answers.
  /// - Returns: Never.
  /// - Throws: `.wrongStatusCode(501)`.
  public func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
    -> Session
  {
    throw .wrongStatusCode(501)
  }

  /// For a service without a second factor: throws ``LoginServiceError/wrongStatusCode(_:)``
  /// 501, "not implemented".
  ///
  /// - Parameter challenge: The challenge to send a new code for.
  /// - Returns: Never.
  /// - Throws: `.wrongStatusCode(501)`.
  public func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge {
    throw .wrongStatusCode(501)
  }
}
