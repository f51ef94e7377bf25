/// The byte-level pieces of canonical JSON, written exactly as swift-foundation's `JSONWriter`
/// writes them: strings escaped the same way, integers as their `description`, keys ordered
/// by their UTF-8 bytes.
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

  /// Appends `string` in quotes, escaped like `JSONEncoder`: `"` `\` `/` as `\"` `\\` `\/`;
  /// backspace, form feed, newline, return and tab as `\b` `\f` `\n` `\r` `\t`; other control
  /// characters as `\u00xx` (lowercase hex); everything else, non-ASCII included, as is.
  static func appendString(_ string: String, to bytes: inout [UInt8]) {
    bytes.append(quote)
    var string = string
    string.withUTF8 { utf8 in
      var mark = 0
      for index in utf8.indices {
        let byte = utf8[index]
        if byte >= 0x20, byte != quote, byte != backslash, byte != slash { continue }
        if mark < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
        }
        mark = index + 1
        bytes.append(backslash)
        switch byte {
        case quote, backslash, slash: bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
          bytes.append(contentsOf: [UInt8(ascii: "u"), zero, zero, hex(byte >> 4), hex(byte & 0xF)])
        }
      }
      if mark < utf8.count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
      }
    }
    bytes.append(quote)
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

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let slash = UInt8(ascii: "/")
  private static let zero = UInt8(ascii: "0")

  private static func hex(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? zero &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
  }
}
