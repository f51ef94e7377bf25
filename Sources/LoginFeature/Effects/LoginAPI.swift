/// Signs a user in: the login service, as the effect handler sees it.
///
/// Conform a client for your backend; ``DemoLoginAPI`` is an in-memory one for demos and
/// previews. Failures are typed: map every transport, status and decoding problem to a
/// ``LoginServiceError``, and cancellation of the calling task to
/// ``LoginServiceError/cancelled``.
///
/// ```swift
/// struct MyAPI: LoginAPI {
///   func login(_ credentials: Credentials) async throws(LoginServiceError) -> Session {
///     throw .invalidCredentials
///   }
/// }
/// ```
public protocol LoginAPI: Sendable {
  /// Signs in with `credentials`.
  ///
  /// - Parameter credentials: The username and password.
  /// - Returns: The new session.
  /// - Throws: ``LoginServiceError``; ``LoginServiceError/cancelled`` when the task was
  ///   cancelled.
  func login(_ credentials: Credentials) async throws(LoginServiceError) -> Session
}
