/// JSON text written by hand, safe to embed in an HTML `<script>` element.
///
/// Besides what JSON requires, `<`, `>` and `&` are written as `\u` escapes, so no text from
/// a log — a username of `</script><img src=x onerror=…>` — can end the script element, open
/// a comment or start markup: the page's HTML parser sees no markup inside the element. Line
/// and paragraph separators, bidirectional overrides and other invisible characters are
/// escaped too, so the page's source reads as it is.
package enum JSONText {
  /// Appends `text` as a quoted, escaped JSON string.
  static func appendString(_ text: String, to output: inout String) {
    output.append("\"")
    var run = ""
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x22: run += "\\\""
      case 0x5C: run += "\\\\"
      case 0x0A: run += "\\n"
      case 0x0D: run += "\\r"
      case 0x09: run += "\\t"
      case 0..<0x20, 0x26, 0x3C, 0x3E, 0x7F:
        run += unicodeEscape(scalar.value)
      case 0x20..<0x7F: run.unicodeScalars.append(scalar)
      default:
        if scalar.isInvisible {
          for unit in String(scalar).utf16 { run += unicodeEscape(UInt32(unit)) }
        } else {
          run.unicodeScalars.append(scalar)
        }
      }
    }
    output += run
    output.append("\"")
  }

  /// `text` as a quoted, escaped JSON string.
  package static func string(_ text: String) -> String {
    var output = ""
    appendString(text, to: &output)
    return output
  }

  /// Appends `[a,b,c]`.
  static func appendArray(_ numbers: [Int], to output: inout String) {
    output.append("[")
    for (index, number) in numbers.enumerated() {
      if index > 0 { output.append(",") }
      output += String(number)
    }
    output.append("]")
  }

  /// A JSON array of strings.
  static func array(_ texts: [String]) -> String {
    var output = "["
    for (index, text) in texts.enumerated() {
      if index > 0 { output.append(",") }
      appendString(text, to: &output)
    }
    return output + "]"
  }

  private static let hexDigits = Array("0123456789abcdef")

  private static func unicodeEscape(_ value: UInt32) -> String {
    var escape = "\\u"
    for shift in stride(from: 12, through: 0, by: -4) {
      escape.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
    }
    return escape
  }
}

/// Text escaped for HTML element content and attribute values.
package enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
  package static func escaped(_ text: String) -> String {
    var output = ""
    for character in text {
      switch character {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.append(character)
      }
    }
    return output
  }
}
