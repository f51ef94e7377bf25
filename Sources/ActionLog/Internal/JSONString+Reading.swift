extension JSONString {
  /// The text a JSON string literal stands for, from the bytes between its quotes; `nil` when
  /// they are no string's: a control character, an unknown escape, a `\u` without four
  /// hexadecimal digits, half a surrogate pair, or bytes that are not UTF-8.
  ///
  /// The one reader of string literals: the package's decoder reads every string and key
  /// with it, and the strict check of a patch's grammar (``JSONValueBytes/isValid(_:maximumDepth:)``)
  /// checks every string with it. Any escape reads, not only those ``Escaping/encoder``
  /// writes: `\u00e9` is `é`, `\ud83d\ude00` is 😀.
  ///
  /// - Parameter contents: The literal without its quotes.
  static func value(ofContents contents: ArraySlice<UInt8>) -> String? {
    var text: [UInt8] = []
    text.reserveCapacity(contents.count)
    var index = contents.startIndex
    var run = index
    let end = contents.endIndex
    while index < end {
      let byte = contents[index]
      if byte >= 0x20, byte != backslash {
        index += 1
        continue
      }
      guard byte == backslash, index + 1 < end else { return nil }
      text.append(contentsOf: contents[run..<index])
      let escaped = contents[index + 1]
      index += 2
      switch escaped {
      case quote, backslash, slash: text.append(escaped)
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "u"):
        guard let unit = hexUnit(contents, at: index) else { return nil }
        index += 4
        var value = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
          guard index + 6 <= end, contents[index] == backslash,
            contents[index + 1] == UInt8(ascii: "u"),
            let low = hexUnit(contents, at: index + 2), (0xDC00...0xDFFF).contains(low)
          else { return nil }
          index += 6
          value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        case 0xDC00...0xDFFF:
          return nil
        default:
          break
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        UTF8.encode(scalar) { text.append($0) }
      default:
        return nil
      }
      run = index
    }
    text.append(contentsOf: contents[run..<end])
    return String(validating: text, as: UTF8.self)
  }

  /// The four hexadecimal digits at `index` as a UTF-16 code unit.
  private static func hexUnit(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt16? {
    guard index + 4 <= bytes.endIndex else { return nil }
    var unit: UInt16 = 0
    for byte in bytes[index..<(index + 4)] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      unit = unit << 4 | UInt16(digit)
    }
    return unit
  }
}

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")
private let slash = UInt8(ascii: "/")
