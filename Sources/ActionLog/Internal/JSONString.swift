/// The package's one writer of JSON string literals: the action log's canonical form, the
/// timeline page's data and `store-bench --json` all write their strings here.
package enum JSONString {
  /// What is escaped besides what JSON requires (`"`, `\` and the control characters).
  package enum Escaping: Sendable {
    /// Exactly as swift-foundation's `JSONEncoder` writes a string, which the log's canonical
    /// form is: `"` `\` `/` as `\"` `\\` `\/`; backspace, form feed, line feed, return and tab
    /// as `\b` `\f` `\n` `\r` `\t`; other control characters as `\u00xx`; everything else,
    /// non-ASCII included, as is.
    case encoder
    /// Safe to embed in an HTML `<script>` element, and readable in the page's source: `"` and
    /// `\` as `\"` `\\`; line feed, return and tab as `\n` `\r` `\t`; other control characters,
    /// `DEL`, `<`, `>`, `&` and every invisible character (line and paragraph separators,
    /// bidirectional overrides, zero-width ones; see `isInvisible`) as `\uxxxx`, a character
    /// outside the Basic Multilingual Plane as its two UTF-16 halves. So no text from a log —
    /// a username of `</script><img src=x onerror=…>` — can end the element, open a comment
    /// or start markup.
    case htmlScript
  }

  /// Appends `string` to `bytes` as a quoted, escaped JSON string.
  ///
  /// - Parameters:
  ///   - string: Any text.
  ///   - escaping: What is escaped besides what JSON requires.
  ///   - bytes: Where its UTF-8 goes.
  package static func append(_ string: String, escaping: Escaping, to bytes: inout [UInt8]) {
    // One loop, compiled once per escaping: the log's writer is a hot path, and a choice
    // made per byte costs it.
    switch escaping {
    case .encoder: appendEscaped(string, .encoder, to: &bytes)
    case .htmlScript: appendEscaped(string, .htmlScript, to: &bytes)
    }
  }

  @inline(__always)
  private static func appendEscaped(
    _ string: String, _ escaping: Escaping, to bytes: inout [UInt8]
  ) {
    bytes.append(quote)
    var string = string
    string.withUTF8 { utf8 in
      // Runs that need no escape are copied whole: most strings are one run.
      var mark = 0
      for index in utf8.indices {
        let byte = utf8[index]
        switch escaping {
        case .encoder:
          if byte >= 0x20, byte != quote, byte != backslash, byte != slash { continue }
        case .htmlScript:
          if byte >= 0x80 {
            // The first byte of a character outside ASCII: escaped only when invisible.
            guard byte >= 0xC0 else { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            var value = UInt32(byte & (0x7F >> length))
            for offset in 1..<length { value = value << 6 | UInt32(utf8[index + offset] & 0x3F) }
            guard let scalar = Unicode.Scalar(value), scalar.isInvisible else { continue }
            if mark < index {
              bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
            }
            mark = index + length
            for unit in scalar.utf16 {
              bytes.append(backslash)
              bytes.append(contentsOf: [
                UInt8(ascii: "u"), hex(unit >> 12), hex(unit >> 8), hex(unit >> 4), hex(unit),
              ])
            }
            continue
          }
          if byte >= 0x20, byte < 0x7F, byte != quote, byte != backslash, byte != lessThan,
            byte != greaterThan, byte != ampersand
          {
            continue
          }
        }
        if mark < index {
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<index]))
        }
        mark = index + 1
        bytes.append(backslash)
        switch byte {
        case quote, backslash, slash: bytes.append(byte)
        case 0x08 where escaping == .encoder: bytes.append(UInt8(ascii: "b"))
        case 0x0C where escaping == .encoder: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
          bytes.append(contentsOf: [UInt8(ascii: "u"), zero, zero, hex(byte >> 4), hex(byte)])
        }
      }
      if mark < utf8.count {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...]))
      }
    }
    bytes.append(quote)
  }

  /// `string` as a quoted, escaped JSON string.
  ///
  /// - Parameters:
  ///   - string: Any text.
  ///   - escaping: What is escaped besides what JSON requires.
  /// - Returns: The JSON string, quotes included.
  package static func quoted(_ string: String, escaping: Escaping) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(string.utf8.count + 2)
    append(string, escaping: escaping, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The lowercase hexadecimal digit of `value`'s last four bits.
  private static func hex<Value: BinaryInteger>(_ value: Value) -> UInt8 {
    let nibble = UInt8(truncatingIfNeeded: value) & 0xF
    return nibble < 10 ? zero &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
  }

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let slash = UInt8(ascii: "/")
  private static let zero = UInt8(ascii: "0")
  private static let lessThan = UInt8(ascii: "<")
  private static let greaterThan = UInt8(ascii: ">")
  private static let ampersand = UInt8(ascii: "&")
}
