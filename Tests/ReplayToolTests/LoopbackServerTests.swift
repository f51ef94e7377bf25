import Foundation
import StateStore
import Testing
import ToolTestSupport

@testable import ReplayTool

/// The server of `replay --serve`, attacked on loopback as its users' browsers and other
/// sites' pages could: each refusal leaves it serving the next proper request.
@Suite(.timeLimit(.minutes(1)))
struct LoopbackServerTests {
  static let token = String(repeating: "ab", count: 32)
  static let html = "<!DOCTYPE html><p>the page</p>"

  /// A server answering as `replay --serve` does, for a page of `steps` steps.
  private static func served(
    limits: LoopbackServer.Limits = .init(), steps: Int = 3
  ) throws -> (LoopbackServer, Guarded<LivePage>) {
    let page = Guarded(LivePage(html: Array(html.utf8), steps: steps))
    let port = Guarded<UInt16>(0)
    let server = try LoopbackServer(limits: limits) { request in
      LivePage.answer(
        request, gate: LiveTimelineGate(token: token, port: port.withLock { $0 }), page: page)
    }
    port.withLock { $0 = server.port }
    return (server, page)
  }

  private static func pageRequest(_ server: LoopbackServer) async throws -> RawHTTPClient.Answer {
    try await RawHTTPClient.get(port: server.port, "/?token=\(token)")
  }

  @Test func thePageIsServedWithTheTokenAndTheHeadersThatKeepItPrivate() async throws {
    let (server, _) = try Self.served()
    defer { server.stop() }
    let answer = try await Self.pageRequest(server)
    #expect(answer.status == 200)
    #expect(answer.body == Self.html)
    #expect(answer.headers["cache-control"] == "no-store")
    #expect(answer.headers["x-content-type-options"] == "nosniff")
    #expect(answer.headers["connection"] == "close")
    #expect(answer.headers["content-length"] == String(Self.html.utf8.count))
    let policy = try #require(answer.headers["content-security-policy"])
    #expect(policy == TimelinePage.contentSecurityPolicy(live: true))
    #expect(policy.contains("connect-src 'self'") && policy.hasPrefix("default-src 'none'"))
    // Its own origin, as the page's script sends it, is let in.
    let own = try await RawHTTPClient.get(
      port: server.port, "/steps?token=\(Self.token)&known=0",
      headers: [
        ("Host", "localhost:\(server.port)"), ("Origin", "http://localhost:\(server.port)"),
      ])
    #expect(own.status == 200)
    #expect(own.body == #"{"steps":3}"#)
  }

  @Test func aRequestWithoutTheTokenAWrongHostOrAForeignOriginGetsNothing() async throws {
    let (server, _) = try Self.served()
    defer { server.stop() }
    let port = server.port
    let wrongToken = String(repeating: "ab", count: 31) + "ac"
    let refused: [(String, String, [(String, String)])] = [
      ("no token", "/", [("Host", "127.0.0.1:\(port)")]),
      ("no token, data", "/steps?known=0", [("Host", "127.0.0.1:\(port)")]),
      ("a wrong token", "/?token=\(wrongToken)", [("Host", "127.0.0.1:\(port)")]),
      ("a shorter token", "/?token=ab", [("Host", "127.0.0.1:\(port)")]),
      (
        "the token twice", "/?token=\(Self.token)&token=\(Self.token)",
        [("Host", "127.0.0.1:\(port)")]
      ),
      ("no Host", "/?token=\(Self.token)", []),
      ("a rebound name", "/?token=\(Self.token)", [("Host", "evil.example:\(port)")]),
      ("another port", "/?token=\(Self.token)", [("Host", "127.0.0.1:\(port &+ 1)")]),
      (
        "two Hosts", "/?token=\(Self.token)",
        [("Host", "127.0.0.1:\(port)"), ("Host", "evil.example")]
      ),
      (
        "a foreign Origin", "/steps?token=\(Self.token)&known=0",
        [("Host", "127.0.0.1:\(port)"), ("Origin", "http://evil.example")]
      ),
      (
        "a null Origin", "/?token=\(Self.token)",
        [("Host", "127.0.0.1:\(port)"), ("Origin", "null")]
      ),
    ]
    for (what, target, headers) in refused {
      let answer = try await RawHTTPClient.get(port: port, target, headers: headers)
      #expect(answer.status == 403, "\(what): \(answer)")
      #expect(answer.body == "forbidden\n", "\(what)")
      #expect(answer.headers["cache-control"] == "no-store", "\(what)")
    }
    #expect(try await Self.pageRequest(server).status == 200)
  }

  @Test func aBodyAnotherMethodOrAMalformedHeadIsRefused() async throws {
    let (server, _) = try Self.served()
    defer { server.stop() }
    let host = "Host: 127.0.0.1:\(server.port)\r\n"
    let cases: [(String, Int)] = [
      ("POST /?token=\(Self.token) HTTP/1.1\r\n\(host)Content-Length: 2\r\n\r\nhi", 405),
      ("GET /?token=\(Self.token) HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhello", 400),
      (
        "GET /?token=\(Self.token) HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        400
      ),
      ("GET /?token=\(Self.token) HTTP/1.1\r\n\(host)bad header\r\n\r\n", 400),
      ("GET http://127.0.0.1/ HTTP/1.1\r\n\(host)\r\n", 400),
    ]
    for (request, status) in cases {
      let answer = try await RawHTTPClient.request(port: server.port, Array(request.utf8))
      #expect(answer.status == status, "\(request.debugDescription): \(answer)")
      #expect(!answer.body.contains("the page"))
    }
    #expect(try await Self.pageRequest(server).status == 200)
  }

  @Test func aOneMebibyteHeaderIsRefusedWithoutBeingRead() async throws {
    let (server, _) = try Self.served()
    defer { server.stop() }
    let port = server.port
    let answer = try await RawHTTPClient.onThread {
      let connection = try RawHTTPClient.Connection(port: port)
      let head =
        "GET /?token=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-Big: "
        + String(repeating: "a", count: 1 << 20) + "\r\n\r\n"
      // The server stops reading at 16 KiB: the rest may be refused (a reset) mid-send.
      connection.send(Array(head.utf8))
      return connection.answer()
    }
    // A reset may come before the answer is read; what is read is never the page.
    #expect(answer.status == 431 || answer.status == nil, "\(answer)")
    #expect(!answer.body.contains("the page"))
    #expect(try await Self.pageRequest(server).status == 200)
  }

  @Test func aClientSendingOneBytePerSecondIsDroppedAtTheDeadline() async throws {
    var limits = LoopbackServer.Limits()
    limits.readDeadline = .seconds(1)
    let (server, _) = try Self.served(limits: limits)
    defer { server.stop() }
    let port = server.port
    let head = Array("GET /?token=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
    let sent = try await RawHTTPClient.onThread { () -> Int in
      let connection = try RawHTTPClient.Connection(port: port)
      for (index, byte) in head.enumerated() {
        guard connection.send([byte]) else { return index }
        if connection.isClosedWithoutAnswer(within: .seconds(1)) { return index + 1 }
        // Bounded: a server that never drops it fails here, not after the whole head.
        if index == 10 { return head.count }
      }
      return head.count
    }
    // Dropped after a byte or two (the deadline is a second), long before the head is whole.
    #expect(sent < 5, "the server took \(sent) bytes sent a second apart")
    #expect(try await Self.pageRequest(server).status == 200)
  }

  @Test func aClientReadingTheAnswerSlowlyIsCutOffAtTheDeadline() async throws {
    var limits = LoopbackServer.Limits()
    limits.writeDeadline = .seconds(1)
    let (server, page) = try Self.served(limits: limits)
    defer { server.stop() }
    page.withLock { $0.html = Array(repeating: UInt8(ascii: "a"), count: 64 << 20) }
    let port = server.port
    // Reads 4 KiB every 50 ms, for 8 s at most: 640 KiB of the 64 MiB page. The socket
    // buffers hold megabytes, so what tells is the server giving the connection up.
    let (read, gaveUp) = try await RawHTTPClient.onThread { () -> (Int, Bool) in
      let connection = try RawHTTPClient.Connection(port: port)
      connection.send(
        Array("GET /?token=\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8))
      var total = 0
      var buffer = [UInt8](repeating: 0, count: 4096)
      for _ in 0..<160 {
        let count = buffer.withUnsafeMutableBytes {
          recv(connection.descriptor, $0.baseAddress, $0.count, 0)
        }
        guard count > 0 else { break }
        total += count
        if total > 4096, server.openConnections == 0 { return (total, true) }
        Thread.sleep(forTimeInterval: 0.05)
      }
      return (total, false)
    }
    #expect(gaveUp, "the server was still writing after \(read) bytes read over 8 s")
    #expect(try await Self.pageRequest(server).status == 200)
  }

  @Test func twoHundredConnectionsAtOnceAreCappedAndTheServerGoesOn() async throws {
    var limits = LoopbackServer.Limits()
    limits.connections = 16
    limits.readDeadline = .seconds(1)
    let (server, _) = try Self.served(limits: limits)
    defer { server.stop() }
    let port = server.port
    // 200 clients that connect and send nothing: the first 16 are held (until their deadline),
    // the rest are closed as soon as they are accepted.
    let held = try await RawHTTPClient.onThread { () -> [RawHTTPClient.Connection] in
      try (0..<200).map { _ in try RawHTTPClient.Connection(port: port) }
    }
    let closedAtOnce = try await RawHTTPClient.onThread {
      held.filter { $0.isClosedWithoutAnswer(within: .milliseconds(200)) }.count
    }
    #expect(server.openConnections <= 16)
    #expect(closedAtOnce >= 200 - 16, "only \(closedAtOnce) of 200 were turned away")
    // Once the held ones miss their deadline, a proper request is served (asked again while
    // the slots are still taken: a turned-away request is closed without an answer).
    var answer = try await Self.pageRequest(server)
    for _ in 0..<50 where answer.status != 200 {
      try await Task.sleep(for: .milliseconds(100))
      answer = try await Self.pageRequest(server)
    }
    #expect(answer.status == 200, "\(answer)")
    withExtendedLifetime(held) {}
  }

  @Test func theStepsEndpointAnswersWhenTheLogGrowsOrAfterASecond() async throws {
    let (server, page) = try Self.served(steps: 3)
    defer { server.stop() }
    let port = server.port
    // Known to be stale: answered at once.
    let stale = try await RawHTTPClient.get(port: port, "/steps?token=\(Self.token)&known=2")
    #expect(stale.body == #"{"steps":3}"#)
    // Up to date: held until the page has more steps.
    async let waiting = RawHTTPClient.get(port: port, "/steps?token=\(Self.token)&known=3")
    try await Task.sleep(for: .milliseconds(200))
    page.withLock { $0.steps = 4 }
    #expect(try await waiting.body == #"{"steps":4}"#)
    // Nothing new: answered with the same count once the second is over.
    let unchanged = try await RawHTTPClient.get(port: port, "/steps?token=\(Self.token)&known=4")
    #expect(unchanged.body == #"{"steps":4}"#)
  }
}
