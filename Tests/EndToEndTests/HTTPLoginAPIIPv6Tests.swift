import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// `HTTPLoginAPI` with an IPv6 address as its host, against the fixture server bound to `::1`.
///
/// On a machine without an IPv6 loopback these tests are skipped, and Swift Testing prints the
/// reason below for each of them; they never pass without having run. With
/// `LOGINSTORE_IPV6_TESTS=required` the missing loopback also fails `IPv6LoopbackTests`.
@Suite(
  .enabled(
    if: IPv6Loopback.isAvailable,
    "::1 cannot be bound on this machine (no IPv6 loopback), so the IPv6 tests cannot run"))
struct HTTPLoginAPIIPv6Tests {
  @Test func theDemoAccountSignsInOverIPv6() async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    #expect(server.baseURL.absoluteString == "http://[::1]:\(server.port)")

    let result = await HTTPLoginAPI(baseURL: server.baseURL).loginResult("demo")

    let demo = User(id: "1", username: "demo", displayName: "Demo User", email: "demo@example.com")
    #expect(result == .success(Session(user: demo, token: "fixture-token-demo")))
  }

  @Test func aBaseURLWithAPathAndAnEscapedBodyOverIPv6() async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL.appendingPathComponent("api/v1"))
    let username = #"echo "quoted" \back\ é ✓"#
    let password = #"Pa"ss\wörd1 ✓"#

    let session = try await api.loginResult(username, password).get()

    #expect(session.user.username == username)
    #expect(session.token.reveal() == password)
    let hits = await server.stopAndCollectHits()
    #expect(hits == ["HIT POST /api/v1/login cookie=no"])
  }

  @Test(arguments: [
    ("chunked", "Secr3t", Result<String, LoginServiceError>.success("fixture-token-chunked")),
    ("demo", "Wr0ng", .failure(.invalidCredentials)),
    ("forbidden", "Secr3t", .failure(.invalidCredentials)),
    ("status500", "Secr3t", .failure(.wrongStatusCode(500))),
    ("empty", "Secr3t", .failure(.nilData)),
    ("garbage", "Secr3t", .failure(.decodingFailed)),
    ("huge", "Secr3t", .failure(.decodingFailed)),
    ("flood", "Secr3t", .failure(.decodingFailed)),
    ("moved307", "Secr3t", .failure(.redirected(status: 307))),
  ])
  func eachScriptedAnswerOverIPv6(
    username: String, password: String, expected: Result<String, LoginServiceError>
  ) async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    let result = await HTTPLoginAPI(baseURL: server.baseURL).loginResult(username, password)
    #expect(result.map { $0.token.reveal() } == expected)
  }

  @Test func theDeadlineCancelsADrippedBodyOverIPv6() async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(1))

    let started = ContinuousClock.now
    let result = await api.loginResult("drip")
    let elapsed = ContinuousClock.now - started

    // Loose bounds, for busy machines: without the deadline the answer takes 30 s.
    #expect(result == .failure(.timeout))
    #expect(elapsed < .seconds(10), "the deadline did not end the request: \(elapsed)")
    let aborted = await server.firstLine(within: .seconds(10)) { $0.hasPrefix("DRIP ") }
    #expect(aborted?.hasPrefix("DRIP ABORTED ") == true, "server said: \(aborted ?? "nothing")")
  }

  @Test func cancellingMidRequestOverIPv6IsCancelled() async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL)
    let task = Task { await api.loginResult("silent") }
    #expect(await server.waitForRequest(from: "silent"))
    let cancelled = ContinuousClock.now
    task.cancel()
    #expect(await task.value == .failure(.cancelled))
    // Well before the 10 s deadline (loose, for busy machines; the transport looks every 50 ms).
    #expect(ContinuousClock.now - cancelled < .seconds(5))
  }

  @Test func noCookieIsSentBackOverIPv6() async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL)
    _ = await api.loginResult("cookie")
    _ = await api.loginResult("cookie")
    let hits = await server.stopAndCollectHits()
    #expect(hits == ["HIT POST /login cookie=no", "HIT POST /login cookie=no"])
  }

  @Test func aBodyCutOffMidwayOverIPv6IsAConnectionLost() async throws {
    let server = try await FixtureServer.start(host: "::1")
    defer { server.stop() }
    let result = await HTTPLoginAPI(baseURL: server.baseURL).loginResult("cutoff")
    #expect(result == .failure(.transport("the connection to [::1]:\(server.port) was lost")))
  }

  @Test func aClosedIPv6PortIsConnectionRefusedAtThatAddress() async throws {
    let closed = try ClosedPort(host: "::1")
    let api = HTTPLoginAPI(baseURL: URL(string: "http://[::1]:\(closed.port)")!)
    let result = await api.loginResult("demo")
    #expect(result == .failure(.transport("connection refused at [::1]:\(closed.port)")))
  }

  #if canImport(FoundationNetworking)
    @Test func httpsToAnIPv6AddressSaysWhyItCannotBeUsedOnLinux() async {
      let api = HTTPLoginAPI(baseURL: URL(string: "https://[::1]:9")!)
      let result = await api.loginResult("demo")
      #expect(
        result
          == .failure(
            .transport(
              "this device cannot make a secure connection to an IPv6 address ([::1]:9); "
                + "use the server's host name")))
    }
  #endif
}
