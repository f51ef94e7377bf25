import StateStore

/// What the home screen shows about the signed-in user once it has loaded.
///
/// A small, non-secret value: it is recorded in action logs and shown in dumps as it is; its
/// display name is ``StateStore/PersonalData``, masked where personal data is masked.
public struct Profile: Sendable, Hashable, Codable {
  /// The name the home screen greets the user with.
  public var displayName: PersonalData
  /// How many unread messages wait for the user.
  public var unreadMessages: Int
  /// The user's plan, e.g. "Free" or "Team".
  public var plan: String

  /// Creates a profile.
  ///
  /// - Parameters:
  ///   - displayName: The name the home screen greets the user with.
  ///   - unreadMessages: How many unread messages wait for the user.
  ///   - plan: The user's plan.
  public init(displayName: PersonalData, unreadMessages: Int, plan: String) {
    self.displayName = displayName
    self.unreadMessages = unreadMessages
    self.plan = plan
  }
}
