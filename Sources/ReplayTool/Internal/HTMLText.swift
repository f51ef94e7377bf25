/// Text escaped for HTML element content and attribute values.
package enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
  ///
  /// Looked at one Unicode scalar at a time: a combining mark after a quote makes one
  /// `Character` of the two, and must not hide the quote.
  package static func escaped(_ text: String) -> String {
    var output = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output
  }
}
