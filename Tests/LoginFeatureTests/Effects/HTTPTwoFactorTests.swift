import Foundation
import HTTPTestSupport
import LoginFeature
import StateStore
import Testing

/// The second-factor protocol of `HTTPLoginAPI` against a stubbed `URLProtocol`: every status,
/// and bodies that are not what a screen can show.
struct HTTPTwoFactorTests {
  private let challenge = Challenge(id: "c-9", destination: "•••• 42")
  private static let grace = #"{"token": "t-3", "user": {"id": "3", "username": "grace"}}"#

  private func verify(_ answer: StubAnswer) async -> Result<Session, LoginServiceError> {
    do {
      return .success(try await StubService(answer).api().verifyCode("424242", for: challenge))
    } catch {
      return .failure(error)
    }
  }

  private func resend(_ answer: StubAnswer) async -> Result<Challenge, LoginServiceError> {
    do {
      return .success(try await StubService(answer).api().resendCode(for: challenge))
    } catch {
      return .failure(error)
    }
  }

  @Test func aChallengeBodyIsASecondFactorAndBadOnesAreUnreadable() async throws {
    let body =
      #"{"challenge": {"id": "c-1", "destination": "g•••@example.com", "codeLength": 6, "expiresIn": 120}}"#
    let answer = try await StubService(.respond(200, body)).api().login(Fixtures.credentials)
    #expect(
      answer
        == .challenge(
          Challenge(
            id: "c-1", destination: "g•••@example.com", codeLength: 6, expiresInSeconds: 120)))
    let defaults = try await StubService(
      .respond(200, #"{"challenge": {"id": "c-2", "destination": "•••• 42"}}"#)
    ).api().login(Fixtures.credentials)
    #expect(defaults == .challenge(Challenge(id: "c-2", destination: "•••• 42")))

    for bad in [
      #"{"challenge": {"id": "", "destination": "x"}}"#,
      #"{"challenge": {"id": "c", "destination": "x", "codeLength": 0}}"#,
      #"{"challenge": {"id": "c", "destination": "x", "codeLength": 13}}"#,
      #"{"challenge": {"id": "c", "destination": "x", "expiresIn": -1}}"#,
      #"{"challenge": {"id": "c", "destination": "\#(String(repeating: "x", count: 201))"}}"#,
      // One character, 10,000 combining marks: short in characters, not in bytes.
      #"{"challenge": {"id": "c", "destination": "x\#(String(repeating: "\u{301}", count: 10_000))"}}"#,
      #"{"challenge": {"id": "c", "destination": "\u001b[2J42"}}"#,
      #"{"challenge": {"id": "c", "destination": "\u202e24 ••••"}}"#,
      #"{"challenge": {"destination": "x"}}"#,
    ] {
      await #expect(throws: LoginServiceError.decodingFailed, "\(bad)") {
        try await StubService(.respond(200, bad)).api().login(Fixtures.credentials)
      }
    }
  }

  @Test func theCodeGoesAsJSONToTheVerifyURLOnly() async throws {
    let stub = StubService(.respond(200, Self.grace))
    let session = try await stub.api().verifyCode("424242", for: challenge)
    #expect(session == Session(user: User(id: "3", username: "grace"), token: "t-3"))
    let request = try #require(await stub.firstRequest())
    #expect(request.method == "POST")
    #expect(request.url?.absoluteString == "http://\(stub.host):8080/api/login/verify")
    #expect(request.headers["Content-Type"] == "application/json")
    let body = try JSONSerialization.jsonObject(with: request.body) as? [String: String]
    #expect(body == ["challenge": "c-9", "code": "424242"])
  }

  @Test(
    arguments: [
      (401, LoginServiceError.incorrectCode), (410, .codeExpired), (307, .redirected(status: 307)),
      (500, .wrongStatusCode(500)), (403, .wrongStatusCode(403)),
    ])
  func verifyStatusesMapToTheirErrors(status: Int, error: LoginServiceError) async {
    #expect(await verify(.respond(status, "{}")) == .failure(error))
  }

  @Test func aVerifyAnswerWithoutASessionIsNilDataOrUnreadable() async {
    #expect(await verify(.respond(200, "")) == .failure(.nilData))
    #expect(await verify(.respond(200, "[]")) == .failure(.decodingFailed))
  }

  @Test func aResendGoesToTheResendURLWithoutACode() async throws {
    let renewed = #"{"challenge": {"id": "c-9", "destination": "•••• 42", "expiresIn": 300}}"#
    let stub = StubService(.respond(200, renewed))
    #expect(try await stub.api().resendCode(for: challenge) == challenge)
    let request = try #require(await stub.firstRequest())
    #expect(request.url?.absoluteString == "http://\(stub.host):8080/api/login/resend")
    let body = try JSONSerialization.jsonObject(with: request.body) as? [String: String]
    #expect(body == ["challenge": "c-9"])
  }

  @Test(arguments: [
    ("5", 5), ("0", 1), ("999999", 3_600), (" 12 ", 12), ("soon", 30), (nil, 30),
    ("1000000000000", 3_600), ("99999999999999999999999", 3_600),
    (" 99999999999999999999999 ", 3_600), ("9223372036854775808", 3_600),
  ])
  func tooSoonTakesItsSecondsFromRetryAfter(header: String?, seconds: Int) async {
    var headers = ["Content-Type": "application/json", "Content-Length": "2"]
    headers["Retry-After"] = header
    let answer = StubAnswer.respond(status: 429, headers: headers, chunks: [Data("{}".utf8)])
    #expect(await resend(answer) == .failure(.resendTooSoon(retryAfterSeconds: seconds)))
  }

  @Test func otherResendAnswersMapToTheirErrors() async {
    #expect(await resend(.respond(410, "{}")) == .failure(.codeExpired))
    #expect(await resend(.respond(302, "")) == .failure(.redirected(status: 302)))
    #expect(await resend(.respond(200, "")) == .failure(.nilData))
    #expect(await resend(.respond(200, Self.grace)) == .failure(.decodingFailed))
  }

  @Test func theNewErrorsReadAsSentences() {
    #expect(LoginServiceError.incorrectCode.message == "Incorrect code")
    #expect(LoginServiceError.codeExpired.message == "The code has expired")
    #expect(
      LoginServiceError.resendTooSoon(retryAfterSeconds: 1).message
        == "A new code can be sent in 1 second.")
    #expect(
      LoginServiceError.resendTooSoon(retryAfterSeconds: 45).message
        == "A new code can be sent in 45 seconds.")
  }
}
