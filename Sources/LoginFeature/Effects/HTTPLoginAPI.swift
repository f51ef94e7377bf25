import Foundation
import StateStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The login service over HTTP: `POST {baseURL}/login` with a JSON body, on URLSession.
///
/// The request carries the credentials in its body only — never in the URL, the query or a log
/// line — with `Content-Type` and `Accept` set to `application/json`:
///
/// ```text
/// POST /login HTTP/1.1
/// Content-Type: application/json
/// Accept: application/json
///
/// {"username":"demo","password":"Secr3t"}
/// ```
///
/// A `200` answer with `{"token": …, "user": {"id": …, "name": …, "username": …,
/// "email": …}}` becomes a ``Session`` (`id` and `email` may be missing: the id is then the
/// username). Every other outcome is a typed ``LoginServiceError``:
///
/// | outcome                                   | error                                   |
/// |-------------------------------------------|-----------------------------------------|
/// | `200`, empty body                         | ``LoginServiceError/nilData``           |
/// | `200`, not the JSON above                 | ``LoginServiceError/decodingFailed``    |
/// | body over ``maximumResponseSize``         | ``LoginServiceError/decodingFailed``    |
/// | `401`, `403`                              | ``LoginServiceError/invalidCredentials`` |
/// | any other status                          | ``LoginServiceError/wrongStatusCode(_:)`` |
/// | no answer within ``timeout``              | ``LoginServiceError/timeout``           |
/// | task cancelled, `URLError.cancelled`      | ``LoginServiceError/cancelled``         |
/// | any other transport failure               | ``LoginServiceError/transport(_:)``, e.g. "connection refused at 127.0.0.1:9" |
///
/// Only a `200` answer's body is read, in chunks, and never held past ``maximumResponseSize``:
/// a declared `Content-Length` over it, or the first chunk past it, ends the request.
///
/// The API takes a `URLSessionConfiguration`, not a `URLSession`: it owns a session it is the
/// delegate of, because counting the body as it arrives needs the session's delegate
/// (FoundationNetworking has no `bytes(for:)` and does not call per-task delegates). Inject
/// `URLProtocol` stubs through the configuration's `protocolClasses`.
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
  /// How long a request may wait for its answer.
  ///
  /// FoundationNetworking (Linux) cuts it down to whole seconds: 1.5 s times out after 1 s,
  /// and anything under 1 s at once.
  public let timeout: Duration
  /// The most bytes of body accepted; a longer answer is ``LoginServiceError/decodingFailed``.
  public let maximumResponseSize: Int

  private let loader: CappedDataLoader

  /// Creates an API client.
  ///
  /// - Parameters:
  ///   - baseURL: Where the service lives, e.g. `https://auth.example.com/v1`; requests go to
  ///     `baseURL/login`.
  ///   - timeout: How long a request may wait for its answer; 10 seconds by default. Whole
  ///     seconds on Linux.
  ///   - maximumResponseSize: The most bytes of body accepted; 1 MiB by default.
  ///   - configuration: The configuration of the URLSession the client creates and owns
  ///     (ephemeral by default: no cookies, no cache on disk). Set `protocolClasses` on it to
  ///     stub the network in tests.
  public init(
    baseURL: URL,
    timeout: Duration = HTTPLoginAPI.defaultTimeout,
    maximumResponseSize: Int = HTTPLoginAPI.defaultMaximumResponseSize,
    configuration: URLSessionConfiguration = .ephemeral
  ) {
    self.baseURL = baseURL
    self.timeout = timeout
    self.maximumResponseSize = max(0, maximumResponseSize)
    // FoundationNetworking times requests out after the session's `timeoutIntervalForRequest`
    // (60 s by default) whatever the request says, so the session gets the timeout too — on a
    // copy, so the caller's configuration object is left as it was.
    let owned = (configuration.copy() as? URLSessionConfiguration) ?? configuration
    owned.timeoutIntervalForRequest = Self.seconds(timeout)
    self.loader = CappedDataLoader(configuration: owned)
  }

  private static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return max(0, Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// The URL requests are sent to: ``baseURL`` followed by `/login`.
  public var loginURL: URL {
    baseURL.appendingPathComponent("login")
  }

  /// Sends `credentials` to the service and reads the session it answers with.
  ///
  /// - Parameter credentials: The username and password; the password is revealed only into
  ///   the request body.
  /// - Returns: The session of the signed-in user.
  /// - Throws: ``LoginServiceError``; see the table above.
  public func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    let request = try makeRequest(credentials)
    let response: HTTPURLResponse
    let body: Data
    do {
      (response, body) = try await loader.load(request, limit: maximumResponseSize)
    } catch {
      throw map(error)
    }
    if Task.isCancelled { throw .cancelled }
    switch response.statusCode {
    case 200:
      guard !body.isEmpty else { throw .nilData }
      return .session(try LoginResponseBody.session(from: body))
    case 401, 403:
      throw .invalidCredentials
    case let status:
      throw .wrongStatusCode(status)
    }
  }

  /// The request for `credentials`.
  ///
  /// The body is encoded here, explicitly, from ``Secret/reveal()``: a ``Secret`` encodes as
  /// its mask everywhere else, on purpose.
  private func makeRequest(_ credentials: Credentials) throws(LoginServiceError) -> URLRequest {
    let body: Data
    do {
      body = try JSONEncoder().encode(
        LoginRequestBody(username: credentials.username, password: credentials.password.reveal()))
    } catch {
      throw .transport("the request could not be encoded")
    }
    var request = URLRequest(url: loginURL)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.httpBody = body
    request.timeoutInterval = Self.seconds(timeout)
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
    }
  }
}

/// `{"username": …, "password": …}`, with the password in clear.
private struct LoginRequestBody: Encodable {
  var username: String
  var password: String
}
