import StateStore

/// What a successful login returns: who signed in, and the token that proves it.
///
/// The token is a ``StateStore/Secret``, so a session can be logged, dumped and recorded in an action log
/// without leaking it; only a ``SessionStore`` that really keeps it reads ``StateStore/Secret/reveal()``.
public struct Session: Sendable, Equatable, Codable {
  /// The signed-in user.
  public var user: User
  /// The access token.
  public var token: Secret

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - user: The signed-in user.
  ///   - token: The access token.
  public init(user: User, token: Secret) {
    self.user = user
    self.token = token
  }
}
