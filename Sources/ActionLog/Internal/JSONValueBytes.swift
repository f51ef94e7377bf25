import Foundation

/// Finds the values of one JSON value without decoding it: where a value ends, the members of
/// an object, the elements of an array, as positions in the bytes.
///
/// Made for canonical JSON (no whitespace) and for bytes read from a file, so every position
/// is checked: anything unexpected gives `nil`, never a trap. Nothing is checked beyond the
/// structure; a decoder checks the values.
package enum JSONValueBytes {
  static let comma = UInt8(ascii: ",")
  static let colon = UInt8(ascii: ":")
  static let quote = UInt8(ascii: "\"")
  static let backslash = UInt8(ascii: "\\")
  static let openBrace = UInt8(ascii: "{")
  static let closeBrace = UInt8(ascii: "}")
  static let openBracket = UInt8(ascii: "[")
  static let closeBracket = UInt8(ascii: "]")

  /// A member of an object: its key as written (quotes and escapes included) and its value.
  struct Member {
    var key: Range<Int>
    var value: Range<Int>
  }

  /// Where the value that starts at `start` ends (exclusive), not looking past `limit`.
  static func end(ofValueAt start: Int, in bytes: ArraySlice<UInt8>, limit: Int) -> Int? {
    guard start >= bytes.startIndex, start < limit, limit <= bytes.endIndex else { return nil }
    switch bytes[start] {
    case quote:
      var index = start + 1
      while index < limit {
        switch bytes[index] {
        case backslash: index += 2
        case quote: return index + 1
        default: index += 1
        }
      }
      return nil
    case openBrace, openBracket:
      var nesting = JSONNesting()
      var index = start
      while index < limit {
        nesting.take(bytes[index])
        index += 1
        if nesting.depth == 0, !nesting.isInString { return index }
      }
      return nil
    case comma, colon, closeBrace, closeBracket:
      return nil
    default:
      // A number, `true`, `false` or `null`: up to the next separator.
      var index = start
      while index < limit {
        switch bytes[index] {
        case comma, closeBrace, closeBracket: return index
        default: index += 1
        }
      }
      return index
    }
  }

  /// The members of the object in `range`, in their order; `nil` when it is not an object.
  static func members(of range: Range<Int>, in bytes: ArraySlice<UInt8>) -> [Member]? {
    guard range.count >= 2, bytes[range.lowerBound] == openBrace,
      bytes[range.upperBound - 1] == closeBrace
    else { return nil }
    let last = range.upperBound - 1
    var members: [Member] = []
    var index = range.lowerBound + 1
    if index == last { return members }
    while true {
      guard bytes[index] == quote, let keyEnd = end(ofValueAt: index, in: bytes, limit: last),
        keyEnd < last, bytes[keyEnd] == colon,
        let valueEnd = end(ofValueAt: keyEnd + 1, in: bytes, limit: last)
      else { return nil }
      members.append(Member(key: index..<keyEnd, value: (keyEnd + 1)..<valueEnd))
      if valueEnd == last { return members }
      guard bytes[valueEnd] == comma, valueEnd + 1 < last else { return nil }
      index = valueEnd + 1
    }
  }

  /// The elements of the array in `range`, in their order; `nil` when it is not an array.
  static func elements(of range: Range<Int>, in bytes: ArraySlice<UInt8>) -> [Range<Int>]? {
    guard range.count >= 2, bytes[range.lowerBound] == openBracket,
      bytes[range.upperBound - 1] == closeBracket
    else { return nil }
    let last = range.upperBound - 1
    var elements: [Range<Int>] = []
    var index = range.lowerBound + 1
    if index == last { return elements }
    while true {
      guard let valueEnd = end(ofValueAt: index, in: bytes, limit: last) else { return nil }
      elements.append(index..<valueEnd)
      if valueEnd == last { return elements }
      guard bytes[valueEnd] == comma, valueEnd + 1 < last else { return nil }
      index = valueEnd + 1
    }
  }

  /// The value of the member `key` of the object `line` holds, copied; `nil` when there is
  /// none.
  static func member(_ key: String, of line: Data) -> [UInt8]? {
    let bytes = Array(line)[...]
    return members(of: bytes.indices, in: bytes).flatMap { value(of: key, among: $0, in: bytes) }
      .map { Array(bytes[$0]) }
  }

  /// Where the value of the member `key` (its name, unquoted) is among `members`.
  static func value(of key: String, among members: [Member], in bytes: ArraySlice<UInt8>)
    -> Range<Int>?
  {
    let quoted = Array("\"\(key)\"".utf8)
    return members.first { bytes[$0.key].elementsEqual(quoted) }?.value
  }

  /// Whether `bytes` hold exactly one JSON value by RFC 8259's grammar, without whitespace (as
  /// canonical JSON is written), in valid UTF-8, nested at most `maximumDepth` deep: stricter
  /// than any decoder, so what passes here reads as JSON everywhere.
  package static func isValid(_ bytes: ArraySlice<UInt8>, maximumDepth: Int) -> Bool {
    guard String(validating: bytes, as: UTF8.self) != nil else { return false }
    var recognizer = Recognizer(bytes: bytes, index: bytes.startIndex, maximumDepth: maximumDepth)
    return recognizer.value(depth: 0) && recognizer.index == bytes.endIndex
  }

  private struct Recognizer {
    let bytes: ArraySlice<UInt8>
    var index: Int
    let maximumDepth: Int

    private var next: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
      guard next == byte else { return false }
      index += 1
      return true
    }

    mutating func value(depth: Int) -> Bool {
      switch next {
      case openBrace?:
        guard depth < maximumDepth else { return false }
        index += 1
        if take(closeBrace) { return true }
        repeat {
          guard string(), take(colon), value(depth: depth + 1) else { return false }
        } while take(comma)
        return take(closeBrace)
      case openBracket?:
        guard depth < maximumDepth else { return false }
        index += 1
        if take(closeBracket) { return true }
        repeat {
          guard value(depth: depth + 1) else { return false }
        } while take(comma)
        return take(closeBracket)
      case quote?:
        return string()
      case UInt8(ascii: "t")?: return literal("true")
      case UInt8(ascii: "f")?: return literal("false")
      case UInt8(ascii: "n")?: return literal("null")
      default: return number()
      }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
      for byte in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
        guard take(byte) else { return false }
      }
      return true
    }

    private mutating func digits() -> Bool {
      let start = index
      while let byte = next, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
      return index > start
    }

    private mutating func number() -> Bool {
      _ = take(UInt8(ascii: "-"))
      if !take(UInt8(ascii: "0")) {
        guard let byte = next, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9") else {
          return false
        }
        _ = digits()
      }
      if take(UInt8(ascii: ".")), !digits() { return false }
      if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
        if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
        guard digits() else { return false }
      }
      return true
    }

    private mutating func string() -> Bool {
      guard take(quote) else { return false }
      while let byte = next {
        index += 1
        switch byte {
        case quote:
          return true
        case 0..<0x20:
          return false
        case backslash:
          guard let escaped = next else { return false }
          index += 1
          switch escaped {
          case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            continue
          case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return false }
            if (0xDC00...0xDFFF).contains(unit) { return false }
            if (0xD800...0xDBFF).contains(unit) {
              guard take(backslash), take(UInt8(ascii: "u")), let low = hexUnit(),
                (0xDC00...0xDFFF).contains(low)
              else { return false }
            }
          default:
            return false
          }
        default:
          continue
        }
      }
      return false
    }

    private mutating func hexUnit() -> UInt16? {
      var unit: UInt16 = 0
      for _ in 0..<4 {
        guard let byte = next, let digit = Self.hexDigit(byte) else { return nil }
        unit = unit << 4 | UInt16(digit)
        index += 1
      }
      return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
      default: nil
      }
    }
  }
}
