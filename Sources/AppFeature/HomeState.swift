import LoginFeature

/// Everything the home screen is rendered from: who is signed in, and their profile once it
/// has loaded.
///
/// The home screen is an optional child of ``AppState``: it exists only while a user is
/// signed in, and when it goes away the profile request it started is cancelled.
public struct HomeState: Sendable, Equatable, Codable {
  /// The signed-in user.
  public var user: User
  /// The user's profile, once loaded.
  public var profile: Profile?
  /// Whether the profile is loading: the home screen's spinner.
  public var isLoadingProfile: Bool
  /// Why the profile could not be loaded, to show instead of it.
  public var profileError: String?

  /// Creates the home screen's state.
  ///
  /// - Parameters:
  ///   - user: The signed-in user.
  ///   - profile: The profile, if already loaded.
  ///   - isLoadingProfile: Whether the profile is loading.
  ///   - profileError: Why the profile could not be loaded.
  public init(
    user: User,
    profile: Profile? = nil,
    isLoadingProfile: Bool = false,
    profileError: String? = nil
  ) {
    self.user = user
    self.profile = profile
    self.isLoadingProfile = isLoadingProfile
    self.profileError = profileError
  }
}
