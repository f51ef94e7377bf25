import Foundation

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
  /// Keeps the failed attempts and the lockout between launches.
  public var lockoutStore: any LockoutStore
  /// The wall-clock time, read by the effect handler when the form locks and at launch — never
  /// by the reducer.
  public var now: @Sendable () -> Date

  /// Creates the dependencies.
  ///
  /// - Parameters:
  ///   - api: Signs users in.
  ///   - router: Carries out navigation.
  ///   - alertPresenter: Shows alerts.
  ///   - sessionStore: Keeps the session.
  ///   - clock: Measures the lockout; a `ContinuousClock` by default.
  ///   - lockoutStore: Keeps the lockout between launches; in memory by default.
  ///   - now: The wall-clock time; `Date()` by default.
  public init(
    api: any LoginAPI,
    router: any Router,
    alertPresenter: any AlertPresenter,
    sessionStore: any SessionStore,
    clock: any Clock<Duration> = ContinuousClock(),
    lockoutStore: any LockoutStore = InMemoryLockoutStore(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.api = api
    self.router = router
    self.alertPresenter = alertPresenter
    self.sessionStore = sessionStore
    self.clock = clock
    self.lockoutStore = lockoutStore
    self.now = now
  }
}
