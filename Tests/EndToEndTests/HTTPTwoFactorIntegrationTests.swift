import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// The second factor over real HTTP, against the fixture server on 127.0.0.1: sign-in with a
/// challenge, every answer of the verify and resend endpoints, and no code in the server's log.
struct HTTPTwoFactorIntegrationTests {
  private let grace = Credentials(username: "grace", password: "Cobol1959")

  private func challenge(from api: HTTPLoginAPI) async throws -> Challenge {
    let answer = try await api.login(grace)
    guard case .challenge(let challenge) = answer else {
      Issue.record("expected a challenge, got \(answer)")
      throw LoginServiceError.decodingFailed
    }
    return challenge
  }

  @Test func graceSignsInWithTheCodeAndTheLogHoldsNoCode() async throws {
    let server = try await FixtureServer.start()
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    let challenge = try await challenge(from: api)
    #expect(
      challenge
        == Challenge(
          id: "fixture-challenge-1", destination: "•••• 42", codeLength: 6, expiresInSeconds: 300))
    let session = try await api.verifyCode("424242", for: challenge)
    #expect(session.user == User(id: "3", username: "grace", displayName: "Grace Hopper"))
    #expect(session.token.reveal() == "fixture-token-grace")
    let lines = await server.stopAndCollectLines()
    #expect(lines.contains(#"VERIFY "fixture-challenge-1""#))
    #expect(!lines.joined().contains("424242"))
    #expect(!lines.joined().contains("Cobol1959"))
  }

  @Test func wrongExpiredAndEndedCodesAreTheirErrors() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    let challenge = try await challenge(from: api)
    await #expect(throws: LoginServiceError.codeExpired) {
      try await api.verifyCode("000000", for: challenge)
    }
    for _ in 1...3 {
      await #expect(throws: LoginServiceError.incorrectCode) {
        try await api.verifyCode("111111", for: challenge)
      }
    }
    // The third wrong code ended the challenge on the server too.
    await #expect(throws: LoginServiceError.codeExpired) {
      try await api.verifyCode("424242", for: challenge)
    }
    await #expect(throws: LoginServiceError.codeExpired) {
      try await api.resendCode(for: challenge)
    }
  }

  @Test func aResendTooSoonSaysHowLongToWait() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    // The server's 30 s count from when it sent the code, which is after this moment.
    let asked = ContinuousClock.now
    let challenge = try await challenge(from: api)
    // 30 s from the code, rounded up: 30, or less by the whole seconds a loaded machine spent
    // between the code and the resend (a CI run under load spent 12).
    do {
      _ = try await api.resendCode(for: challenge)
      Issue.record("a resend right after the code was accepted")
    } catch {
      guard case .resendTooSoon(let seconds) = error else {
        Issue.record("expected resendTooSoon, got \(error)")
        return
      }
      let spent = Int((ContinuousClock.now - asked).components.seconds)
      #expect((30 - spent - 1...30).contains(seconds), "\(seconds) s after \(spent) s spent")
    }
  }

  @Test func aResendSendsANewCodeAndTheOldOneStopsWorking() async throws {
    let server = try await FixtureServer.start(arguments: ["--resend-delay", "0"])
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    let challenge = try await challenge(from: api)
    #expect(try await api.resendCode(for: challenge) == challenge)
    await #expect(throws: LoginServiceError.incorrectCode) {
      try await api.verifyCode("424242", for: challenge)
    }
    #expect(try await api.verifyCode("171717", for: challenge).user.username == "grace")
  }
}
