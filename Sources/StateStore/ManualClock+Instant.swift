extension ManualClock {
  /// A point in a manual clock's time: the duration since the clock's start.
  ///
  /// Instants print as their offset, so a failure message or a screen can show where the clock
  /// stands:
  ///
  /// ```swift
  /// ManualClock.Instant(offset: .seconds(30)).description   // "+30.0 seconds"
  /// ```
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates the instant `offset` after the clock's start.
    ///
    /// - Parameter offset: The time since the start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: How much later.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    ///
    /// - Parameter other: The later instant.
    /// - Returns: `other - self`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: Another instant.
    /// - Returns: `true` when `lhs` is earlier.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The instant `rhs` after `lhs`.
    ///
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: A duration.
    /// - Returns: `lhs.advanced(by: rhs)`.
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
      lhs.advanced(by: rhs)
    }

    /// `+` and the offset, for example `+30.0 seconds`.
    public var description: String { "+\(offset)" }
  }
}
