/// The byte-level pieces of canonical JSON, written exactly as swift-foundation's `JSONWriter`
/// writes them: integers as their `description`, keys ordered by their UTF-8 bytes (strings are
/// `JSONString`'s, with `.encoder` escaping); and the package's own text of a `Duration`,
/// seconds, both ways (read from a ``JSONNumber``).
enum CanonicalBytes {
  /// Whether `key` sorts before `other` under `.sortedKeys` on this platform.
  ///
  /// swift-foundation compares the UTF-8 views lexicographically except on Darwin (which
  /// keeps the old `NSString` numeric, case-insensitive order), so `"B" < "_0" < "a" < "aa"`.
  static func precedes(_ key: String, _ other: String) -> Bool {
    let fast = key.utf8.withContiguousStorageIfAvailable { left in
      other.utf8.withContiguousStorageIfAvailable { right in
        left.lexicographicallyPrecedes(right)
      }
    }
    if let fast, let result = fast { return result }
    return key.utf8.lexicographicallyPrecedes(other.utf8)
  }

  /// Appends `value` in decimal, as its `description` reads.
  static func appendInteger<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
    guard Integer.bitWidth <= 64 else {
      bytes.append(contentsOf: String(value).utf8)
      return
    }
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var magnitude = UInt64(truncatingIfNeeded: value.magnitude)
    // 20 digits hold UInt64.max.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = 20
      repeat {
        start -= 1
        digits[start] = zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// Appends `duration` as a number of seconds, exact to the attosecond: a `-` for a negative
  /// duration, the whole seconds in decimal, then, when there is a fraction, a `.` and its
  /// digits (at most 18) without trailing zeros. Zero is `0`; 30 seconds `30`; 1.5 seconds
  /// `1.5`; one attosecond before zero `-0.000000000000000001`.
  static func appendSeconds(_ duration: Duration, to bytes: inout [UInt8]) {
    let attoseconds = duration.attoseconds
    if attoseconds < 0 { bytes.append(UInt8(ascii: "-")) }
    let (whole, fraction) = attoseconds.magnitude.quotientAndRemainder(
      dividingBy: attosecondsPerSecond)
    if let small = UInt64(exactly: whole) {
      appendInteger(small, to: &bytes)
    } else {
      appendInteger(whole, to: &bytes)
    }
    guard fraction > 0 else { return }
    bytes.append(UInt8(ascii: "."))
    var digits = UInt64(fraction)
    var count = fractionDigits
    while digits % 10 == 0 {
      digits /= 10
      count -= 1
    }
    var divisor: UInt64 = 1
    for _ in 1..<count { divisor *= 10 }
    while divisor > 0 {
      bytes.append(zero &+ UInt8(truncatingIfNeeded: digits / divisor % 10))
      divisor /= 10
    }
  }

  /// The duration `number`, a number of seconds, stands for: as ``appendSeconds(_:to:)``
  /// writes it, or in any other notation JSON allows (`30`, `3e1`, `30.000`, `-0`); `nil` for
  /// a number that is no whole number of attoseconds (`1e-19`) or is outside what a
  /// `Duration` holds (±170141183460469231731.687303715884105727 seconds).
  static func duration(seconds number: JSONNumber) -> Duration? {
    guard let attoseconds = number.wholeMagnitude(extraScale: fractionDigits) else { return nil }
    if number.isNegative {
      guard attoseconds <= Int128.min.magnitude else { return nil }
      return Duration(
        attoseconds: attoseconds == Int128.min.magnitude ? .min : 0 - Int128(attoseconds))
    }
    guard let value = Int128(exactly: attoseconds) else { return nil }
    return Duration(attoseconds: value)
  }

  private static let attosecondsPerSecond: UInt128 = 1_000_000_000_000_000_000
  private static let fractionDigits = 18

  private static let zero = UInt8(ascii: "0")
}
