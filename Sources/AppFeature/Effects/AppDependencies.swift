import LoginFeature

/// Everything ``AppEffectHandler`` needs from the outside world: the login flow's
/// dependencies and the home screen's profile service.
///
/// ```swift
/// let dependencies = AppDependencies(
///   login: LoginDependencies(
///     api: DemoLoginAPI(), router: router, alertPresenter: alerts,
///     sessionStore: InMemorySessionStore()),
///   profiles: DemoProfileAPI()
/// )
/// ```
public struct AppDependencies: Sendable {
  /// What the login flow's effects are carried out with.
  public var login: LoginDependencies
  /// Loads the home screen's profile.
  public var profiles: any ProfileAPI

  /// Creates the dependencies.
  ///
  /// - Parameters:
  ///   - login: What the login flow's effects are carried out with.
  ///   - profiles: Loads the home screen's profile.
  public init(login: LoginDependencies, profiles: any ProfileAPI) {
    self.login = login
    self.profiles = profiles
  }
}
