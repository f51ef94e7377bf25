import ActionLog

/// JSON text written by hand for the timeline page, safe to embed in an HTML `<script>`
/// element: its strings are `JSONString`'s with `.htmlScript` escaping, so no text
/// from a log — a username of `</script><img src=x onerror=…>` — can end the script element,
/// open a comment or start markup, and the page's source reads as it is.
package enum JSONText {
  /// `text` as a quoted, escaped JSON string.
  package static func string(_ text: String) -> String {
    JSONString.quoted(text, escaping: .htmlScript)
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
      output += string(text)
    }
    return output + "]"
  }
}
