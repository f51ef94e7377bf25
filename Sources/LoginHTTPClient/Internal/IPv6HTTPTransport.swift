#if canImport(FoundationNetworking) && canImport(Glibc)
  import Foundation
  import FoundationNetworking
  import Glibc
  import StateStore

  /// One HTTP/1.1 exchange over a socket of its own, for a URL whose host is an IPv6 address.
  ///
  /// Why it exists: FoundationNetworking (Swift 6.3 on Linux) fails every request to an IPv6
  /// address with `URLError.badURL` before sending anything — it checks that libcurl and `URL`
  /// agree on the host, and libcurl says `[::1]` where `URL.host` says `::1`
  /// (swift-corelibs-foundation issue 5496). So `http://[::1]:8080` could never sign in.
  ///
  /// It does only what the login needs, the way ``CappedDataLoader`` does it on URLSession: one
  /// request with `Connection: close`; the status alone for any answer but `200`; a `200`'s
  /// body (by `Content-Length`, chunked, or up to the close) never held past the cap; no
  /// redirects followed and no cookies, ever. The blocking socket calls run on a thread of
  /// their own and wait in slices of at most 50 ms, so a cancelled task — the API's deadline
  /// included — closes the socket within 50 ms. Each wait is also bounded by the request's
  /// `timeoutInterval`. Plain `http` only: TLS is libcurl's job, and `https` to an IPv6
  /// address fails with words that say so.
  enum IPv6HTTPTransport {
    /// The longest status line and headers accepted.
    static let maximumHeadSize = 64 * 1024

    /// Whether `url` is one this transport must carry: its host is an IPv6 address.
    static func handles(_ url: URL?) -> Bool {
      url?.host?.contains(":") == true
    }

    /// Sends `request` and returns its status and, for a `200`, its body.
    ///
    /// - Parameters:
    ///   - request: A request to an `http://[IPv6]` URL.
    ///   - limit: The most body bytes accepted.
    /// - Returns: The response and the body (empty unless the status is `200`).
    /// - Throws: ``CappedDataLoader/Failure``.
    static func load(
      _ request: URLRequest, limit: Int
    ) async throws(CappedDataLoader.Failure) -> (HTTPURLResponse, Data) {
      if Task.isCancelled { throw .cancelled }
      let connection = try Connection(request: request, limit: limit)
      let result = await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let thread = Thread { continuation.resume(returning: connection.run()) }
          thread.name = "LoginFeature.IPv6HTTPTransport"
          thread.start()
        }
      } onCancel: {
        connection.cancel()
      }
      return try result.get()
    }
  }

  /// The socket side of one exchange. Built on the caller's task, run on a thread of its own.
  private final class Connection: Sendable {
    typealias Failure = CappedDataLoader.Failure

    private let url: URL
    /// `[address]:port`, for messages.
    fileprivate let place: String
    private let address: sockaddr_in6
    private let requestBytes: [UInt8]
    private let limit: Int
    /// How long any single wait may last (the request's `timeoutInterval`).
    private let idleTimeout: Duration
    private let isCancelled = Guarded(false)

    init(request: URLRequest, limit: Int) throws(Failure) {
      guard let url = request.url, let host = url.host else { throw .url(.badURL) }
      let place = TransportFailureDescription.address(of: url)
      guard url.scheme?.lowercased() == "http" else {
        throw .described(
          "this device cannot make a secure connection to an IPv6 address (\(place)); "
            + "use the server's host name")
      }
      guard let address = Self.socketAddress(host: host, port: url.port ?? 80) else {
        throw .url(.badURL)
      }
      self.url = url
      self.place = place
      self.address = address
      self.requestBytes = Self.requestBytes(request, url: url)
      self.limit = limit
      let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
      self.idleTimeout = .milliseconds(Int64(min(timeout, 86_400) * 1_000))
    }

    func cancel() {
      isCancelled.withLock { $0 = true }
    }

    /// Connects, sends, reads; always closes the socket.
    func run() -> Result<(HTTPURLResponse, Data), Failure> {
      let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
      guard descriptor >= 0 else { return .failure(.url(.cannotConnectToHost)) }
      defer { close(descriptor) }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      var socket = Socket(descriptor: descriptor, connection: self)
      do throws(Failure) {
        try socket.connect(to: address)
        try socket.send(requestBytes)
        return .success(try readAnswer(from: &socket))
      } catch {
        return .failure(error)
      }
    }

    // MARK: - Reading the answer

    private func readAnswer(from socket: inout Socket) throws(Failure) -> (HTTPURLResponse, Data) {
      var head = try socket.readHead(maximum: IPv6HTTPTransport.maximumHeadSize)
      // Interim answers (100 Continue and the like) come before the real one.
      var interim = 0
      while (100...199).contains(head.status), head.status != 101, interim < 8 {
        interim += 1
        head = try socket.readHead(maximum: IPv6HTTPTransport.maximumHeadSize)
      }
      guard !(100...199).contains(head.status),
        let response = HTTPURLResponse(
          url: url, statusCode: head.status, httpVersion: head.version,
          headerFields: head.fields)
      else { throw .url(.badServerResponse) }
      guard head.status == 200 else { return (response, Data()) }

      if head.value(of: "Transfer-Encoding")?.lowercased().contains("chunked") == true {
        return (response, try socket.readChunkedBody(limit: limit))
      }
      if let declared = head.value(of: "Content-Length") {
        guard let length = Int(declared.trimmingCharacters(in: .whitespaces)), length >= 0
        else { throw .url(.badServerResponse) }
        guard length <= limit else { throw .tooLarge }
        return (response, try socket.readBody(length: length))
      }
      return (response, try socket.readBodyToClose(limit: limit))
    }

    // MARK: - Building the request

    private static func socketAddress(host: String, port: Int) -> sockaddr_in6? {
      guard (0...65_535).contains(port) else { return nil }
      var text = host
      if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
      var zone: String?
      if let percent = text.firstIndex(of: "%") {
        zone = String(text[text.index(after: percent)...]).removingPercentEncoding
        text = String(text[..<percent])
      }
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = in_port_t(UInt16(port)).bigEndian
      guard inet_pton(AF_INET6, text, &address.sin6_addr) == 1 else { return nil }
      if let zone {
        let index = UInt32(zone) ?? if_nametoindex(zone)
        guard index != 0 else { return nil }
        address.sin6_scope_id = index
      }
      return address
    }

    private static func requestBytes(_ request: URLRequest, url: URL) -> [UInt8] {
      let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
      var target = components?.percentEncodedPath ?? "/"
      if target.isEmpty { target = "/" }
      if let query = components?.percentEncodedQuery { target += "?" + query }
      let body = request.httpBody ?? Data()
      let host = url.host.map { $0.hasPrefix("[") ? $0 : "[\($0)]" } ?? ""
      var head = "\(request.httpMethod ?? "GET") \(target) HTTP/1.1\r\n"
      head += "Host: \(host)\(url.port.map { ":\($0)" } ?? "")\r\n"
      let reserved: Set<String> = ["host", "content-length", "connection", "cookie"]
      for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key })
      where !reserved.contains(name.lowercased()) {
        // Header text from a caller never gets to start a header or a body of its own.
        guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
        head += "\(name): \(value)\r\n"
      }
      head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
      return Array(head.utf8) + Array(body)
    }

    // MARK: - Waiting

    /// Waits until the socket is ready for `events`, looking for a cancel every 50 ms.
    fileprivate func wait(for events: Int16, on descriptor: Int32) throws(Failure) {
      let clock = ContinuousClock()
      let deadline = clock.now + idleTimeout
      while true {
        if isCancelled.withLock({ $0 }) { throw .cancelled }
        let remaining = clock.now.duration(to: deadline).components
        guard remaining.seconds > 0 || remaining.attoseconds > 0 else { throw .url(.timedOut) }
        let milliseconds = min(
          50, max(1, remaining.seconds * 1_000 + remaining.attoseconds / 1_000_000_000_000_000))
        var descriptorSet = pollfd(fd: descriptor, events: events, revents: 0)
        let ready = poll(&descriptorSet, 1, Int32(milliseconds))
        if ready > 0 { return }
        if ready < 0, errno != EINTR { throw .url(.networkConnectionLost) }
      }
    }
  }

  /// What an answer's status line and headers said.
  private struct Head {
    var version: String
    var status: Int
    var fields: [String: String]

    func value(of name: String) -> String? {
      fields.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// Parses `HTTP/1.1 200 OK\r\nName: value\r\n…` (without the blank line).
    init?(_ bytes: ArraySlice<UInt8>) {
      let text = String(decoding: bytes, as: UTF8.self)
      var lines = text.components(separatedBy: "\r\n")
      let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
      guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."),
        statusLine[1].count == 3, let status = Int(statusLine[1]), (100...599).contains(status)
      else { return nil }
      version = String(statusLine[0])
      self.status = status
      fields = [:]
      for line in lines where !line.isEmpty {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        if let earlier = fields[name] {
          // Two different lengths would let a proxy and the client disagree on the body.
          if name.lowercased() == "content-length", earlier != value { return nil }
          fields[name] = earlier + ", " + value
        } else {
          fields[name] = value
        }
      }
    }
  }

  /// A connected, non-blocking socket and the bytes read from it but not yet consumed.
  private struct Socket {
    typealias Failure = CappedDataLoader.Failure

    let descriptor: Int32
    let connection: Connection
    private var buffer: [UInt8] = []
    private var isAtEnd = false
    /// How much of the buffer is known to hold no marker, so a head dripped a byte at a time is
    /// not searched from its start again for every byte.
    private var searched = 0

    init(descriptor: Int32, connection: Connection) {
      self.descriptor = descriptor
      self.connection = connection
    }

    mutating func connect(to address: sockaddr_in6) throws(Failure) {
      var address = address
      let started = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
      guard started != 0 else { return }
      guard errno == EINPROGRESS else { throw connectFailure(errno) }
      try connection.wait(for: Int16(POLLOUT), on: descriptor)
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
        throw .url(.cannotConnectToHost)
      }
      if error != 0 { throw connectFailure(error) }
    }

    private func connectFailure(_ code: Int32) -> Failure {
      switch code {
      case ECONNREFUSED: .url(.cannotConnectToHost)
      case ETIMEDOUT: .url(.timedOut)
      case ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, EAFNOSUPPORT:
        .described("this device has no route to \(connection.place)")
      default: .url(.cannotConnectToHost)
      }
    }

    func send(_ bytes: [UInt8]) throws(Failure) {
      var sent = 0
      while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { raw in
          Glibc.send(descriptor, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
        }
        if count > 0 {
          sent += count
        } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
          try connection.wait(for: Int16(POLLOUT), on: descriptor)
        } else {
          throw .url(.networkConnectionLost)
        }
      }
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    private mutating func fill() throws(Failure) -> Bool {
      guard !isAtEnd else { return false }
      var chunk = [UInt8](repeating: 0, count: 16 * 1024)
      while true {
        let count = chunk.withUnsafeMutableBytes { raw in
          recv(descriptor, raw.baseAddress, raw.count, 0)
        }
        if count > 0 {
          buffer.append(contentsOf: chunk[..<count])
          return true
        }
        if count == 0 {
          isAtEnd = true
          return false
        }
        guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
          throw .url(.networkConnectionLost)
        }
        try connection.wait(for: Int16(POLLIN), on: descriptor)
      }
    }

    /// The index just past the first `\r\n\r\n` (or `\r\n` for `lineOnly`) in the buffer.
    private mutating func end(ofLine lineOnly: Bool) -> Int? {
      let marker: [UInt8] = lineOnly ? [13, 10] : [13, 10, 13, 10]
      guard buffer.count >= marker.count else { return nil }
      for start in max(0, searched - marker.count)...(buffer.count - marker.count)
      where buffer[start..<(start + marker.count)].elementsEqual(marker) {
        searched = 0
        return start + marker.count
      }
      searched = buffer.count
      return nil
    }

    mutating func readHead(maximum: Int) throws(Failure) -> Head {
      while true {
        if let end = end(ofLine: false) {
          guard end <= maximum, let head = Head(buffer[..<(end - 4)]) else {
            throw .url(.badServerResponse)
          }
          buffer.removeFirst(end)
          return head
        }
        guard buffer.count <= maximum else { throw .url(.badServerResponse) }
        guard try fill() else {
          throw buffer.isEmpty ? .url(.zeroByteResource) : .url(.badServerResponse)
        }
      }
    }

    mutating func readBody(length: Int) throws(Failure) -> Data {
      while buffer.count < length {
        guard try fill() else { throw .url(.networkConnectionLost) }
      }
      return Data(buffer[..<length])
    }

    mutating func readBodyToClose(limit: Int) throws(Failure) -> Data {
      while try fill() {
        guard buffer.count <= limit else { throw .tooLarge }
      }
      guard buffer.count <= limit else { throw .tooLarge }
      return Data(buffer)
    }

    mutating func readChunkedBody(limit: Int) throws(Failure) -> Data {
      var body = Data()
      while true {
        let line = try readLine()
        let sizeText = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        guard !sizeText.isEmpty, sizeText.count <= 16, let size = Int(sizeText, radix: 16),
          size >= 0
        else { throw .url(.badServerResponse) }
        if size == 0 {
          while try !readLine().isEmpty {}  // trailers, up to the blank line
          return body
        }
        guard size <= limit - body.count else { throw .tooLarge }
        while buffer.count < size + 2 {
          guard try fill() else { throw .url(.networkConnectionLost) }
        }
        guard buffer[size] == 13, buffer[size + 1] == 10 else { throw .url(.badServerResponse) }
        body.append(contentsOf: buffer[..<size])
        buffer.removeFirst(size + 2)
      }
    }

    /// One `\r\n`-terminated line of a chunked body, at most 4 KiB.
    private mutating func readLine() throws(Failure) -> String {
      while true {
        if let end = end(ofLine: true) {
          let line = String(decoding: buffer[..<(end - 2)], as: UTF8.self)
          buffer.removeFirst(end)
          return line
        }
        guard buffer.count <= 4_096 else { throw .url(.badServerResponse) }
        guard try fill() else { throw .url(.networkConnectionLost) }
      }
    }
  }
#endif
