import Foundation
import LoginFeature
import StateStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The login service over HTTP: `POST {baseURL}/login` with a JSON body, on URLSession.
///
/// The request carries the credentials in its body only — never in the URL, the query or a log
/// line — with `Content-Type` and `Accept` set to `application/json` (here for a base URL
/// whose path is `/api`; the body's keys are sorted, so the same credentials make the same
/// bytes):
///
/// <!-- sample: login-request -->
/// ```text
/// POST /api/login HTTP/1.1
/// Accept: application/json
/// Content-Type: application/json
///
/// {"password":"Secr3t","username":"demo"}
/// ```
///
/// A `200` answer with `{"token": …, "user": {"id": …, "name": …, "username": …,
/// "email": …}}` becomes a ``LoginFeature/Session`` (`id` and `email` may be missing: the id is then the
/// username). Every other outcome is a typed ``LoginFeature/LoginServiceError``:
///
/// | outcome                                   | error                                   |
/// |-------------------------------------------|-----------------------------------------|
/// | `200`, empty body                         | ``LoginFeature/LoginServiceError/nilData``           |
/// | `200`, not the JSON above                 | ``LoginFeature/LoginServiceError/decodingFailed``    |
/// | body over ``maximumResponseSize``         | ``LoginFeature/LoginServiceError/decodingFailed``    |
/// | `3xx` (never followed)                    | ``LoginFeature/LoginServiceError/redirected(status:)`` |
/// | `401`, `403`                              | ``LoginFeature/LoginServiceError/invalidCredentials`` |
/// | any other status                          | ``LoginFeature/LoginServiceError/wrongStatusCode(_:)`` |
/// | no complete answer within ``timeout``     | ``LoginFeature/LoginServiceError/timeout``           |
/// | task cancelled, `URLError.cancelled`      | ``LoginFeature/LoginServiceError/cancelled``         |
/// | any other transport failure               | ``LoginFeature/LoginServiceError/transport(_:)``, e.g. "connection refused at 127.0.0.1:9" |
///
/// ``timeout`` is a deadline for the whole exchange — connecting, sending, and reading the
/// headers and every byte of the body — not a limit on each wait: a server that answers at once
/// and then drips its body a byte a second is cut off when the deadline passes, and its
/// transfer is cancelled.
///
/// The second factor (``verifyURL``, ``resendURL``) and password resets (``passwordResetURL``,
/// `{"email": …}`, answered `202` or `429`: see ``requestPasswordReset(email:)``) go through the
/// same request, deadline and answer handling.
///
/// Only a `200` answer's body is read, in chunks, and never held past ``maximumResponseSize``:
/// a declared `Content-Length` over it, or the first chunk past it, ends the request.
///
/// Redirects are not followed, to any host: the password goes to ``loginURL`` and nowhere
/// else. Cookies are neither sent nor stored unless the host app opts in with `allowsCookies`.
///
/// The API takes a `URLSessionConfiguration`, not a `URLSession`: it owns a session it is the
/// delegate of, because counting the body as it arrives and refusing redirects need the
/// session's delegate (FoundationNetworking has no `bytes(for:)` and does not call per-task
/// delegates). Inject `URLProtocol` stubs through the configuration's `protocolClasses`.
///
/// On Linux an IPv6 address cannot be the host (`http://[::1]:8080`): FoundationNetworking
/// cannot connect to one, so such a request fails at once, sending nothing, with
/// ``LoginFeature/LoginServiceError/transport(_:)`` "FoundationNetworking on Linux cannot connect
/// to an IPv6 address literal ([::1]); use a host name that resolves to it". Use a host name
/// (`localhost`, or one your resolver maps to the address). On Apple platforms URLSession
/// connects to IPv6 addresses itself.
///
/// ```swift
/// let api = HTTPLoginAPI(baseURL: URL(string: "https://auth.example.com/v1")!)
/// let session = try await api.login(Credentials(username: "demo", password: "Secr3t"))
/// ```
public struct HTTPLoginAPI: LoginAPI {
  /// Ten seconds.
  public static let defaultTimeout: Duration = .seconds(10)
  /// One mebibyte (1,048,576 bytes).
  public static let defaultMaximumResponseSize = 1 << 20

  /// Where the service lives; requests go to `baseURL/login`.
  public let baseURL: URL
  /// The deadline of a whole request, from sending it to the last byte of the answer.
  ///
  /// It runs on the clock given to the initializer; when it passes, the transfer is cancelled
  /// and the login fails with ``LoginFeature/LoginServiceError/timeout``.
  public let timeout: Duration
  /// The most bytes of body accepted; a longer answer is ``LoginFeature/LoginServiceError/decodingFailed``.
  public let maximumResponseSize: Int
  /// Whether cookies are sent and stored as the configuration says; `false` by default, when
  /// no cookie is sent and none is stored.
  public let allowsCookies: Bool

  private let clock: any Clock<Duration>
  private let loader: CappedDataLoader

  /// Creates an API client.
  ///
  /// - Parameters:
  ///   - baseURL: Where the service lives, e.g. `https://auth.example.com/v1`; requests go to
  ///     `baseURL/login`. On Linux its host must be a name or an IPv4 address, not an IPv6 one.
  ///   - timeout: The deadline of a whole request, body included; 10 seconds by default.
  ///   - maximumResponseSize: The most bytes of body accepted; 1 MiB by default.
  ///   - configuration: The configuration of the URLSession the client creates and owns
  ///     (ephemeral by default). Set `protocolClasses` on it to stub the network in tests. The
  ///     client works on a copy: the caller's object is left as it was.
  ///   - allowsCookies: `false` (the default) sends no cookie and stores none, whatever the
  ///     configuration says, so a logout leaves nothing behind for the next login. `true` leaves
  ///     the configuration's `httpCookieStorage`, `httpShouldSetCookies` and
  ///     `httpCookieAcceptPolicy` in force — for a service that needs a cookie, set them there.
  ///   - clock: The clock the deadline runs on; a `ContinuousClock` by default. Tests inject a
  ///     clock they control.
  public init(
    baseURL: URL,
    timeout: Duration = HTTPLoginAPI.defaultTimeout,
    maximumResponseSize: Int = HTTPLoginAPI.defaultMaximumResponseSize,
    configuration: URLSessionConfiguration = .ephemeral,
    allowsCookies: Bool = false,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.baseURL = baseURL
    self.timeout = timeout
    self.maximumResponseSize = max(0, maximumResponseSize)
    self.allowsCookies = allowsCookies
    self.clock = clock
    let owned = (configuration.copy() as? URLSessionConfiguration) ?? configuration
    // FoundationNetworking times requests out after the session's `timeoutIntervalForRequest`
    // (60 s by default) whatever the request says, and counts it from the last byte received,
    // not from the start. The deadline below is the real limit; the session's timeout, rounded
    // up to whole seconds (Linux cuts it down), only backs it up when the injected clock never
    // moves.
    owned.timeoutIntervalForRequest = Self.backstopSeconds(timeout)
    if !allowsCookies {
      owned.httpCookieStorage = nil
      owned.httpShouldSetCookies = false
      owned.httpCookieAcceptPolicy = .never
    }
    self.loader = CappedDataLoader(configuration: owned)
  }

  /// `duration` in whole seconds, rounded up, at least 1 (and no trap for any `Duration`).
  private static func backstopSeconds(_ duration: Duration) -> TimeInterval {
    guard duration.attoseconds > 0 else { return 1 }
    let (seconds, rest) = duration.attoseconds.quotientAndRemainder(
      dividingBy: 1_000_000_000_000_000_000)
    return max(1, TimeInterval(rest > 0 ? seconds + 1 : seconds))
  }

  /// The longest the deadline's sleep may be: clocks convert deadlines to `Int64` seconds, and
  /// a timeout of `Duration`'s full range would trap there. About 34,000 years.
  private static let longestDeadline: Duration = .seconds(1 << 40)

  /// The URL requests are sent to: ``baseURL`` followed by `/login`.
  public var loginURL: URL {
    baseURL.appendingPathComponent("login")
  }

  /// Sends `credentials` to the service and reads the session it answers with.
  ///
  /// - Parameter credentials: The username and password; the password is revealed only into
  ///   the request body.
  /// - Returns: The session of the signed-in user.
  /// - Throws: ``LoginFeature/LoginServiceError``; see the table above.
  public func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    let body = LoginRequestBody(
      username: credentials.username.value, password: credentials.password.reveal())
    return try await exchange(body, with: loginURL, reading: LoginResponseBody.answer) {
      switch $0.statusCode {
      case 401, 403: .invalidCredentials
      default: nil
      }
    }
  }

  /// Where one-time codes are verified: `{baseURL}/login/verify`.
  public var verifyURL: URL {
    loginURL.appendingPathComponent("verify")
  }

  /// Where new one-time codes are asked for: `{baseURL}/login/resend`.
  public var resendURL: URL {
    loginURL.appendingPathComponent("resend")
  }

  /// Sends the one-time code for `challenge` to ``verifyURL``.
  ///
  /// - Parameters:
  ///   - code: The code typed; revealed only into the request body.
  ///   - challenge: The challenge it answers.
  /// - Returns: The session of the signed-in user (a 200, read like a sign-in's).
  /// - Throws: ``LoginFeature/LoginServiceError/incorrectCode`` for a 401,
  ///   ``LoginFeature/LoginServiceError/codeExpired`` for a 410, and otherwise as ``login(_:)``.
  public func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
    -> Session
  {
    let body = SecondFactorRequestBody(challenge: challenge.id, code: code.reveal())
    return try await exchange(body, with: verifyURL, reading: LoginResponseBody.session) {
      switch $0.statusCode {
      case 401: .incorrectCode
      case 410: .codeExpired
      default: nil
      }
    }
  }

  /// Asks ``resendURL`` for a new one-time code for `challenge`.
  ///
  /// - Parameter challenge: The challenge to send a new code for.
  /// - Returns: The challenge the service answers with (a 200 `{"challenge": …}`).
  /// - Throws: ``LoginFeature/LoginServiceError/resendTooSoon(retryAfterSeconds:)`` for a 429 (the seconds
  ///   of its `Retry-After` header, 30 without one), ``LoginFeature/LoginServiceError/codeExpired`` for a
  ///   410, and otherwise as ``login(_:)``.
  public func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge {
    let body = SecondFactorRequestBody(challenge: challenge.id, code: nil)
    return try await exchange(body, with: resendURL, reading: LoginResponseBody.challenge) {
      switch $0.statusCode {
      case 410: .codeExpired
      // A resend reads a `Retry-After` it cannot parse as missing: it waits 30 seconds.
      case 429: .resendTooSoon(retryAfterSeconds: Self.retryAfter($0) ?? 30)
      default: nil
      }
    }
  }

  /// Where password-reset links are asked for: `{baseURL}/password/reset`.
  public var passwordResetURL: URL {
    baseURL.appendingPathComponent("password").appendingPathComponent("reset")
  }

  /// Asks ``passwordResetURL`` to send a reset link to `email`, with the JSON body
  /// `{"email": …}`.
  ///
  /// - Parameter email: The address.
  /// - Returns: ``LoginFeature/PasswordResetAnswer/accepted`` for a `202` (its body is not
  ///   read); ``LoginFeature/PasswordResetAnswer/rateLimited(retryAfterSeconds:)`` for a `429`,
  ///   with the seconds of its `Retry-After` header (between 1 and an hour; 30 without one or
  ///   for a date).
  /// - Throws: ``LoginFeature/LoginServiceError/decodingFailed`` for a `429` whose `Retry-After`
  ///   is neither seconds nor a date, and otherwise as ``login(_:)`` (a `200` too is
  ///   ``LoginFeature/LoginServiceError/wrongStatusCode(_:)``: the endpoint answers `202`).
  public func requestPasswordReset(email: String) async throws(LoginServiceError)
    -> PasswordResetAnswer
  {
    try await exchange(PasswordResetRequestBody(email: email), with: passwordResetURL) {
      response, _ throws(LoginServiceError) in
      switch response.statusCode {
      case 202: return .accepted
      case 429:
        guard let seconds = Self.retryAfter(response) else { throw .decodingFailed }
        return .rateLimited(retryAfterSeconds: seconds)
      default: return nil
      }
    }
  }

  /// The whole seconds of a `Retry-After` header, between 1 and an hour; 30 when it is missing
  /// or is an HTTP date; `nil` when it is neither (a sign, a fraction, a word).
  ///
  /// A number of seconds too large for `Int` is still a number of seconds: it clamps to the
  /// hour like any other value above it, instead of reading as a missing header.
  private static func retryAfter(_ response: HTTPURLResponse) -> Int? {
    guard let text = response.value(forHTTPHeaderField: "Retry-After") else { return 30 }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let isDigits = !trimmed.isEmpty && trimmed.utf8.allSatisfy { (0x30...0x39).contains($0) }
    if isDigits { return min(max(Int(trimmed) ?? 3_600, 1), 3_600) }
    return isHTTPDate(trimmed) ? 30 : nil
  }

  /// Whether `text` is an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`), the other form of
  /// `Retry-After`.
  private static func isHTTPDate(_ text: String) -> Bool {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.date(from: text) != nil
  }

  /// POSTs `body` to `url` and reads the answer by the rows of the table every endpoint shares:
  /// a `200`'s body through `read` (``LoginFeature/LoginServiceError/nilData`` when empty), a `3xx` as
  /// ``LoginFeature/LoginServiceError/redirected(status:)``, and any other status as the endpoint's
  /// `refusal` names it, else ``LoginFeature/LoginServiceError/wrongStatusCode(_:)``.
  private func exchange<Answer>(
    _ body: some Encodable, with url: URL,
    reading read: (Data) throws(LoginServiceError) -> Answer,
    refusal: (HTTPURLResponse) -> LoginServiceError?
  ) async throws(LoginServiceError) -> Answer {
    try await exchange(body, with: url) { response, data throws(LoginServiceError) in
      guard response.statusCode == 200 else {
        if let refused = refusal(response) { throw refused }
        return nil
      }
      guard !data.isEmpty else { throw .nilData }
      return try read(data)
    }
  }

  /// POSTs `body` to `url` and gives the answer to `answer`, which reads the statuses the
  /// endpoint knows and returns `nil` for the rest: a `3xx` is
  /// ``LoginFeature/LoginServiceError/redirected(status:)`` before `answer` sees it, any other
  /// status `answer` does not read ``LoginFeature/LoginServiceError/wrongStatusCode(_:)``.
  private func exchange<Answer>(
    _ body: some Encodable, with url: URL,
    answer: (HTTPURLResponse, Data) throws(LoginServiceError) -> Answer?
  ) async throws(LoginServiceError) -> Answer {
    let (response, data) = try await post(body, to: url)
    if (300...399).contains(response.statusCode) {
      throw .redirected(status: response.statusCode)
    }
    guard let answered = try answer(response, data) else {
      throw .wrongStatusCode(response.statusCode)
    }
    return answered
  }

  /// POSTs `body` as JSON to `url` and waits for the answer within the deadline.
  private func post(
    _ body: some Encodable, to url: URL
  ) async throws(LoginServiceError) -> (HTTPURLResponse, Data) {
    let request = try makeRequest(body, url: url)
    let (response, data) = try await send(request)
    if Task.isCancelled { throw .cancelled }
    return (response, data)
  }

  private enum Outcome: Sendable {
    case answered(HTTPURLResponse, Data)
    case failed(CappedDataLoader.Failure)
    case deadlinePassed
  }

  /// Sends `request` and returns the answer — unless the deadline passes or the task is
  /// cancelled first, which cancels the transfer.
  private func send(
    _ request: URLRequest
  ) async throws(LoginServiceError) -> (HTTPURLResponse, Data) {
    let outcome = await withTaskGroup(of: Outcome.self) { group in
      group.addTask {
        do throws(CappedDataLoader.Failure) {
          let (response, body) = try await loader.load(request, limit: maximumResponseSize)
          return .answered(response, body)
        } catch {
          return .failed(error)
        }
      }
      group.addTask {
        do {
          try await clock.sleep(for: min(timeout, Self.longestDeadline))
          return .deadlinePassed
        } catch {
          return .failed(.cancelled)
        }
      }
      // The first to finish wins; cancelling the other ends the transfer (the loader cancels its
      // URLSession task) or the sleep.
      let first = await group.next() ?? .failed(.cancelled)
      group.cancelAll()
      return first
    }
    switch outcome {
    case .answered(let response, let body):
      return (response, body)
    case .failed(let failure):
      throw map(failure)
    case .deadlinePassed:
      throw .timeout
    }
  }

  /// The request for `credentials`.
  ///
  /// The body is encoded here, explicitly, from ``Secret/reveal()``: a ``Secret`` encodes as
  /// its mask everywhere else, on purpose.
  private func makeRequest(
    _ value: some Encodable, url: URL
  ) throws(LoginServiceError) -> URLRequest {
    let body: Data
    do {
      // Keys sorted: the same credentials make the same bytes on every platform and run.
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      body = try encoder.encode(value)
    } catch {
      throw .transport("the request could not be encoded")
    }
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.httpBody = body
    request.httpShouldHandleCookies = allowsCookies
    request.timeoutInterval = Self.backstopSeconds(timeout)
    return request
  }

  private func map(_ failure: CappedDataLoader.Failure) -> LoginServiceError {
    switch failure {
    case .cancelled, .url(.cancelled):
      .cancelled
    case .url(.timedOut):
      .timeout
    case .url(let code):
      .transport(TransportFailureDescription.describe(code, url: loginURL))
    case .tooLarge:
      .decodingFailed
    case .notHTTP:
      .transport("\(TransportFailureDescription.address(of: loginURL)) did not answer over HTTP")
    case .ipv6AddressLiteral:
      .transport(TransportFailureDescription.ipv6AddressLiteral(in: loginURL))
    }
  }
}

/// `{"username": …, "password": …}`, with the password in clear.
private struct LoginRequestBody: Encodable {
  var username: String
  var password: String
}

/// `{"email": …}`.
private struct PasswordResetRequestBody: Encodable {
  var email: String
}

/// `{"challenge": …, "code": …}` with the code in clear; no `code` for a resend.
private struct SecondFactorRequestBody: Encodable {
  var challenge: String
  var code: String?
}
