/// Whether this machine has an IPv6 loopback (`::1`) a test server can bind.
enum IPv6Loopback {
  /// Why `::1` cannot be used, or nil when it can: checked once, by binding a
  /// ``ClosedPort`` on it.
  static let unavailableReason: String? = {
    do {
      _ = try ClosedPort(host: "::1")
      return nil
    } catch {
      return "\(error)"
    }
  }()

  /// True when ``unavailableReason`` is nil.
  static var isAvailable: Bool { unavailableReason == nil }
}
