import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// `HTTPLoginAPI` against fixture servers that misbehave on purpose: a body dripped a byte at a
/// time, redirects to other ports and other loopback addresses, and a cookie set on the first
/// answer. Each test starts its own servers on loopback addresses and stops them by PID.
struct HTTPLoginAPIHostileServerTests {
  // MARK: - The deadline

  @Test func aBodyDrippedPastTheDeadlineTimesOutAndTheTransferIsCancelled() async throws {
    // 122 bytes at one every 0.25 s: about 30 s to the last byte, each read well inside the
    // per-read timeout of URLSession.
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(2))

    let started = ContinuousClock.now
    let result = await api.loginResult("drip")
    let elapsed = ContinuousClock.now - started

    // The bound is exact: the deadline sleeps 2 s on this same clock, so nothing can end the
    // request earlier. No upper bound: on a busy machine a wake-up is late by whatever the
    // scheduler makes it. Without the deadline the whole body would arrive (after about 30 s)
    // and the login would succeed, so `.timeout` itself says the deadline ended it.
    #expect(result == .failure(.timeout))
    #expect(elapsed >= .seconds(2), "the deadline ended the request early: \(elapsed)")
    // The client really hung up: the server's next writes fail long before its 30 s are up.
    let aborted = await server.firstLine(within: .seconds(25)) { $0.hasPrefix("DRIP ") }
    #expect(aborted?.hasPrefix("DRIP ABORTED ") == true, "server said: \(aborted ?? "nothing")")
  }

  @Test func aSubSecondDeadlineIsNotCutToZero() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .milliseconds(600))

    let started = ContinuousClock.now
    let result = await api.loginResult("silent")
    let elapsed = ContinuousClock.now - started

    #expect(result == .failure(.timeout))
    // Not at once, as when URLSession on Linux rounded 0.6 s down to 0: the deadline sleeps
    // 0.6 s on this same clock, and URLSession's backstop is a whole second, so the bound below
    // is exact. (That it fires at 0.6 s and not at the backstop is shown on a TestClock in
    // HTTPLoginAPITests; no upper bound here, as a busy machine wakes sleepers late.)
    #expect(elapsed >= .milliseconds(600), "timed out too early: \(elapsed)")
  }

  @Test func aSlowBodyThatEndsWithinTheDeadlineSignsIn() async throws {
    let server = try await FixtureServer.start(arguments: ["--drip-interval", "0.004"])
    defer { server.stop() }
    // The body takes about 0.5 s; the deadline is far beyond what a busy machine needs.
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(120))
    let result = await api.loginResult("drip")
    #expect(result.map(\.token) == .success("fixture-token-drip"))
  }

  // MARK: - Transport failures

  @Test func aBodyCutOffMidwayIsAConnectionLost() async throws {
    // FoundationNetworking reports this (libcurl's "partial file") as an unknown error, -1.
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let result = await HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
      .loginResult("cutoff")
    let detail = "the connection to 127.0.0.1:\(server.port) was lost"
    #expect(result == .failure(.transport(detail)))
    #expect(
      LoginServiceError.transport(detail).message
        == "Could not reach the server (the connection to 127.0.0.1:\(server.port) was lost). "
        + "Please check your connection.")
  }

  // MARK: - Redirects

  @Test(arguments: [301, 302, 303, 307, 308], ["127.0.0.1", "127.0.0.2"])
  func aRedirectIsAnErrorAndNothingReachesTheOtherServer(status: Int, target: String)
    async throws
  {
    // The server redirected to: on another port of 127.0.0.1, or on another loopback address.
    let elsewhere = try await FixtureServer.start(host: target)
    defer { elsewhere.stop() }
    let server = try await FixtureServer.start(
      arguments: ["--redirect-to", elsewhere.baseURL.absoluteString])
    defer { server.stop() }

    let result = await HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
      .loginResult("moved\(status)")

    #expect(result == .failure(.redirected(status: status)))
    #expect(
      LoginServiceError.redirected(status: status).message
        == "The server sent the request to another address, and it was not sent there. "
        + "Please check the server address.")
    let served = await server.stopAndCollectHits()
    #expect(served == ["HIT POST /login cookie=no"])
    let elsewhereHits = await elsewhere.stopAndCollectHits()
    #expect(elsewhereHits == [], "the redirect was followed to \(target)")
  }

  // MARK: - Cookies

  @Test func noCookieSurvivesFromOneLoginToTheNext() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)

    // Sign in (the answer sets a cookie), log out — the session is simply dropped — and sign in
    // again with the same API client, as the app does.
    #expect(await api.loginResult("cookie").map(\.token) == .success("fixture-token-cookie"))
    #expect(await api.loginResult("cookie").map(\.token) == .success("fixture-token-cookie"))

    let hits = await server.stopAndCollectHits()
    #expect(hits == ["HIT POST /login cookie=no", "HIT POST /login cookie=no"])
  }

  @Test func aHostThatOptsInGetsItsCookiesBack() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(
      baseURL: server.baseURL, timeout: FixtureServer.patientTimeout, allowsCookies: true)

    _ = await api.loginResult("cookie")
    _ = await api.loginResult("cookie")

    let hits = await server.stopAndCollectHits()
    #expect(hits == ["HIT POST /login cookie=no", "HIT POST /login cookie=yes"])
  }
}
