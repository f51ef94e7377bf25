/// The signed-in user, as the login service describes them.
public struct User: Sendable, Equatable, Codable {
  /// The service's identifier for the user.
  public var id: String
  /// The name the user signs in with.
  public var username: String
  /// The name to greet the user with.
  public var displayName: String

  /// Creates a user.
  ///
  /// - Parameters:
  ///   - id: The service's identifier for the user.
  ///   - username: The name the user signs in with.
  ///   - displayName: The name to greet the user with; the username when omitted.
  public init(id: String, username: String, displayName: String? = nil) {
    self.id = id
    self.username = username
    self.displayName = displayName ?? username
  }
}
