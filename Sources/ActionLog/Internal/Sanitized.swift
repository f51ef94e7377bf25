import StateStore

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
    ShownText.escaped(raw, quotes: .single, invisible: .replaced(by: "?"), limit: maximumLength)
  }

  /// A path in single quotes, whole up to 1,024 characters (then cut and ended with `…`):
  /// quotes and backslashes escaped, control, format and other invisible characters shown as
  /// `\u{…}`, so it reads the same on any terminal.
  package static func path(_ raw: String) -> String {
    ShownText.escaped(raw, quotes: .single, limit: maximumPathLength)
  }

  /// Text a file holds, to show in a message as it is, unquoted: whole up to 1,024 characters
  /// (then cut and ended with `…`), control, format and other invisible characters shown as
  /// `\u{…}`.
  package static func text(_ raw: String) -> String {
    ShownText.escaped(raw, limit: maximumPathLength)
  }

  /// A URL a person typed, to echo in a message: its user info (`user:password@`) masked as
  /// `••••@`, then shown as ``name(_:)`` shows a name. A password in a URL is a secret, and a
  /// refused URL is echoed too (`--api ftp://user:PASS@host/`).
  package static func url(_ raw: String) -> String {
    name(maskingUserInfo(raw))
  }

  /// `raw` with everything before the last `@` of its authority (after `scheme://`, or from
  /// the start without one, up to the first `/`, `?` or `#`) replaced by `••••`.
  static func maskingUserInfo(_ raw: String) -> String {
    let scalars = Array(raw.unicodeScalars)
    let separator = Array("://".unicodeScalars)
    let start =
      scalars.indices.first { scalars[$0...].starts(with: separator) }.map { $0 + 3 } ?? 0
    let end = scalars[start...].firstIndex { "/?#".unicodeScalars.contains($0) } ?? scalars.count
    guard let at = scalars[start..<end].lastIndex(of: "@") else { return raw }
    var masked = String.UnicodeScalarView(scalars[..<start])
    masked.append(contentsOf: "••••".unicodeScalars)
    masked.append(contentsOf: scalars[at...])
    return String(masked)
  }
}

extension Sanitized {
  /// Like ``name(_:)`` without the quotes.
  static func plain(_ raw: String) -> String {
    String(name(raw).dropFirst().dropLast())
  }
}
