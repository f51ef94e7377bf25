import Foundation
import HTTPTestSupport
import LoginFeature
import StateStore
import Testing

/// `HTTPLoginAPI.requestPasswordReset(email:)` against a stubbed `URLProtocol`: the request,
/// every status, and `Retry-After` headers good and bad.
struct HTTPPasswordResetTests {
  private func reset(_ answer: StubAnswer) async -> Result<PasswordResetAnswer, LoginServiceError> {
    do {
      return .success(
        try await StubService(answer).api().requestPasswordReset(email: "ada@example.com"))
    } catch {
      return .failure(error)
    }
  }

  private func tooMany(retryAfter header: String?) -> StubAnswer {
    var headers = ["Content-Type": "application/json", "Content-Length": "2"]
    headers["Retry-After"] = header
    return .respond(status: 429, headers: headers, chunks: [Data("{}".utf8)])
  }

  @Test func theAddressGoesAsJSONToThePasswordResetURL() async throws {
    let stub = StubService(.respond(202, ""))
    #expect(try await stub.api().requestPasswordReset(email: "ada@example.com") == .accepted)
    let request = try #require(await stub.firstRequest())
    #expect(request.method == "POST")
    #expect(request.url?.absoluteString == "http://\(stub.host):8080/api/password/reset")
    #expect(request.headers["Content-Type"] == "application/json")
    #expect(request.headers["Accept"] == "application/json")
    let body = try JSONSerialization.jsonObject(with: request.body) as? [String: String]
    #expect(body == ["email": "ada@example.com"])
  }

  @Test func anAcceptedAnswersBodyIsNotRead() async {
    #expect(await reset(.respond(202, #"{"anything": true}"#)) == .success(.accepted))
    #expect(await reset(.respond(202, "not json")) == .success(.accepted))
  }

  @Test(arguments: [
    ("30", 30), ("0", 1), ("999999", 3_600), (" 12 ", 12), (nil, 30),
    ("Wed, 21 Oct 2015 07:28:00 GMT", 30), ("99999999999999999999999", 3_600),
  ])
  func tooManyRequestsTakesItsSecondsFromRetryAfter(header: String?, seconds: Int) async {
    #expect(
      await reset(tooMany(retryAfter: header))
        == .success(.rateLimited(retryAfterSeconds: seconds)))
  }

  @Test(arguments: ["soon", "-5", "1.5", "", "30 seconds", "Wed, 21 Oct 2015"])
  func aRetryAfterThatIsNeitherSecondsNorADateIsUnreadable(header: String) async {
    #expect(await reset(tooMany(retryAfter: header)) == .failure(.decodingFailed))
  }

  @Test(
    arguments: [
      (200, LoginServiceError.wrongStatusCode(200)), (400, .wrongStatusCode(400)),
      (404, .wrongStatusCode(404)), (500, .wrongStatusCode(500)), (503, .wrongStatusCode(503)),
      (401, .wrongStatusCode(401)), (307, .redirected(status: 307)),
    ])
  func otherStatusesAreTheirErrors(status: Int, error: LoginServiceError) async {
    #expect(await reset(.respond(status, "{}")) == .failure(error))
  }

  @Test func transportFailuresAreTheSameAsASignIns() async {
    #expect(await reset(.fail(.timedOut)) == .failure(.timeout))
    guard case .failure(.transport) = await reset(.fail(.cannotConnectToHost)) else {
      Issue.record("expected a transport failure")
      return
    }
  }
}
