/// What happened on the home screen.
public enum HomeAction: Sendable, Equatable, Codable {
  /// The profile service answered with the profile.
  case profileLoaded(Profile)
  /// The profile service failed; the message is what the user reads.
  case profileFailed(String)
  /// The user asked for the profile again (after a failure, or to refresh it).
  case reloadButtonTapped
}
