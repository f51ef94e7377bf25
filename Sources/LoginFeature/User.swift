import StateStore

/// The signed-in user, as the login service describes them.
///
/// The username, display name and email are ``StateStore/PersonalData``: shown in clear, and
/// masked by whatever writes them with personal data masked.
public struct User: Sendable, Hashable, Codable {
  /// The service's identifier for the user.
  public var id: String
  /// The name the user signs in with.
  public var username: PersonalData
  /// The name to greet the user with.
  public var displayName: PersonalData
  /// The user's email address, when the service tells it.
  ///
  /// Optional, so sessions and action logs written before it existed still decode.
  public var email: PersonalData?

  /// Creates a user.
  ///
  /// - Parameters:
  ///   - id: The service's identifier for the user.
  ///   - username: The name the user signs in with.
  ///   - displayName: The name to greet the user with; the username when omitted.
  ///   - email: The user's email address, if known.
  public init(
    id: String, username: PersonalData, displayName: PersonalData? = nil,
    email: PersonalData? = nil
  ) {
    self.id = id
    self.username = username
    self.displayName = displayName ?? username
    self.email = email
  }
}
