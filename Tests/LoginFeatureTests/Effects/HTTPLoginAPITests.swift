import Foundation
import HTTPTestSupport
import LoginFeature
import LoginHTTPClient
import StateStore
import StateStoreTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct HTTPLoginAPITests {
  static let successBody = """
    {"token": "tok-123", "user": {"id": "7", "name": "Demo User", "username": "demo",
     "email": "demo@example.com"}}
    """

  /// Runs a login for `credentials` against a stub answering `answer`.
  private func login(
    _ answer: StubAnswer, credentials: Credentials = Fixtures.credentials,
    maximumResponseSize: Int = HTTPLoginAPI.defaultMaximumResponseSize
  ) async -> Result<Session, LoginServiceError> {
    await Self.result(
      of: StubService(answer).api(maximumResponseSize: maximumResponseSize), credentials)
  }

  private static func result(
    of api: HTTPLoginAPI, _ credentials: Credentials = Fixtures.credentials
  ) async -> Result<Session, LoginServiceError> {
    do {
      let answer = try await api.login(credentials)
      guard let session = answer.session else {
        Issue.record("expected a session, got \(answer)")
        return .failure(.decodingFailed)
      }
      return .success(session)
    } catch {
      return .failure(error)
    }
  }

  @Test func defaultsAreTenSecondsAndOneMebibyte() {
    let api = HTTPLoginAPI(baseURL: URL(string: "https://auth.example.com/v1")!)
    #expect(api.timeout == .seconds(10))
    #expect(api.maximumResponseSize == 1_048_576)
    #expect(api.allowsCookies == false)
    #expect(api.loginURL.absoluteString == "https://auth.example.com/v1/login")
    let slash = HTTPLoginAPI(baseURL: URL(string: "http://127.0.0.1:8000/")!)
    #expect(slash.loginURL.absoluteString == "http://127.0.0.1:8000/login")
  }

  @Test func aSuccessfulAnswerBecomesASession() async {
    let result = await login(.respond(200, Self.successBody))
    let user = User(id: "7", username: "demo", displayName: "Demo User", email: "demo@example.com")
    #expect(result == .success(Session(user: user, token: "tok-123")))
  }

  @Test func aMissingIDIsTheUsernameAndANumericIDIsText() async {
    let withoutID = await login(
      .respond(200, #"{"token": "t1", "user": {"name": "Ada", "username": "ada", "email": null}}"#))
    #expect(
      withoutID
        == .success(
          Session(user: User(id: "ada", username: "ada", displayName: "Ada"), token: "t1")))
    let numeric = await login(
      .respond(200, #"{"token": "t2", "user": {"id": 42, "username": "bo"}}"#))
    #expect(numeric == .success(Session(user: User(id: "42", username: "bo"), token: "t2")))
  }

  @Test func theRequestIsAJSONPostWithTheCredentialsInItsBodyOnly() async throws {
    let stub = StubService(.respond(200, Self.successBody))
    // A deadline that is not the default, and long enough for a loaded machine: a 3-second
    // one ran out beside the rest of the suite on two cores.
    _ = try await stub.api(timeout: .seconds(45)).login(Fixtures.credentials)
    let request = try #require(await stub.firstRequest())

    #expect(request.method == "POST")
    #expect(request.url?.absoluteString == "http://\(stub.host):8080/api/login")
    #expect(request.url?.query == nil)
    #expect(request.headers["Content-Type"] == "application/json")
    #expect(request.headers["Accept"] == "application/json")
    #expect(request.timeout == 45)
    let body = try JSONSerialization.jsonObject(with: request.body) as? [String: String]
    #expect(body == ["username": "demo", "password": "Secr3t"])
  }

  @Test func quotesBackslashesAndNonASCIIAreEscapedInTheBody() async throws {
    let stub = StubService(.respond(200, Self.successBody))
    let credentials = Credentials(username: #"a"b\c é"#, password: Secret(#"P"w\ö1 ✓"#))
    _ = try await stub.api().login(credentials)
    let request = try #require(await stub.firstRequest())

    let body = try JSONSerialization.jsonObject(with: request.body) as? [String: String]
    #expect(body == ["username": #"a"b\c é"#, "password": #"P"w\ö1 ✓"#])
  }

  @Test func anEmptyBodyIsNilData() async {
    #expect(await login(.respond(200, "")) == .failure(.nilData))
  }

  @Test(arguments: [401, 403])
  func unauthorizedAndForbiddenAreInvalidCredentials(status: Int) async {
    #expect(
      await login(.respond(status, #"{"error": "nope"}"#)) == .failure(.invalidCredentials))
  }

  @Test(arguments: [300, 301, 302, 303, 304, 305, 307, 308, 399])
  func everyThreeHundredStatusIsARedirectThatIsNotFollowed(status: Int) async {
    let headers = [
      "Location": "http://elsewhere.test/login", "Content-Length": "\(Self.successBody.utf8.count)",
    ]
    let answer = StubAnswer.respond(
      status: status, headers: headers, chunks: [Data(Self.successBody.utf8)])
    #expect(await login(answer) == .failure(.redirected(status: status)))
  }

  @Test(arguments: [201, 204, 400, 404, 429, 500, 503])
  func anyOtherStatusIsAWrongStatusCode(status: Int) async {
    #expect(await login(.respond(status, Self.successBody)) == .failure(.wrongStatusCode(status)))
  }

  @Test(arguments: [
    "<html>not json</html>",
    #"{"user": {"username": "demo"}}"#,
    #"{"token": "", "user": {"username": "demo"}}"#,
    #"{"token": "t", "user": {"name": "no username"}}"#,
    #"[{"token": "t"}]"#,
  ])
  func aBodyThatIsNotTheExpectedJSONFailsToDecode(body: String) async {
    #expect(await login(.respond(200, body)) == .failure(.decodingFailed))
  }

  @Test func aBodyWithinTheCapIsRead() async {
    let size = Self.successBody.utf8.count
    let result = await login(.respond(200, Self.successBody), maximumResponseSize: size)
    #expect(result.map(\.token) == .success("tok-123"))
  }

  @Test func aDeclaredLengthOverTheCapIsRejectedBeforeTheBody() async {
    let size = Self.successBody.utf8.count
    let result = await login(.respond(200, Self.successBody), maximumResponseSize: size - 1)
    #expect(result == .failure(.decodingFailed))
  }

  @Test func anUndeclaredBodyIsCutOffAtTheCap() async {
    let chunk = Data(repeating: UInt8(ascii: " "), count: 1024)
    let answer = StubAnswer.respond(
      status: 200, headers: ["Content-Type": "application/json"],
      chunks: Array(repeating: chunk, count: 64) + [Data(Self.successBody.utf8)])
    #expect(await login(answer, maximumResponseSize: 10_000) == .failure(.decodingFailed))
  }

  /// The body arrives in one chunk, so only the running total (not a later chunk, nor the
  /// declared length: none, or one under the cap) can see it is over the cap. Without the cap
  /// it is a valid answer: only the cap makes it fail.
  @Test(arguments: [nil, 10])
  func aBodyOverTheCapInOneChunkIsRejected(declaredLength: Int?) async {
    let body = Data(Self.successBody.utf8)
    var headers = ["Content-Type": "application/json"]
    headers["Content-Length"] = declaredLength.map(String.init)
    let answer = StubAnswer.respond(status: 200, headers: headers, chunks: [body])
    #expect(
      await login(answer, maximumResponseSize: body.count).map(\.token) == .success("tok-123"))
    #expect(await login(answer, maximumResponseSize: body.count - 1) == .failure(.decodingFailed))
  }

  @Test func aTimeoutIsTimeoutAndACancelledRequestIsCancelled() async {
    #expect(await login(.fail(.timedOut)) == .failure(.timeout))
    #expect(await login(.fail(.cancelled)) == .failure(.cancelled))
  }

  @Test(arguments: [Duration.milliseconds(600), .seconds(7)])
  func theDeadlineOnTheInjectedClockEndsTheRequestAndStopsTheTransfer(
    timeout: Duration
  ) async throws {
    let clock = TestClock()
    let stub = StubService(.never)
    let api = stub.api(timeout: timeout, clock: clock)
    let task = Task { await Self.result(of: api) }
    _ = await stub.firstRequest()
    #expect(await clock.waitForSleepers())

    await clock.advance(by: timeout - .milliseconds(1))
    #expect(clock.sleeperCount == 1, "the deadline passed early")
    await clock.advance(by: .milliseconds(1))

    #expect(await task.value == .failure(.timeout))
    // URLSession stopped the transfer: nothing keeps the connection open past the deadline.
    #expect(await stub.stopped(within: .seconds(60)))
  }

  @Test func theDeadlineDoesNotCutOffAnAnswerThatCameInTime() async throws {
    let clock = TestClock()
    let stub = StubService(.respond(200, Self.successBody))
    let result = await Self.result(of: stub.api(timeout: .seconds(1), clock: clock))
    #expect(result.map(\.token) == .success("tok-123"))
    #expect(clock.sleeperCount == 0, "the deadline's sleep outlived the request")
  }

  /// Every transport failure URLSession can report for a data task, and the words the user
  /// reads for it (`ADDRESS` stands for the stub's `host:8080`).
  static let transportWording: [(URLError.Code, String)] = [
    (.cannotConnectToHost, "connection refused at ADDRESS"),
    (.cannotFindHost, "no server named HOST was found"),
    (.dnsLookupFailed, "no server named HOST was found"),
    (.notConnectedToInternet, "this device is offline"),
    (.internationalRoamingOff, "this device is offline: data roaming is turned off"),
    (.dataNotAllowed, "this device is offline: it may not use mobile data"),
    (.callIsActive, "a phone call is using the connection"),
    (.cannotLoadFromNetwork, "this device may not use the network right now"),
    (.networkConnectionLost, "the connection to ADDRESS was lost"),
    (.badServerResponse, "ADDRESS closed the connection without a valid HTTP answer"),
    (.cannotParseResponse, "ADDRESS closed the connection without a valid HTTP answer"),
    (.zeroByteResource, "ADDRESS closed the connection without answering"),
    (.cannotDecodeRawData, "ADDRESS sent an answer that could not be decoded"),
    (.cannotDecodeContentData, "ADDRESS sent an answer that could not be decoded"),
    (.dataLengthExceedsMaximum, "ADDRESS sent an answer that is too long"),
    (.resourceUnavailable, "ADDRESS has no login service at that address"),
    (.userAuthenticationRequired, "ADDRESS asked for a separate HTTP sign-in"),
    (.userCancelledAuthentication, "ADDRESS asked for a separate HTTP sign-in"),
    (.httpTooManyRedirects, "ADDRESS redirected the login elsewhere"),
    (.redirectToNonExistentLocation, "ADDRESS redirected the login elsewhere"),
    (.requestBodyStreamExhausted, "the login could not be sent to ADDRESS in full"),
    (.secureConnectionFailed, "no secure connection could be made to ADDRESS"),
    (.serverCertificateUntrusted, "the certificate of ADDRESS is not trusted"),
    (.serverCertificateHasUnknownRoot, "the certificate of ADDRESS is not trusted"),
    (.serverCertificateHasBadDate, "the certificate of ADDRESS has expired"),
    (.serverCertificateNotYetValid, "the certificate of ADDRESS is not valid yet"),
    (.clientCertificateRejected, "ADDRESS rejected this device's certificate"),
    (.clientCertificateRequired, "ADDRESS requires a certificate this device does not have"),
    (
      .appTransportSecurityRequiresSecureConnection,
      "this app allows only secure (https) connections, and ADDRESS is not one"
    ),
    (.badURL, "http://ADDRESS is not an address this device can use"),
    (.unsupportedURL, "http://ADDRESS is not an address this device can use"),
    (.unknown, "the connection to ADDRESS failed unexpectedly, error -1"),
  ]

  @Test(arguments: transportWording)
  func eachTransportFailureReadsAsASentence(code: URLError.Code, wording: String) async {
    let stub = StubService(.fail(code))
    let expected =
      wording
      .replacingOccurrences(of: "ADDRESS", with: "\(stub.host):8080")
      .replacingOccurrences(of: "HOST", with: stub.host)
    #expect(await Self.result(of: stub.api()) == .failure(.transport(expected)))
    #expect(!expected.contains("Secr3t"))
  }

  @Test func theAlertSaysWhatWentWrongInAFullSentence() {
    #expect(
      LoginServiceError.transport("connection refused at 127.0.0.1:9").message
        == "Could not reach the server (connection refused at 127.0.0.1:9). "
        + "Please check your connection.")
    #expect(
      LoginServiceError.transport("the connection to [::1]:8080 was lost").message
        == "Could not reach the server (the connection to [::1]:8080 was lost). "
        + "Please check your connection.")
    #expect(
      LoginServiceError.redirected(status: 302).message
        == "The server sent the request to another address, and it was not sent there. "
        + "Please check the server address.")
  }

  @Test func cancellingTheTaskMidRequestIsCancelled() async throws {
    let stub = StubService(.never)
    let api = stub.api()
    let task = Task { await Self.result(of: api) }
    _ = await stub.firstRequest()
    task.cancel()
    #expect(await task.value == .failure(.cancelled))
  }
}

extension HTTPLoginAPITests {
  @Test func theCallersConfigurationIsLeftAsItWas() {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 42
    configuration.httpShouldSetCookies = true
    configuration.httpCookieAcceptPolicy = .always
    _ = HTTPLoginAPI(
      baseURL: URL(string: "http://127.0.0.1:1")!, timeout: .seconds(2),
      configuration: configuration)
    #expect(configuration.timeoutIntervalForRequest == 42)
    #expect(configuration.httpShouldSetCookies)
    #expect(configuration.httpCookieAcceptPolicy == .always)
  }
}
