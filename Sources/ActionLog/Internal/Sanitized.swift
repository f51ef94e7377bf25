/// Makes untrusted text safe to put in a one-line message: quoted, control and other invisible
/// characters shown, long input cut with a marker, so nothing a user or a file supplies can
/// move the cursor, retitle the terminal or flood the screen.
package enum Sanitized {
  static let maximumLength = 64
  /// Paths are kept whole up to this many characters: cutting a name short hides which file
  /// is meant.
  static let maximumPathLength = 1_024

  /// `raw` in single quotes, at most 64 characters: quotes and backslashes escaped, control,
  /// format and other invisible characters shown as `?`, a longer text cut and ended with `…`.
  package static func name(_ raw: String) -> String {
    var escaped = ""
    for scalar in raw.unicodeScalars {
      switch scalar {
      case "'", "\\": escaped += "\\" + String(scalar)
      default:
        if scalar.isInvisible {
          escaped += "?"
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
      // Stop early: a 17 MiB argument costs no more than a short one.
      if escaped.unicodeScalars.count > maximumLength * 4 { break }
    }
    if escaped.count > maximumLength || escaped.unicodeScalars.count > maximumLength * 4 {
      escaped = String(escaped.prefix(maximumLength)) + "…"
    }
    return "'" + escaped + "'"
  }

  /// A path in single quotes, whole up to 1,024 characters (then cut and ended with `…`):
  /// quotes and backslashes escaped, control, format and other invisible characters shown as
  /// `\u{…}`, so it reads the same on any terminal.
  package static func path(_ raw: String) -> String {
    "'" + shown(raw, escapingQuotes: true) + "'"
  }

  /// Text a file holds, to show in a message as it is, unquoted: whole up to 1,024 characters
  /// (then cut and ended with `…`), control, format and other invisible characters shown as
  /// `\u{…}`.
  package static func text(_ raw: String) -> String {
    shown(raw, escapingQuotes: false)
  }

  /// `raw` with its invisible characters shown as `\u{…}` (and quotes and backslashes escaped,
  /// for text put in quotes), cut at 1,024 characters.
  private static func shown(_ raw: String, escapingQuotes: Bool) -> String {
    var shown = ""
    var count = 0
    for scalar in raw.unicodeScalars {
      if count >= maximumPathLength {
        shown += "…"
        break
      }
      count += 1
      switch scalar {
      case "'" where escapingQuotes, "\\" where escapingQuotes: shown += "\\" + String(scalar)
      default:
        if scalar.isInvisible {
          shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          shown.unicodeScalars.append(scalar)
        }
      }
    }
    return shown
  }

}

extension Sanitized {
  /// Like ``name(_:)`` without the quotes.
  static func plain(_ raw: String) -> String {
    String(name(raw).dropFirst().dropLast())
  }
}
