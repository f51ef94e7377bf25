import Foundation
import LoginFeature
import StateStore
import StateStoreTesting

/// Every dependency of the login feature as a fake, built in one line.
///
/// The fakes are references: keep the `LoginFakes` value to script them and to read what they
/// recorded after the store has used them.
///
/// ```swift
/// let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
/// let store = TestStore(login: LoginState(username: "demo", password: "Secr3t"), fakes: fakes)
/// await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
///   $0.isLoading = true
///   $0.attemptID = 1
/// }
/// // … receive the response and the alert button …
/// #expect(fakes.api.requests == [credentials])
/// #expect(fakes.router.commands == [])
/// ```
public struct LoginFakes: Sendable {
  /// The login service, answering from a script.
  public let api: StubLoginAPI
  /// Records navigation.
  public let router: RecordingRouter
  /// Records alerts and taps their buttons as scripted.
  public let alertPresenter: RecordingAlertPresenter
  /// Keeps the saved session; read it with `await fakes.sessionStore.load()`.
  public let sessionStore: InMemorySessionStore
  /// Measures the lockout; advance it to end one.
  public let clock: TestClock
  /// Keeps the failed attempts and the lockout between "launches".
  public let lockoutStore: InMemoryLockoutStore
  /// The wall-clock time when ``clock`` reads zero; the fakes' `now()` is this plus the
  /// clock's time, so advancing the clock moves the wall clock too.
  public let wallClockStart: Date

  /// 2026-01-01T00:00:00Z, the fakes' wall-clock time before the clock moves.
  public static let defaultWallClockStart = Date(timeIntervalSince1970: 1_767_225_600)

  /// Creates the fakes.
  ///
  /// - Parameters:
  ///   - api: The login service; pass `results:` instead for a fresh stub.
  ///   - router: The router.
  ///   - alertPresenter: The alert presenter.
  ///   - sessionStore: The session store, optionally holding a session already.
  ///   - clock: The clock of the lockout timer.
  ///   - lockoutStore: The lockout store, optionally holding a record already.
  ///   - wallClockStart: The wall-clock time when `clock` reads zero.
  @MainActor
  public init(
    api: StubLoginAPI,
    router: RecordingRouter = RecordingRouter(),
    alertPresenter: RecordingAlertPresenter = RecordingAlertPresenter(),
    sessionStore: InMemorySessionStore = InMemorySessionStore(),
    clock: TestClock = TestClock(),
    lockoutStore: InMemoryLockoutStore = InMemoryLockoutStore(),
    wallClockStart: Date = LoginFakes.defaultWallClockStart
  ) {
    self.api = api
    self.router = router
    self.alertPresenter = alertPresenter
    self.sessionStore = sessionStore
    self.clock = clock
    self.lockoutStore = lockoutStore
    self.wallClockStart = wallClockStart
  }

  /// The fakes' wall-clock time: ``wallClockStart`` plus the time on ``clock``.
  public var now: Date {
    wallClockStart.addingTimeInterval(clock.now.offset.timeInterval)
  }

  /// Creates the fakes with a stub API that answers with `results`, in order.
  ///
  /// - Parameters:
  ///   - results: One result per expected API call.
  ///   - fileID: Where a call beyond the script is reported; the caller's by default.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  @MainActor
  public init(
    results: [LoginResult] = [],
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.init(
      api: StubLoginAPI(
        results: results, fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The fakes as the login feature's dependencies.
  public var dependencies: LoginDependencies { dependencies(api: api) }

  /// The fakes as the login feature's dependencies, with another login service in place of
  /// ``api``.
  ///
  /// For a test of a real service — `DemoLoginAPI` on the fakes' clock, `HTTPLoginAPI` against
  /// a test server — that still records routes and alerts and keeps time on ``clock``:
  ///
  /// ```swift
  /// let fakes = LoginFakes()
  /// let store = Store(
  ///   login: LoginState(),
  ///   dependencies: fakes.dependencies(api: DemoLoginAPI(latency: .seconds(1), clock: fakes.clock)))
  /// ```
  ///
  /// - Parameter api: The login service to use.
  /// - Returns: The dependencies, with every other fake of this value.
  public func dependencies(api: any LoginAPI) -> LoginDependencies {
    LoginDependencies(
      api: api, router: router, alertPresenter: alertPresenter, sessionStore: sessionStore,
      clock: clock, lockoutStore: lockoutStore, now: { [self] in now })
  }
}
