/// Everything ``LoginEffectHandler`` needs from the outside world.
///
/// ```swift
/// let dependencies = LoginDependencies(
///   api: DemoLoginAPI(),
///   router: appRouter,
///   alertPresenter: alerts,
///   sessionStore: InMemorySessionStore()
/// )
/// let store = Store(login: LoginState(), dependencies: dependencies)
/// ```
public struct LoginDependencies: Sendable {
  /// Signs users in.
  public var api: any LoginAPI
  /// Carries out navigation.
  public var router: any Router
  /// Shows alerts.
  public var alertPresenter: any AlertPresenter
  /// Keeps the session.
  public var sessionStore: any SessionStore
  /// Measures the lockout.
  public var clock: any Clock<Duration>

  /// Creates the dependencies.
  ///
  /// - Parameters:
  ///   - api: Signs users in.
  ///   - router: Carries out navigation.
  ///   - alertPresenter: Shows alerts.
  ///   - sessionStore: Keeps the session.
  ///   - clock: Measures the lockout; a `ContinuousClock` by default.
  public init(
    api: any LoginAPI,
    router: any Router,
    alertPresenter: any AlertPresenter,
    sessionStore: any SessionStore,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.api = api
    self.router = router
    self.alertPresenter = alertPresenter
    self.sessionStore = sessionStore
    self.clock = clock
  }
}
