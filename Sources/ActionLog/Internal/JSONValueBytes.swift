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
  /// than any decoder, so what passes here reads as JSON everywhere. The structure is the
  /// decoder's ``JSONTape`` (in its strict grammar), and every string and number is read as
  /// the decoder reads it.
  package static func isValid(_ bytes: ArraySlice<UInt8>, maximumDepth: Int) -> Bool {
    let tape: JSONTape
    do {
      tape = try JSONTape(bytes, grammar: .canonical, maximumDepth: maximumDepth)
    } catch {
      return false
    }
    for index in tape.tokens.indices {
      switch tape.tokens[index].kind {
      case .string where tape.tokens[index].flags != 0:
        guard JSONString.value(ofContents: tape.text(of: index)) != nil else { return false }
      case .number:
        guard JSONNumber(tape.text(of: index)) != nil else { return false }
      default:
        continue
      }
    }
    return true
  }
}
