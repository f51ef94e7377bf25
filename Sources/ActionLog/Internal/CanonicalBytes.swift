/// The byte-level pieces of canonical JSON, written exactly as swift-foundation's `JSONWriter`
/// writes them: integers as their `description`, keys ordered by their UTF-8 bytes (strings are
/// `JSONString`'s, with `.encoder` escaping); and the package's own text of a `Duration`,
/// seconds, both ways.
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

  /// The duration that `text`, a number of seconds as ``appendSeconds(_:to:)`` writes it,
  /// stands for; `nil` for anything else: an exponent, more than 18 fraction digits (less
  /// than an attosecond), or a value outside what a `Duration` holds.
  ///
  /// Trailing zeros in the fraction and a `-0` are accepted, so the text a `Decimal` gives
  /// back reads too.
  static func duration(seconds text: String) -> Duration? {
    var utf8 = Substring(text).utf8[...]
    let isNegative = utf8.first == UInt8(ascii: "-")
    if isNegative { utf8 = utf8.dropFirst() }
    let point = utf8.firstIndex(of: UInt8(ascii: "."))
    let wholeDigits = utf8[..<(point ?? utf8.endIndex)]
    let fractionText = point.map { utf8[utf8.index(after: $0)...] }
    guard !wholeDigits.isEmpty, fractionText.map({ !$0.isEmpty }) ?? true,
      (fractionText?.count ?? 0) <= fractionDigits
    else { return nil }
    var magnitude: UInt128 = 0
    for byte in wholeDigits {
      guard let digit = decimalDigit(byte) else { return nil }
      let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      magnitude = shifted + digit
    }
    let (seconds, overflow) = magnitude.multipliedReportingOverflow(by: attosecondsPerSecond)
    guard !overflow else { return nil }
    var fraction: UInt128 = 0
    var scale = attosecondsPerSecond
    for byte in fractionText ?? utf8[utf8.endIndex...] {
      guard let digit = decimalDigit(byte) else { return nil }
      scale /= 10
      fraction += digit * scale
    }
    let (total, carry) = seconds.addingReportingOverflow(fraction)
    guard !carry else { return nil }
    if isNegative {
      guard total <= Int128.min.magnitude else { return nil }
      return Duration(attoseconds: total == Int128.min.magnitude ? .min : -Int128(total))
    }
    guard let attoseconds = Int128(exactly: total) else { return nil }
    return Duration(attoseconds: attoseconds)
  }

  private static let attosecondsPerSecond: UInt128 = 1_000_000_000_000_000_000
  private static let fractionDigits = 18

  private static func decimalDigit(_ byte: UInt8) -> UInt128? {
    (zero...UInt8(ascii: "9")).contains(byte) ? UInt128(byte - zero) : nil
  }

  private static let zero = UInt8(ascii: "0")
}
