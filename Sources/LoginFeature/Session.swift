import Foundation
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
  /// When the session stops being valid; `nil` for a session that does not expire. A restore
  /// compares it with the time that arrives in ``LoginAction/restored(_:at:)``.
  public var expiresAt: Date?

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - user: The signed-in user.
  ///   - token: The access token.
  ///   - expiresAt: When the session stops being valid; never by default.
  public init(user: User, token: Secret, expiresAt: Date? = nil) {
    self.user = user
    self.token = token
    self.expiresAt = expiresAt
  }
}
