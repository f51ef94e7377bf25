/// Makes names read from a file safe to put in a message: quoted, one line, at most 64
/// characters.
package enum Sanitized {
  static let maximumLength = 64

  package static func name(_ raw: String) -> String {
    var escaped = ""
    for scalar in raw.unicodeScalars {
      switch scalar {
      case "'", "\\": escaped += "\\" + String(scalar)
      default:
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned,
          .privateUse:
          escaped += "?"
        default:
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    if escaped.count > maximumLength {
      escaped = String(escaped.prefix(maximumLength)) + "…"
    }
    return "'" + escaped + "'"
  }
}

extension Sanitized {
  /// Like ``name(_:)`` without the quotes.
  static func plain(_ raw: String) -> String {
    String(name(raw).dropFirst().dropLast())
  }
}
