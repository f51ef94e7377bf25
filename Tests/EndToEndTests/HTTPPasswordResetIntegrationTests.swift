import Foundation
import LoginDemoBackend
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// Password resets over real HTTP, against the fixture server on 127.0.0.1: every answer of
/// `POST /password/reset`, and no address in the server's log.
struct HTTPPasswordResetIntegrationTests {
  @Test func everyAddressGetsItsAnswerAndTheLogHoldsNoAddress() async throws {
    let server = try await FixtureServer.start()
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    // Accepted, whether or not an account has the address: no account enumeration.
    #expect(try await api.requestPasswordReset(email: "ada@example.com") == .accepted)
    #expect(try await api.requestPasswordReset(email: "nobody@example.com") == .accepted)
    #expect(
      try await api.requestPasswordReset(email: "limited@example.com")
        == .rateLimited(retryAfterSeconds: 30))
    await #expect(throws: LoginServiceError.decodingFailed) {
      try await api.requestPasswordReset(email: "garbled@example.com")
    }
    await #expect(throws: LoginServiceError.wrongStatusCode(500)) {
      try await api.requestPasswordReset(email: "broken@example.com")
    }
    await #expect(throws: LoginServiceError.wrongStatusCode(400)) {
      try await api.requestPasswordReset(email: "not-an-address")
    }
    let lines = await server.stopAndCollectLines()
    #expect(lines.filter { $0.hasPrefix("HIT POST /password/reset") }.count == 6)
    #expect(lines.contains("RESET 6"))
    #expect(!lines.joined().contains("example.com"))
  }

  @Test func theStepSaysTheSameOverHTTPAsWithTheDemoService() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let http = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    let demo = DemoLoginAPI(latency: .zero)
    for email in ["ada@example.com", "limited@example.com"] {
      #expect(
        try await http.requestPasswordReset(email: email)
          == (try await demo.requestPasswordReset(email: email)), "\(email)")
    }
    for email in ["broken@example.com", "not-an-address"] {
      var answers: [LoginServiceError] = []
      for api in [http, demo] as [any LoginAPI] {
        do {
          _ = try await api.requestPasswordReset(email: email)
        } catch {
          answers.append(error)
        }
      }
      #expect(answers.count == 2 && answers[0] == answers[1], "\(email): \(answers)")
    }
  }
}
