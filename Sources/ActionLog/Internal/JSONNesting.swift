/// Follows JSON bytes one at a time for their nesting: brackets counted outside strings,
/// escapes inside them skipped. Nothing is parsed or checked; a decoder does that.
///
/// The reader's error for a line nested too deep and its step-line shortcut both walk a line
/// this way (and the format's tests, for a line's keys).
package struct JSONNesting {
  /// Nothing taken yet.
  package init() {}

  /// Open brackets (`{` or `[`) not closed yet.
  package private(set) var depth = 0
  /// Whether the last byte taken is inside a string (its opening quote included).
  package private(set) var isInString = false
  private var isEscaped = false

  /// Takes the next byte.
  ///
  /// - Returns: `1` for a bracket that opens, `-1` for one that closes, `0` for anything else.
  @discardableResult
  package mutating func take(_ byte: UInt8) -> Int {
    if isInString {
      if isEscaped {
        isEscaped = false
      } else if byte == UInt8(ascii: "\\") {
        isEscaped = true
      } else if byte == UInt8(ascii: "\"") {
        isInString = false
      }
      return 0
    }
    switch byte {
    case UInt8(ascii: "\""):
      isInString = true
      return 0
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      depth += 1
      return 1
    case UInt8(ascii: "]"), UInt8(ascii: "}"):
      depth -= 1
      return -1
    default:
      return 0
    }
  }
}
