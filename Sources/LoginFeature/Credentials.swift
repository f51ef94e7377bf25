import StateStore

/// A username and password to sign in with.
///
/// The password is a ``StateStore/Secret``: dumps, logs and descriptions show its mask only.
///
/// ```swift
/// let credentials = Credentials(username: "demo", password: "Secr3t")
/// ```
public struct Credentials: Sendable, Equatable, Codable {
  /// The username (or email), without surrounding whitespace.
  public var username: PersonalData
  /// The password.
  public var password: Secret

  /// Creates credentials.
  ///
  /// - Parameters:
  ///   - username: The username (or email).
  ///   - password: The password.
  public init(username: PersonalData, password: Secret) {
    self.username = username
    self.password = password
  }
}
