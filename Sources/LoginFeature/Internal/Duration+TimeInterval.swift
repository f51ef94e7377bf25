import Foundation

extension Duration {
  /// The duration in seconds, as `Date` arithmetic takes it: the one conversion the login
  /// feature, its demo backend, its fakes and the demo use to turn clock time into wall time.
  package var timeInterval: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
