import Foundation

/// A JSON number's text, read exactly: its sign, its significant digits and the power of ten
/// they are scaled by. `1.50e2`, `150` and `150.0` are all 15 × 10¹.
///
/// The one reader of number literals: the package's decoder reads every integer, float,
/// `Decimal` and `Duration` from it, and the strict check of a patch's grammar
/// (``JSONValueBytes/isValid(_:maximumDepth:)``) checks every number with it. Every number
/// RFC 8259's grammar allows reads, in any notation: an integer written `1e3` or `1.0` is an
/// integer, as `JSONDecoder` reads it.
struct JSONNumber {
  let text: ArraySlice<UInt8>
  let isNegative: Bool
  /// The digits before the point, and after it (maybe none).
  private let wholeDigits: Range<Int>
  private let fractionDigits: Range<Int>
  /// Whether the text is digits alone (after a sign), as most numbers are: no fraction, no
  /// exponent.
  let isPlainInteger: Bool
  /// How many significant digits there are: without leading and trailing zeros; 0 for zero.
  let significantDigitCount: Int
  /// The power of ten the significant digits are scaled by.
  let scale: Int
  /// Where the significant digits are, counted over the whole and the fraction digits.
  private let firstSignificant: Int

  /// Reads `text` by RFC 8259's grammar; `nil` for anything else (`01`, `1.`, `.5`, `+1`,
  /// `1e`, `0x1`, …).
  init?(_ text: ArraySlice<UInt8>) {
    self.text = text
    var index = text.startIndex
    let end = text.endIndex
    func digits() -> Range<Int> {
      let start = index
      while index < end, text[index] >= zero, text[index] <= nine { index += 1 }
      return start..<index
    }
    isNegative = index < end && text[index] == UInt8(ascii: "-")
    if isNegative { index += 1 }
    guard index < end, text[index] >= zero, text[index] <= nine else { return nil }
    let whole: Range<Int>
    if text[index] == zero {
      whole = index..<(index + 1)
      index += 1
    } else {
      whole = digits()
    }
    var fraction = index..<index
    if index < end, text[index] == UInt8(ascii: ".") {
      index += 1
      fraction = digits()
      guard !fraction.isEmpty else { return nil }
    }
    var exponent = 0
    var hasExponent = false
    if index < end, text[index] | 0x20 == UInt8(ascii: "e") {
      hasExponent = true
      index += 1
      let isNegativeExponent = index < end && text[index] == UInt8(ascii: "-")
      if index < end, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
        index += 1
      }
      let exponentDigits = digits()
      guard !exponentDigits.isEmpty else { return nil }
      // Past a billion, every exponent means the same: no value any type holds.
      for byte in text[exponentDigits] where exponent < 1_000_000_000 {
        exponent = exponent * 10 + Int(byte - zero)
      }
      if isNegativeExponent { exponent = -exponent }
    }
    guard index == end else { return nil }

    let count = whole.count + fraction.count
    func digit(_ offset: Int) -> UInt8 {
      offset < whole.count
        ? text[whole.lowerBound + offset] : text[fraction.lowerBound + offset - whole.count]
    }
    var leading = 0
    while leading < count, digit(leading) == zero { leading += 1 }
    var trailing = 0
    while trailing < count - leading, digit(count - 1 - trailing) == zero { trailing += 1 }
    let significant = count - leading - trailing
    wholeDigits = whole
    fractionDigits = fraction
    isPlainInteger = fraction.isEmpty && !hasExponent
    firstSignificant = leading
    significantDigitCount = significant
    scale = significant == 0 ? 0 : exponent - fraction.count + trailing
  }

  var isZero: Bool { significantDigitCount == 0 }

  /// The number in `range` of `bytes` when it is an integer as canonical JSON writes most: an
  /// optional `-`, then at most 18 digits, without leading zeros; `nil` for anything else
  /// (which ``init(_:)`` reads). The decoder's shortcut: no other pass over the digits.
  static func smallInteger(_ range: Range<Int>, in bytes: ArraySlice<UInt8>) -> Int64? {
    var index = range.lowerBound
    let isNegative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
    if isNegative { index += 1 }
    let digits = range.upperBound - index
    guard digits > 0, digits <= 18, bytes[index] != zero || digits == 1 else { return nil }
    var value: Int64 = 0
    while index < range.upperBound {
      let digit = bytes[index] &- zero
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int64(digit)
      index += 1
    }
    return isNegative ? -value : value
  }

  /// The significant digits as a whole number; `nil` past `UInt128`.
  func significand() -> UInt128? {
    guard significantDigitCount <= 39 else { return nil }
    var value: UInt128 = 0
    for offset in firstSignificant..<(firstSignificant + significantDigitCount) {
      let byte =
        offset < wholeDigits.count
        ? text[wholeDigits.lowerBound + offset]
        : text[fractionDigits.lowerBound + offset - wholeDigits.count]
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      value = shifted + UInt128(byte - zero)
    }
    return value
  }

  /// The magnitude as a whole number: the significand times 10^`scale + extraScale`; `nil`
  /// when that is no whole number or is past `UInt128`.
  func wholeMagnitude(extraScale: Int = 0) -> UInt128? {
    if isZero { return 0 }
    let power = scale + extraScale
    guard power >= 0, significantDigitCount + power <= 39, var value = significand() else {
      return nil
    }
    for _ in 0..<power {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      value = shifted
    }
    return value
  }

  // MARK: - As the types that read it

  /// The number as an `Integer`: a whole number `Integer` holds, however written (`1e3`,
  /// `-0`, `2.50e1`); `nil` otherwise.
  ///
  /// Like `JSONDecoder`, it also takes a number whose nearest `Double` is a whole number
  /// below 2⁵³ (`1.0000000000000001` is 1). Unlike it, a fraction past 2⁵³ is refused, not
  /// cut off (`JSONDecoder` reads `123456789012345678.9` as `123456789012345678`).
  func integer<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
    if isPlainInteger, wholeDigits.count <= 19 {
      var magnitude: UInt64 = 0
      for byte in text[wholeDigits] { magnitude = magnitude &* 10 &+ UInt64(byte - zero) }
      return Self.integer(magnitude: magnitude, isNegative: isNegative)
    }
    if let magnitude = wholeMagnitude() {
      return Self.integer(magnitude: magnitude, isNegative: isNegative)
    }
    guard scale < 0, let double = nearestDouble(), double.magnitude < 0x1p53 else { return nil }
    return Integer(exactly: double)
  }

  private static func integer<Integer: FixedWidthInteger, Magnitude: UnsignedInteger>(
    magnitude: Magnitude, isNegative: Bool
  ) -> Integer? {
    guard isNegative else { return Integer(exactly: magnitude) }
    if magnitude == 0 { return 0 }
    guard Integer.isSigned, magnitude <= Integer.min.magnitude else { return nil }
    return magnitude == Integer.min.magnitude ? .min : 0 - Integer(magnitude)
  }

  /// The nearest `Double`; `nil` when the number is past `Double`'s range, or so small it
  /// would read as zero (as `JSONDecoder` refuses them).
  func double() -> Double? {
    if isZero { return isNegative ? -0.0 : 0.0 }
    if significantDigitCount <= 15, (-22...22).contains(scale), let significand = significand() {
      // Both operands exact: the one rounding is the operation's (Clinger's fast path).
      let value = Double(significand)
      let result = scale < 0 ? value / Self.powersOfTen[-scale] : value * Self.powersOfTen[scale]
      return isNegative ? -result : result
    }
    guard let value = nearestDouble(), value.isFinite, value != 0 else { return nil }
    return value
  }

  /// The nearest `Double` as `strtod` finds it, infinite or zero past the range.
  private func nearestDouble() -> Double? { Double(String(decoding: text, as: UTF8.self)) }

  /// The nearest `Float`; `nil` as ``double()`` gives `nil`, for `Float`'s range.
  func float() -> Float? {
    if isZero { return isNegative ? -0.0 : 0.0 }
    if significantDigitCount <= 7, (-10...10).contains(scale), let significand = significand() {
      let value = Float(significand)
      let power = Float(Self.powersOfTen[abs(scale)])
      let result = scale < 0 ? value / power : value * power
      return isNegative ? -result : result
    }
    guard let value = Float(String(decoding: text, as: UTF8.self)), value.isFinite, value != 0
    else { return nil }
    return value
  }

  /// The number as a `Decimal`, as `Decimal(string:)` reads it; `nil` past its range.
  func decimal() -> Decimal? {
    Decimal(string: String(decoding: text, as: UTF8.self))
  }

  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]
}

private let zero = UInt8(ascii: "0")
private let nine = UInt8(ascii: "9")
