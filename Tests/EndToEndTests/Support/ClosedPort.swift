import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP port on 127.0.0.1 that is bound but not listening, so a connection to it is refused.
///
/// Holding the socket (rather than picking a port and hoping it stays free) keeps any other
/// process from taking the port while the test runs.
final class ClosedPort {
  struct SocketError: Error, CustomStringConvertible {
    let description: String
  }

  let port: Int
  private let descriptor: Int32

  init() throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw SocketError(description: "socket() failed: \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      throw SocketError(description: "bind() on 127.0.0.1 failed: \(errno)")
    }
    self.descriptor = descriptor
    self.port = Int(UInt16(bigEndian: address.sin_port))
  }

  deinit {
    close(descriptor)
  }
}
