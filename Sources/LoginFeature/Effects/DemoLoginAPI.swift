import StateStore

/// An in-memory login service for demos, previews and tests.
///
/// It knows a fixed list of accounts and answers after a latency measured on an injected
/// clock, so the spinner can be seen in a demo and a test can drive time by hand.
///
/// The default accounts:
///
/// | username          | password     | display name |
/// |-------------------|--------------|--------------|
/// | `demo`            | `Secr3t`     | Demo User    |
/// | `ada@example.com` | `Engine1843` | Ada Lovelace |
///
/// `demo` signs in under the default rules, `ada@example.com` under the email rules.
///
/// ```swift
/// let api = DemoLoginAPI(latency: .milliseconds(800))
/// let session = try await api.login(Credentials(username: "demo", password: "Secr3t"))
/// ```
public struct DemoLoginAPI: LoginAPI {
  /// An account the demo service accepts.
  public struct Account: Sendable, Equatable {
    /// The user signed in by this account.
    public var user: User
    /// The account's password.
    public var password: Secret

    /// Creates an account.
    ///
    /// - Parameters:
    ///   - user: The user signed in by this account; its `username` is what to type.
    ///   - password: The account's password.
    public init(user: User, password: Secret) {
      self.user = user
      self.password = password
    }
  }

  /// `demo` / `Secr3t` and `ada@example.com` / `Engine1843`.
  public static let defaultAccounts: [Account] = [
    Account(
      user: User(id: "1", username: "demo", displayName: "Demo User"), password: "Secr3t"),
    Account(
      user: User(id: "2", username: "ada@example.com", displayName: "Ada Lovelace"),
      password: "Engine1843"),
  ]

  /// The accounts this service accepts.
  public var accounts: [Account]
  /// How long each answer takes, on ``clock``.
  public var latency: Duration
  /// The clock the latency is measured on.
  public var clock: any Clock<Duration>

  /// Creates a demo service.
  ///
  /// - Parameters:
  ///   - accounts: The accounts it accepts.
  ///   - latency: How long each answer takes.
  ///   - clock: The clock the latency is measured on; a `ContinuousClock` by default.
  public init(
    accounts: [Account] = DemoLoginAPI.defaultAccounts,
    latency: Duration = .milliseconds(500),
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.accounts = accounts
    self.latency = latency
    self.clock = clock
  }

  /// Waits ``latency``, then signs in when an account matches both username and password.
  ///
  /// - Parameter credentials: The username and password.
  /// - Returns: A session whose token is `demo-token-<user id>`.
  /// - Throws: ``LoginServiceError/invalidCredentials`` when no account matches;
  ///   ``LoginServiceError/cancelled`` when the task is cancelled while waiting.
  public func login(_ credentials: Credentials) async throws(LoginServiceError) -> Session {
    do {
      try await clock.sleep(for: latency)
    } catch {
      throw .cancelled
    }
    if Task.isCancelled { throw .cancelled }
    let match = accounts.first {
      $0.user.username == credentials.username
        && $0.password.reveal() == credentials.password.reveal()
    }
    guard let match else { throw .invalidCredentials }
    return Session(user: match.user, token: Secret("demo-token-\(match.user.id)"))
  }
}
