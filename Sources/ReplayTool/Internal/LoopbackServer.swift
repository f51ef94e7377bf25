import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server on `127.0.0.1`, for `replay --serve`: GET only, one thread per
/// connection, one request per connection, every response `Connection: close` with a
/// `Content-Length`.
///
/// It is bounded against clients that would hold it: at most ``Limits/connections`` at
/// once (one more is closed as soon as it is accepted), a request head of at most
/// ``Limits/headBytes`` (a larger one is answered 431), and the whole head within
/// ``Limits/readDeadline`` (a client that sends it slowly is dropped without an answer), the
/// whole answer within ``Limits/writeDeadline`` (a client that reads it slowly is cut off). A
/// request that announces a body is refused (a GET has none), so no body is ever read.
///
/// What a request may see is ``handler``'s business: the server checks the shape of HTTP
/// only (``LiveTimelineGate`` checks who asks).
final class LoopbackServer: Sendable {
  /// How much the server lets clients take.
  struct Limits: Sendable {
    /// Connections served at once.
    var connections = 64
    /// The request line and headers, in bytes.
    var headBytes = 16 * 1024
    /// How long a client may take to send its request head.
    var readDeadline: Duration = .seconds(2)
    /// How long a client may take to read the whole response.
    var writeDeadline: Duration = .seconds(10)
  }

  /// A request, as the handler sees it.
  struct Request: Sendable {
    /// `GET`.
    var method: String
    /// The path, percent-decoded, without the query: `/`, `/steps`.
    var path: String
    /// The query's names and values, percent-decoded; `+` is not a space.
    var query: [String: String]
    /// The header fields, names lowercased; a repeated name keeps every value.
    var headers: [(name: String, value: String)]

    /// The one value of header `name`; `nil` when absent, `""` when repeated (a repeated
    /// `Host` or `Origin` is refused as if it were wrong).
    func header(_ name: String) -> String? {
      let values = headers.filter { $0.name == name }
      guard let first = values.first else { return nil }
      return values.count == 1 ? first.value : ""
    }
  }

  /// A response: written with `Connection: close` and `Content-Length`.
  struct Response: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []

    /// A short plain-text answer: the body says the status, nothing from the request.
    static func plain(_ status: Int, _ text: String) -> Response {
      Response(
        status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
        body: Array((text + "\n").utf8))
    }
  }

  /// Why the server could not start.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The port it listens on (the one the system chose for port 0).
  let port: UInt16
  private let listener: Int32
  private let limits: Limits
  private let handler: @Sendable (Request) -> Response
  /// Connections open now, and whether ``stop()`` was called.
  private let state = Guarded((open: 0, stopped: false))

  /// Binds `127.0.0.1:port` and starts accepting on a thread of its own.
  ///
  /// - Parameters:
  ///   - port: The port; 0 lets the system choose one.
  ///   - limits: What clients may take.
  ///   - handler: Answers each well-formed GET; called on the connection's thread.
  /// - Throws: ``Failure`` naming what the system refused (the port in use, say).
  init(
    port: UInt16 = 0, limits: Limits = Limits(),
    handler: @escaping @Sendable (Request) -> Response
  ) throws(Failure) {
    #if canImport(Darwin)
      let kind = SOCK_STREAM
    #else
      let kind = Int32(SOCK_STREAM.rawValue)
    #endif
    let descriptor = socket(AF_INET, kind, 0)
    guard descriptor >= 0 else {
      throw Failure(description: "cannot open a socket: \(SystemError.message(errno))")
    }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, 128) == 0 else {
      let code = errno
      close(descriptor)
      throw Failure(
        description: "cannot listen on 127.0.0.1:\(port): \(SystemError.message(code))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getsockname(descriptor, $0, &length)
      }
    }
    guard named == 0 else {
      let code = errno
      close(descriptor)
      throw Failure(description: "cannot read the port listened on: \(SystemError.message(code))")
    }
    #if !canImport(Darwin)
      // A client that goes away mid-answer must not end the process; Darwin is told per socket.
      signal(SIGPIPE, SIG_IGN)
    #endif
    self.port = UInt16(bigEndian: address.sin_port)
    self.listener = descriptor
    self.limits = limits
    self.handler = handler
    let accepting = Thread { [self] in acceptLoop() }
    accepting.name = "replay --serve: accept"
    accepting.start()
  }

  /// The connections being served now.
  var openConnections: Int { state.withLock { $0.open } }

  /// Stops accepting; connections being served finish on their own threads.
  func stop() {
    let first = state.withLock { state in
      defer { state.stopped = true }
      return !state.stopped
    }
    guard first else { return }
    // Wakes the thread blocked in accept(2), which then closes the socket.
    shutdown(listener, Int32(SHUT_RDWR))
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        if state.withLock({ $0.stopped }) { break }
        // Out of descriptors, say: wait a little rather than spin.
        Thread.sleep(forTimeInterval: 0.05)
        continue
      }
      _ = fcntl(client, F_SETFD, FD_CLOEXEC)
      let admitted = state.withLock { state in
        guard !state.stopped, state.open < limits.connections else { return false }
        state.open += 1
        return true
      }
      guard admitted else {
        close(client)
        if state.withLock({ $0.stopped }) { break }
        continue
      }
      let connection = Thread { [self] in
        serve(client)
        close(client)
        state.withLock { $0.open -= 1 }
      }
      connection.name = "replay --serve: connection"
      connection.start()
    }
    close(listener)
  }

  /// Reads one request head within the deadline, answers it, and returns (the caller closes).
  private func serve(_ client: Int32) {
    #if canImport(Darwin)
      var one: Int32 = 1
      _ = setsockopt(
        client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    let response: Response
    switch readHead(client) {
    case .dropped:
      return
    case .tooLarge:
      response = .plain(431, "request header fields too large")
    case .head(let bytes):
      response = Self.answer(bytes, handler: handler)
    }
    send(response, to: client)
  }

  private enum HeadRead {
    case head([UInt8])
    case tooLarge
    /// The client closed, failed or missed the deadline: no answer.
    case dropped
  }

  private func readHead(_ client: Int32) -> HeadRead {
    let clock = ContinuousClock()
    let deadline = clock.now + limits.readDeadline
    var head: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let left = deadline - clock.now
      guard left > .zero else { return .dropped }
      Self.setTimeout(client, SO_RCVTIMEO, left)
      let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return .dropped }
      let searchFrom = max(0, head.count - 3)
      head += buffer[0..<count]
      if let end = Self.endOfHead(in: head, from: searchFrom) {
        // Bytes after the head are a body (refused below) or a pipelined request (ignored).
        return end <= limits.headBytes ? .head(Array(head[0..<end])) : .tooLarge
      }
      if head.count > limits.headBytes { return .tooLarge }
    }
  }

  /// The index just past the blank line that ends the head, if `bytes` hold it.
  private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
    var index = start
    while index + 3 < bytes.count {
      if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10
      {
        return index + 4
      }
      index += 1
    }
    return nil
  }

  /// Parses a head and asks the handler, or says what is wrong with it.
  static func answer(_ head: [UInt8], handler: (Request) -> Response) -> Response {
    guard let text = String(validating: head, as: UTF8.self) else {
      return .plain(400, "bad request")
    }
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
    guard !lines.isEmpty else { return .plain(400, "bad request") }
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0",
      requestLine[1].hasPrefix("/")
    else {
      return .plain(400, "bad request")
    }
    var headers: [(name: String, value: String)] = []
    for line in lines where !line.isEmpty {
      guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
        !line[..<colon].contains(where: { $0 == " " || $0 == "\t" })
      else {
        return .plain(400, "bad request")
      }
      headers.append(
        (
          line[..<colon].lowercased(),
          line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        ))
    }
    guard requestLine[0] == "GET" else {
      var refused = Response.plain(405, "method not allowed")
      refused.headers.append(("Allow", "GET"))
      return refused
    }
    // A GET carries no body: one announced is refused, never read.
    let length = headers.first { $0.name == "content-length" }?.value
    if headers.contains(where: { $0.name == "transfer-encoding" })
      || (length.map { $0 != "0" } ?? false)
    {
      return .plain(400, "a GET request takes no body")
    }
    let target = requestLine[1]
    let path = target.prefix { $0 != "?" }
    let queryText = target.dropFirst(path.count + 1)
    guard let decodedPath = String(path).removingPercentEncoding else {
      return .plain(400, "bad request")
    }
    var query: [String: String] = [:]
    for pair in queryText.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard let name = String(parts[0]).removingPercentEncoding,
        let value = String(parts.count > 1 ? parts[1] : "").removingPercentEncoding
      else {
        return .plain(400, "bad request")
      }
      // A repeated name is ambiguous: it is kept empty, so a checked one is refused.
      query[name] = query[name] == nil ? value : ""
    }
    return handler(Request(method: "GET", path: decodedPath, query: query, headers: headers))
  }

  /// Writes the answer within ``Limits/writeDeadline`` in all: a client that reads it slowly
  /// (a little at a time, so every write makes some progress) is cut off at the deadline.
  /// Not `WriteAll`: its loop has no deadline of its own.
  private func send(_ response: Response, to client: Int32) {
    var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
    for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(head.utf8) + response.body
    let clock = ContinuousClock()
    let deadline = clock.now + limits.writeDeadline
    var offset = 0
    while offset < bytes.count {
      let left = deadline - clock.now
      // A client that left, stopped reading or reads too slowly: nothing to tell anyone.
      guard left > .zero else { return }
      Self.setTimeout(client, SO_SNDTIMEO, left)
      let written = bytes[offset...].withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
    // Lets the client read to the end before the socket closes (no reset on unread input).
    shutdown(client, Int32(SHUT_WR))
  }

  private static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 431: "Request Header Fields Too Large"
    default: "Error"
    }
  }

  private static func setTimeout(_ socket: Int32, _ option: Int32, _ duration: Duration) {
    let (seconds, attoseconds) = max(duration, .milliseconds(1)).components
    var value = timeval()
    value.tv_sec = .init(seconds)
    value.tv_usec = .init(attoseconds / 1_000_000_000_000)
    _ = setsockopt(socket, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
  }
}
