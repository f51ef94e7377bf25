import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether this machine has an IPv6 loopback (`::1`) a test server can bind, and a port on it
/// that refuses connections.
enum IPv6Loopback {
  /// Why `::1` cannot be used, or nil when it can: checked once, by binding a socket to it.
  static let unavailableReason: String? = {
    let descriptor = makeSocket()
    guard descriptor >= 0 else { return "socket(AF_INET6) failed with errno \(errno)" }
    defer { close(descriptor) }
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
      }
    }
    return bound == 0 ? nil : "bind(::1) failed with errno \(errno)"
  }()

  /// True when ``unavailableReason`` is nil.
  static var isAvailable: Bool { unavailableReason == nil }

  static func makeSocket() -> Int32 {
    #if canImport(Glibc)
      socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    #else
      socket(AF_INET6, SOCK_STREAM, 0)
    #endif
  }

  static func loopback(port: UInt16) -> sockaddr_in6 {
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = port.bigEndian
    address.sin6_addr = in6addr_loopback
    return address
  }
}

/// A TCP port on `::1` that is bound but not listening, so a connection to it is refused.
final class ClosedIPv6Port {
  let port: Int
  private let descriptor: Int32

  init() throws {
    let descriptor = IPv6Loopback.makeSocket()
    guard descriptor >= 0 else { throw ClosedPort.SocketError(description: "socket(): \(errno)") }
    var address = IPv6Loopback.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
      }
    }
    guard bound else {
      close(descriptor)
      throw ClosedPort.SocketError(description: "bind() on ::1 failed: \(errno)")
    }
    self.descriptor = descriptor
    self.port = Int(UInt16(bigEndian: address.sin6_port))
  }

  deinit {
    close(descriptor)
  }
}
