import Foundation
import LoginFeature
import StateStore

/// An in-memory login service for demos, previews and tests.
///
/// It knows a fixed list of accounts and answers after a latency measured on an injected
/// clock, so the spinner can be seen in a demo and a test can drive time by hand.
///
/// The default accounts:
///
/// | username          | password     | display name | second factor                        |
/// |-------------------|--------------|--------------|--------------------------------------|
/// | `demo`            | `Secr3t`     | Demo User    | none                                 |
/// | `ada@example.com` | `Engine1843` | Ada Lovelace | none                                 |
/// | `grace`           | `Cobol1959`  | Grace Hopper | code `424242`, after a resend `171717` |
///
/// `demo` and `grace` sign in under the default rules, `ada@example.com` under the email rules.
/// A code is valid for 300 seconds on the clock, a new one can be asked for 30 seconds after
/// the last, and three wrong codes end the challenge.
///
/// Password-reset requests (``requestPasswordReset(email:)``) are answered by address, the same
/// whether or not an account has it (no account enumeration):
///
/// | email                  | answer                                                    |
/// |------------------------|-----------------------------------------------------------|
/// | `limited@example.com`  | ``LoginFeature/PasswordResetAnswer/rateLimited(retryAfterSeconds:)`` 30 (a `429`) |
/// | `broken@example.com`   | ``LoginFeature/LoginServiceError/wrongStatusCode(_:)`` 500 |
/// | not an email address   | ``LoginFeature/LoginServiceError/wrongStatusCode(_:)`` 400 |
/// | any other address      | ``LoginFeature/PasswordResetAnswer/accepted`` (a `202`)   |
///
/// ```swift
/// let api = DemoLoginAPI(latency: .milliseconds(800))
/// let answer = try await api.login(Credentials(username: "demo", password: "Secr3t"))
/// ```
public struct DemoLoginAPI: LoginAPI {
  /// An account the demo service accepts.
  public struct Account: Sendable, Equatable {
    /// The user signed in by this account.
    public var user: User
    /// The account's password.
    public var password: Secret
    /// The account's second factor, if it has one.
    public var secondFactor: SecondFactor?

    /// Creates an account.
    ///
    /// - Parameters:
    ///   - user: The user signed in by this account; its `username` is what to type.
    ///   - password: The account's password.
    ///   - secondFactor: The account's second factor; none by default.
    public init(user: User, password: Secret, secondFactor: SecondFactor? = nil) {
      self.user = user
      self.password = password
      self.secondFactor = secondFactor
    }
  }

  /// A demo account's one-time codes: the first one sent, and the one every resend sends.
  public struct SecondFactor: Sendable, Equatable {
    /// Where the codes go, as the challenge shows it (masked).
    public var destination: String
    /// The code sent with the challenge.
    public var code: Secret
    /// The code a resend sends.
    public var resentCode: Secret

    /// Creates a second factor.
    ///
    /// - Parameters:
    ///   - destination: Where the codes go, masked.
    ///   - code: The code sent with the challenge.
    ///   - resentCode: The code a resend sends.
    public init(destination: String, code: Secret, resentCode: Secret) {
      self.destination = destination
      self.code = code
      self.resentCode = resentCode
    }
  }

  /// How long a code is valid.
  public static let codeLifetime: Duration = .seconds(300)
  /// How long after a code is sent a new one can be asked for.
  public static let resendDelay: Duration = .seconds(30)
  /// How many wrong codes end a challenge.
  public static let maxIncorrectCodes = 3

  /// `demo` / `Secr3t`, `ada@example.com` / `Engine1843`, and `grace` / `Cobol1959` with the
  /// code `424242` (`171717` after a resend).
  public static let defaultAccounts: [Account] = [
    Account(
      user: User(id: "1", username: "demo", displayName: "Demo User"), password: "Secr3t"),
    Account(
      user: User(id: "2", username: "ada@example.com", displayName: "Ada Lovelace"),
      password: "Engine1843"),
    Account(
      user: User(id: "3", username: "grace", displayName: "Grace Hopper"),
      password: "Cobol1959",
      secondFactor: SecondFactor(destination: "•••• 42", code: "424242", resentCode: "171717")),
  ]

  /// The accounts this service accepts.
  public var accounts: [Account]
  /// How long each answer takes.
  public var latency: Duration
  /// The clock the latency and the codes' lifetimes run on.
  public var clock: any Clock<Duration>
  /// How long a session lasts, from the wall-clock time `now()` gives when it is issued.
  public var sessionLifetime: Duration
  /// The wall-clock time, for sessions' expiry.
  public var now: @Sendable () -> Date

  private let challenges: ChallengeBook

  /// Creates the service.
  ///
  /// - Parameters:
  ///   - accounts: The accounts it accepts; ``defaultAccounts`` by default.
  ///   - latency: How long each answer takes; half a second by default.
  ///   - clock: The clock the latency and the codes' lifetimes run on; a `ContinuousClock` by
  ///     default.
  ///   - sessionLifetime: How long a session lasts; 12 hours by default.
  ///   - now: The wall-clock time; `Date()` by default.
  public init(
    accounts: [Account] = DemoLoginAPI.defaultAccounts,
    latency: Duration = .milliseconds(500),
    clock: any Clock<Duration> = ContinuousClock(),
    sessionLifetime: Duration = .seconds(12 * 3_600),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.accounts = accounts
    self.latency = latency
    self.clock = clock
    self.sessionLifetime = sessionLifetime
    self.now = now
    self.challenges = ChallengeBook(clock: clock)
  }

  /// Signs in after ``latency``: a session, or a challenge for an account with a second
  /// factor.
  ///
  /// - Parameter credentials: The username and password.
  /// - Returns: The session, or the challenge.
  /// - Throws: ``LoginFeature/LoginServiceError/invalidCredentials`` for an unknown username or a wrong
  ///   password; ``LoginFeature/LoginServiceError/cancelled`` when cancelled.
  public func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    try await answerAfterLatency()
    let match = accounts.first {
      $0.user.username == credentials.username
        && $0.password.reveal() == credentials.password.reveal()
    }
    guard let match else { throw .invalidCredentials }
    guard let factor = match.secondFactor else { return .session(session(for: match.user)) }
    return .challenge(challenges.issue(for: match.user, factor: factor, clock: clock))
  }

  /// Checks `code` after ``latency``.
  ///
  /// - Parameters:
  ///   - code: The code typed.
  ///   - challenge: The challenge it answers.
  /// - Returns: The session, when the code is the latest one sent and still valid.
  /// - Throws: ``LoginFeature/LoginServiceError/incorrectCode``, ``LoginFeature/LoginServiceError/codeExpired`` (also for
  ///   a challenge that ended), ``LoginFeature/LoginServiceError/cancelled``.
  public func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
    -> Session
  {
    try await answerAfterLatency()
    let user = try challenges.verify(code, id: challenge.id, clock: clock)
    return session(for: user)
  }

  /// Sends a new code after ``latency``, unless the last was sent less than ``resendDelay``
  /// ago.
  ///
  /// - Parameter challenge: The challenge to send a new code for.
  /// - Returns: The challenge with the new code's lifetime.
  /// - Throws: ``LoginFeature/LoginServiceError/resendTooSoon(retryAfterSeconds:)``,
  ///   ``LoginFeature/LoginServiceError/codeExpired`` for a challenge that ended,
  ///   ``LoginFeature/LoginServiceError/cancelled``.
  public func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge {
    try await answerAfterLatency()
    return try challenges.resend(id: challenge.id, clock: clock)
  }

  /// The address that is always rate limited: ``requestPasswordReset(email:)`` answers it with
  /// a 30-second wait.
  public static let rateLimitedEmail = "limited@example.com"
  /// The address whose reset request always fails, with a `500`.
  public static let brokenEmail = "broken@example.com"

  /// Answers a password-reset request after ``latency``, by address: see the table above.
  ///
  /// - Parameter email: The address typed.
  /// - Returns: ``LoginFeature/PasswordResetAnswer/accepted``, or a 30-second
  ///   ``LoginFeature/PasswordResetAnswer/rateLimited(retryAfterSeconds:)`` for
  ///   ``rateLimitedEmail``.
  /// - Throws: ``LoginFeature/LoginServiceError/wrongStatusCode(_:)`` 500 for ``brokenEmail``,
  ///   400 for a string that is not an email address; ``LoginFeature/LoginServiceError/cancelled``.
  public func requestPasswordReset(email: String) async throws(LoginServiceError)
    -> PasswordResetAnswer
  {
    try await answerAfterLatency()
    guard CredentialRules.validateEmail(email) == nil else { throw .wrongStatusCode(400) }
    switch email {
    case Self.rateLimitedEmail: return .rateLimited(retryAfterSeconds: 30)
    case Self.brokenEmail: throw .wrongStatusCode(500)
    default: return .accepted
    }
  }

  private func answerAfterLatency() async throws(LoginServiceError) {
    do {
      try await clock.sleep(for: latency)
    } catch {
      throw .cancelled
    }
    if Task.isCancelled { throw .cancelled }
  }

  private func session(for user: User) -> Session {
    Session(
      user: user, token: Secret("demo-token-\(user.id)"),
      expiresAt: now().addingTimeInterval(sessionLifetime.timeInterval))
  }
}

/// The demo service's open challenges, shared by every copy of one ``DemoLoginAPI``.
private final class ChallengeBook: Sendable {
  private struct Open {
    var user: User
    var factor: DemoLoginAPI.SecondFactor
    var code: Secret
    var sentAt: Duration
    var incorrectCodes = 0
  }

  private struct Book {
    var open: [String: Open] = [:]
    var nextID = 0
  }

  private let book = Guarded(Book())
  private let origin: any InstantProtocol<Duration>

  init(clock: any Clock<Duration>) {
    origin = clock.now
  }

  func issue(
    for user: User, factor: DemoLoginAPI.SecondFactor, clock: any Clock<Duration>
  ) -> Challenge {
    let now = elapsed(clock)
    let id = book.withLock { book in
      book.nextID += 1
      let id = "demo-challenge-\(book.nextID)"
      book.open[id] = Open(user: user, factor: factor, code: factor.code, sentAt: now)
      return id
    }
    return challenge(id, factor: factor)
  }

  func verify(_ code: Secret, id: String, clock: any Clock<Duration>) throws(LoginServiceError)
    -> User
  {
    let now = elapsed(clock)
    let outcome: Result<User, LoginServiceError> = book.withLock { book in
      guard var open = book.open[id] else { return .failure(.codeExpired) }
      guard now - open.sentAt < DemoLoginAPI.codeLifetime else { return .failure(.codeExpired) }
      guard open.code.reveal() == code.reveal() else {
        open.incorrectCodes += 1
        book.open[id] = open.incorrectCodes >= DemoLoginAPI.maxIncorrectCodes ? nil : open
        return .failure(.incorrectCode)
      }
      book.open[id] = nil
      return .success(open.user)
    }
    return try outcome.get()
  }

  func resend(id: String, clock: any Clock<Duration>) throws(LoginServiceError) -> Challenge {
    let now = elapsed(clock)
    let outcome: Result<DemoLoginAPI.SecondFactor, LoginServiceError> = book.withLock { book in
      guard var open = book.open[id] else { return .failure(.codeExpired) }
      let wait = DemoLoginAPI.resendDelay - (now - open.sentAt)
      guard wait <= .zero else {
        let (seconds, attoseconds) = wait.components
        return .failure(.resendTooSoon(retryAfterSeconds: Int(seconds) + (attoseconds > 0 ? 1 : 0)))
      }
      open.code = open.factor.resentCode
      open.sentAt = now
      book.open[id] = open
      return .success(open.factor)
    }
    return challenge(id, factor: try outcome.get())
  }

  private func challenge(_ id: String, factor: DemoLoginAPI.SecondFactor) -> Challenge {
    let lifetime = DemoLoginAPI.codeLifetime.components.seconds
    return Challenge(
      id: id, destination: factor.destination, codeLength: factor.code.reveal().count,
      expiresInSeconds: Int(lifetime))
  }

  /// The time on `clock` since this book was made.
  private func elapsed(_ clock: any Clock<Duration>) -> Duration {
    Self.duration(from: origin, to: clock.now)
  }

  private static func duration<Start: InstantProtocol<Duration>>(
    from start: Start, to end: any InstantProtocol<Duration>
  ) -> Duration {
    guard let end = end as? Start else { return .zero }
    return start.duration(to: end)
  }
}
