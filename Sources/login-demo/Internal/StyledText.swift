import StateStore

/// How a piece of text is emphasised on a terminal. Plain text ignores it.
enum TextStyle: Equatable {
  case normal
  case bold
  case dim
  case inverse
  case error
  case success
  case warning
  case accent

  /// The SGR code of the style; without `colors`, `nil` for the coloured styles. Bold, dim and
  /// inverse are not colours: `NO_COLOR` keeps them, so the cursor and the focus still show.
  func ansiCode(colors: Bool) -> String? {
    switch self {
    case .normal: nil
    case .bold: "1"
    case .dim: "2"
    case .inverse: "7"
    case .error: colors ? "31" : nil
    case .success: colors ? "32" : nil
    case .warning: colors ? "33" : nil
    case .accent: colors ? "36" : nil
    }
  }
}

/// A run of text in one style.
struct Segment: Equatable {
  var text: String
  var style: TextStyle = .normal
}

/// One line of the screen: styled segments.
package struct ScreenLine: Equatable {
  var segments: [Segment]

  init(_ segments: [Segment] = []) {
    self.segments = segments
  }

  init(_ text: String, style: TextStyle = .normal) {
    self.segments = [Segment(text: text, style: style)]
  }

  /// The line without styles and without trailing spaces.
  package var plainText: String {
    var text = segments.map(\.text).joined()
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The line with an ANSI SGR code for each styled segment: bold, dim and inverse always
  /// (the cursor is an inverse cell), the colours only when `colors` is on.
  package func ansiText(colors: Bool) -> String {
    segments.map { segment in
      guard let code = segment.style.ansiCode(colors: colors) else { return segment.text }
      return "\u{1B}[\(code)m\(segment.text)\u{1B}[0m"
    }.joined()
  }

  /// The number of terminal columns the line takes (one per character).
  var width: Int { segments.reduce(0) { $0 + $1.text.count } }
}

extension String {
  /// The string with every invisible character (control and format characters, separators,
  /// private-use and unassigned code points) replaced, so that text a user typed can never
  /// move the cursor, change colours or show as something the font makes up.
  var sanitizedForScreen: String {
    ShownText.escaped(self, invisible: .replaced(by: "\u{FFFD}"))
  }

  /// The string padded with spaces to `width` characters (never cut).
  func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
