import Foundation

/// Whether this machine has an IPv6 loopback (`::1`) a test server can bind, and whether the
/// run requires one.
///
/// `HTTPLoginAPIIPv6Tests` skips itself without `::1`. With
/// `LOGINSTORE_IPV6_TESTS=required` (`.ci/run` sets it) a missing loopback is a failure
/// instead: see `IPv6LoopbackTests`.
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

  /// The environment variable that makes the IPv6 tests required.
  static let variable = "LOGINSTORE_IPV6_TESTS"
  /// The variable's value, if set.
  static var setting: String? { ProcessInfo.processInfo.environment[variable] }
  /// Whether a missing IPv6 loopback must fail the run rather than skip the IPv6 tests.
  static var isRequired: Bool { setting == "required" }
}
