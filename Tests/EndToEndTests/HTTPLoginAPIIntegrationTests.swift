import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// `HTTPLoginAPI` against the real fixture server (`Tests/Fixtures/login_server.py`) on
/// 127.0.0.1: one server per test, stopped by PID when the test ends, pass or fail.
struct HTTPLoginAPIIntegrationTests {
  static let demoUser = User(
    id: "1", username: "demo", displayName: "Demo User", email: "demo@example.com")

  @Test func theDemoAccountSignsIn() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let result = await HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
      .loginResult("demo")
    #expect(result == .success(Session(user: Self.demoUser, token: "fixture-token-demo")))
  }

  @Test func aBaseURLWithAPathAndAUserWithoutID() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL.appendingPathComponent("api/v1"))
    let result = await api.loginResult("ada@example.com", "Engine1843")
    let ada = User(id: "ada@example.com", username: "ada@example.com", displayName: "Ada Lovelace")
    #expect(result == .success(Session(user: ada, token: "fixture-token-ada@example.com")))
  }

  @Test(arguments: [
    ("demo", "Wr0ng", LoginServiceError.invalidCredentials),
    ("nobody", "Secr3t", .invalidCredentials),
    ("forbidden", "Secr3t", .invalidCredentials),
    ("status500", "Secr3t", .wrongStatusCode(500)),
    ("empty", "Secr3t", .nilData),
    ("garbage", "Secr3t", .decodingFailed),
    ("huge", "Secr3t", .decodingFailed),
    ("flood", "Secr3t", .decodingFailed),
  ])
  func eachScriptedFailureMapsToItsError(
    username: String, password: String, expected: LoginServiceError
  ) async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let result = await HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
      .loginResult(username, password)
    #expect(result == .failure(expected))
  }

  /// A server that reads the login and closes the connection without a byte: the words say
  /// so, never that it sent something. FoundationNetworking reports it as a lost connection in
  /// some runs and as a bad response in others; both read true.
  @Test func aServerThatClosesWithoutAnsweringIsNotSaidToHaveAnswered() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let address = "127.0.0.1:\(server.port)"
    for _ in 0..<3 {
      let result = await HTTPLoginAPI(
        baseURL: server.baseURL, timeout: FixtureServer.patientTimeout
      )
      .loginResult("hangup", "Secr3t")
      let truthful: [Result<Session, LoginServiceError>] = [
        .failure(.transport("\(address) closed the connection without a valid HTTP answer")),
        .failure(.transport("the connection to \(address) was lost")),
      ]
      #expect(truthful.contains(result), "\(result)")
    }
  }

  @Test func quotesBackslashesAndNonASCIIReachTheServerIntact() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let username = #"echo "quoted" \back\ é ✓ 日本"#
    let password = #"Pa"ss\wörd1 ✓"#
    let result = await HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
      .loginResult(username, password)
    let session = try result.get()
    #expect(session.user.username.value == username)
    #expect(session.user.displayName.value == username)
    #expect(session.token.reveal() == password)
  }

  @Test func aOneSecondTimeoutAgainstTheSilentEndpoint() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    // The deadline runs on a clock the test moves: no wall-clock bound that a busy suite on two
    // cores could miss.
    let clock = ManualClock()
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(1), clock: clock)
    async let result = api.loginResult("silent")
    #expect(await clock.waitForSleepers(1))
    // The configured timeout is the one in force, not the 10 s default.
    #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(1)))
    await clock.advance(by: .seconds(1))
    #expect(await result == .failure(.timeout))
  }

  @Test func aClosedPortIsConnectionRefusedAtThatAddress() async throws {
    let closed = try ClosedPort()
    let api = HTTPLoginAPI(baseURL: URL(string: "http://127.0.0.1:\(closed.port)")!)
    let result = await api.loginResult("demo")
    #expect(result == .failure(.transport("connection refused at 127.0.0.1:\(closed.port)")))
    #expect(
      LoginServiceError.transport("connection refused at 127.0.0.1:\(closed.port)").message
        == "Could not reach the server (connection refused at 127.0.0.1:\(closed.port)). "
        + "Please check your connection.")
  }

  @Test func cancellingMidRequestIsCancelled() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    let task = Task { await api.loginResult("silent") }
    #expect(await server.waitForRequest(from: "silent"))
    task.cancel()
    #expect(await task.value == .failure(.cancelled))
  }

  @Test func theServerStopsByPID() async throws {
    let server = try await FixtureServer.start()
    let pid = server.pid
    #expect(kill(pid, 0) == 0)
    await server.stopAndWaitForExit()
    #expect(kill(pid, 0) == -1)
  }
}
