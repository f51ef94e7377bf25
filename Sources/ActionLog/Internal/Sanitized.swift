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
    var quoted = ""
    var count = 0
    for scalar in raw.unicodeScalars {
      if count >= maximumPathLength {
        quoted += "…"
        break
      }
      count += 1
      switch scalar {
      case "'", "\\": quoted += "\\" + String(scalar)
      default:
        if scalar.isInvisible {
          quoted += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          quoted.unicodeScalars.append(scalar)
        }
      }
    }
    return "'" + quoted + "'"
  }

}

extension Sanitized {
  /// Like ``name(_:)`` without the quotes.
  static func plain(_ raw: String) -> String {
    String(name(raw).dropFirst().dropLast())
  }
}
