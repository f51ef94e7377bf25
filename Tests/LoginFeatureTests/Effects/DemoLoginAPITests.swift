import Foundation
import LoginDemoBackend
import LoginFeature
import StateStore
import StateStoreTesting
import Testing

struct DemoLoginAPITests {
  @Test func theDemoAccountsSignInWithSessionsThatLastTwelveHours() async throws {
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let api = DemoLoginAPI(latency: .zero, clock: TestClock(), now: { now })
    let demo = try await api.login(Credentials(username: "demo", password: "Secr3t")).session
    #expect(
      demo
        == Session(
          user: Fixtures.demo, token: "demo-token-1", expiresAt: now.addingTimeInterval(43_200)))
    let ada = try await api.login(Credentials(username: "ada@example.com", password: "Engine1843"))
      .session
    #expect(ada?.user == User(id: "2", username: "ada@example.com", displayName: "Ada Lovelace"))
    #expect(ada?.token.reveal() == "demo-token-2")
  }

  @Test func theDemoAccountsAreValidUnderTheirRules() {
    #expect(CredentialRules.default.validate(username: "demo", password: "Secr3t") == [])
    #expect(
      CredentialRules.email.validate(username: "ada@example.com", password: "Engine1843") == [])
  }

  @Test(arguments: [("demo", "secr3t"), ("Demo", "Secr3t"), ("nobody", "Secr3t"), ("", "")])
  func wrongCredentialsAreRejected(username: String, password: String) async {
    let api = DemoLoginAPI(latency: .zero, clock: TestClock())
    await #expect(throws: LoginServiceError.invalidCredentials) {
      try await api.login(Credentials(username: PersonalData(username), password: Secret(password)))
    }
  }

  @Test func theAnswerWaitsForTheLatencyOnTheClock() async throws {
    let clock = TestClock()
    let api = DemoLoginAPI(latency: .seconds(2), clock: clock)
    let request = Task { try await api.login(Fixtures.credentials) }
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(try await request.value.session?.user == Fixtures.demo)
  }

  @Test func cancellingTheTaskThrowsCancelled() async {
    let clock = TestClock()
    let api = DemoLoginAPI(latency: .seconds(2), clock: clock)
    let request = Task { () async throws(LoginServiceError) -> LoginAnswer in
      try await api.login(Fixtures.credentials)
    }
    #expect(await clock.waitForSleepers(1))
    request.cancel()
    await #expect(throws: LoginServiceError.cancelled) { try await request.value }
  }
}
