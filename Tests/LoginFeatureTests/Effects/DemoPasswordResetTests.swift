import LoginDemoBackend
import LoginFeature
import StateStoreTesting
import Testing

/// `DemoLoginAPI`'s password resets: the answer each documented address gets.
struct DemoPasswordResetTests {
  private let api = DemoLoginAPI(latency: .zero, clock: TestClock())

  @Test(arguments: ["ada@example.com", "demo@example.com", "nobody@example.org"])
  func anyValidAddressIsAcceptedWhetherOrNotItHasAnAccount(email: String) async throws {
    #expect(try await api.requestPasswordReset(email: email) == .accepted)
  }

  @Test func theDocumentedAddressesGiveTheirAnswers() async throws {
    #expect(
      try await api.requestPasswordReset(email: DemoLoginAPI.rateLimitedEmail)
        == .rateLimited(retryAfterSeconds: 30))
    await #expect(throws: LoginServiceError.wrongStatusCode(500)) {
      try await api.requestPasswordReset(email: DemoLoginAPI.brokenEmail)
    }
    for invalid in ["", "ada", "@example.com"] {
      await #expect(throws: LoginServiceError.wrongStatusCode(400), "\(invalid)") {
        try await api.requestPasswordReset(email: invalid)
      }
    }
  }

  @Test func theAnswerWaitsForTheLatencyAndBackCancelsIt() async throws {
    let clock = TestClock()
    let api = DemoLoginAPI(latency: .seconds(1), clock: clock)
    let request = Task { try await api.requestPasswordReset(email: "ada@example.com") }
    #expect(await clock.waitForSleepers(1))
    request.cancel()
    await #expect(throws: LoginServiceError.cancelled) { try await request.value }
  }
}
