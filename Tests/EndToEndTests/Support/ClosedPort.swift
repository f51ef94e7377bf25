import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP port on an IPv4 loopback address (`127.0.0.1`) that is bound but not listening, so a
/// connection to it is refused.
///
/// Holding the socket (rather than picking a port and hoping it stays free) keeps any other
/// process from taking the port while the test runs.
final class ClosedPort {
  struct SocketError: Error, CustomStringConvertible {
    let description: String
  }

  let port: Int
  private let descriptor: Int32

  /// Binds a port the system picks on `host`, an IPv4 address.
  ///
  /// - Throws: ``SocketError`` when `host` is not an IPv4 address, or no socket can be made or
  ///   bound there.
  init(host: String = "127.0.0.1") throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else {
      throw SocketError(description: "socket(AF_INET) failed with errno \(errno)")
    }
    var port: UInt16?
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    if inet_pton(AF_INET, host, &address.sin_addr) == 1, Self.bindAnyPort(descriptor, &address) {
      port = UInt16(bigEndian: address.sin_port)
    }
    guard let port else {
      let error = errno
      close(descriptor)
      throw SocketError(description: "bind(\(host)) failed with errno \(error)")
    }
    self.descriptor = descriptor
    self.port = Int(port)
  }

  deinit {
    close(descriptor)
  }

  /// Binds `descriptor` to `address` with port 0, and reads back the port the system chose.
  private static func bindAnyPort<Address>(_ descriptor: Int32, _ address: inout Address) -> Bool {
    var length = socklen_t(MemoryLayout<Address>.size)
    return withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
  }
}
