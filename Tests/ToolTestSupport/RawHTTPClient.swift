import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client for `replay --serve` that sends exactly the bytes a test writes (a wrong `Host`, a
/// huge header, one byte at a time), on `127.0.0.1`, each read bounded in time. Blocking calls
/// run on threads of their own, never on the cooperative pool.
package enum RawHTTPClient {
  /// What came back: `nil` status when the server closed without answering.
  package struct Answer: Sendable, CustomStringConvertible {
    package var status: Int?
    package var headers: [String: String]
    package var body: String

    package var description: String { "status \(status.map(String.init) ?? "none"): \(body)" }
  }

  /// A connection that failed to open or to be used.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// An open connection to `127.0.0.1:port`.
  package final class Connection: Sendable {
    package let descriptor: Int32

    package init(port: UInt16) throws {
      #if canImport(Darwin)
        let kind = SOCK_STREAM
      #else
        let kind = Int32(SOCK_STREAM.rawValue)
      #endif
      let descriptor = socket(AF_INET, kind, 0)
      guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
      #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(
          descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      #else
        signal(SIGPIPE, SIG_IGN)
      #endif
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        let code = errno
        close(descriptor)
        throw Failure(description: "connect to 127.0.0.1:\(port): errno \(code)")
      }
      self.descriptor = descriptor
      var wait = timeval()
      wait.tv_sec = 5
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends `bytes`; `false` when the server no longer takes them (closed or reset).
    @discardableResult
    package func send(_ bytes: [UInt8]) -> Bool {
      var offset = 0
      while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes {
          write(descriptor, $0.baseAddress, $0.count)
        }
        if sent < 0, errno == EINTR { continue }
        guard sent > 0 else { return false }
        offset += sent
      }
      return true
    }

    /// Whether the server closed the connection within `timeout` without sending anything.
    package func isClosedWithoutAnswer(within timeout: Duration) -> Bool {
      var wait = timeval()
      let (seconds, attoseconds) = timeout.components
      wait.tv_sec = .init(seconds)
      wait.tv_usec = .init(attoseconds / 1_000_000_000_000)
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
      var byte: UInt8 = 0
      let count = recv(descriptor, &byte, 1, 0)
      if count == 0 { return true }
      return count < 0 && errno == ECONNRESET
    }

    /// Reads to the end (bounded by the 5-second read timeout) and parses the answer.
    package func answer() -> Answer {
      var received: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        received += buffer[0..<count]
      }
      return RawHTTPClient.parse(received)
    }
  }

  static func parse(_ bytes: [UInt8]) -> Answer {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else {
      return Answer(status: nil, headers: [:], body: text)
    }
    let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
    let status = lines.first.flatMap { line in
      line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return Answer(status: status, headers: headers, body: String(text[split.upperBound...]))
  }

  /// Sends `GET target` with `headers` (a `Host` of `127.0.0.1:port` unless given) and reads
  /// the answer, on a thread of its own.
  package static func get(
    port: UInt16, _ target: String, headers: [(String, String)]? = nil
  ) async throws -> Answer {
    let fields = headers ?? [("Host", "127.0.0.1:\(port)")]
    let head =
      "GET \(target) HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
    return try await request(port: port, Array(head.utf8))
  }

  /// Sends `bytes` as they are and reads the answer, on a thread of its own.
  package static func request(port: UInt16, _ bytes: [UInt8]) async throws -> Answer {
    try await onThread {
      let connection = try Connection(port: port)
      connection.send(bytes)
      return connection.answer()
    }
  }

  /// Runs blocking `body` on a new thread.
  package static func onThread<T: Sendable>(
    _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
  }
}
