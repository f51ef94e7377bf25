import LoginFeature

/// Loads the profile the home screen shows.
///
/// Inject your service; ``DemoProfileAPI`` answers from memory after a delay.
public protocol ProfileAPI: Sendable {
  /// Loads the profile of `user`.
  ///
  /// - Parameter user: The signed-in user.
  /// - Returns: The profile.
  /// - Throws: Any error; the home screen then says that the profile could not be loaded (the
  ///   error's text is not shown, so it cannot leak anything). Cancellation ends the request
  ///   without an answer.
  func profile(of user: User) async throws -> Profile
}

/// A profile service for demos and tests: after `delay` on `clock`, every user has a profile
/// derived from their name.
///
/// ```swift
/// let profiles = DemoProfileAPI(delay: .milliseconds(300))
/// let profile = try await profiles.profile(of: user)   // after 300 ms
/// ```
public struct DemoProfileAPI: ProfileAPI {
  /// How long each request takes.
  public var delay: Duration
  /// The clock the delay runs on.
  public var clock: any Clock<Duration>

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - delay: How long each request takes; 300 ms by default.
  ///   - clock: The clock the delay runs on; a `ContinuousClock` by default.
  public init(delay: Duration = .milliseconds(300), clock: any Clock<Duration> = ContinuousClock())
  {
    self.delay = delay
    self.clock = clock
  }

  /// The profile of `user`, after ``delay``: three unread messages on the "Free" plan, or
  /// twelve on the "Team" plan for users with an email address.
  ///
  /// - Parameter user: The signed-in user.
  /// - Returns: The profile.
  /// - Throws: `CancellationError` when cancelled during the delay.
  public func profile(of user: User) async throws -> Profile {
    try await clock.sleep(for: delay)
    return user.email == nil
      ? Profile(displayName: user.displayName, unreadMessages: 3, plan: "Free")
      : Profile(displayName: user.displayName, unreadMessages: 12, plan: "Team")
  }
}
