/// The package's one escaper for text shown to a person: a Swift-style string literal
/// (`"a\n\u{1B}"`, as ``Dump`` writes strings), a one-line message (`'name'`, a warning), or
/// a terminal screen (invisible characters replaced).
///
/// Whatever the choice, no character that ``Unicode/Scalar/isInvisible`` calls invisible gets
/// through as itself, so nothing a user or a file supplies can move the cursor, retitle the
/// terminal, reverse the text's direction or break the line.
package enum ShownText {
  /// The quotes around the text, and what is escaped because of them.
  package enum Quotes: Sendable {
    /// `"…"`, as a Swift string literal: `"` and `\` escaped with a backslash, a line feed,
    /// return and tab as `\n` `\r` `\t`.
    case swiftLiteral
    /// `'…'`, for a name or a path in a message: `'` and `\` escaped with a backslash.
    case single
  }

  /// How an invisible character shows.
  package enum Invisible: Sendable {
    /// As its code point, `\u{1B}`, the way a Swift string literal writes it.
    case codePoint
    /// As this text instead, `?` or `\u{FFFD}`: for a screen or a short name.
    case replaced(by: String)
  }

  /// `raw` made safe to show.
  ///
  /// - Parameters:
  ///   - raw: Any text.
  ///   - quotes: The quotes around the text; `nil` for none (quotes and backslashes then
  ///     stay as they are).
  ///   - invisible: How an invisible character shows.
  ///   - limit: The most characters of the shown text (escapes count, quotes do not); a
  ///     longer one is cut there and ended with `…`. `nil` for no limit.
  /// - Returns: The text, quoted when asked.
  package static func escaped(
    _ raw: String, quotes: Quotes? = nil, invisible: Invisible = .codePoint, limit: Int? = nil
  ) -> String {
    let quote: Unicode.Scalar? =
      switch quotes {
      case .swiftLiteral: "\""
      case .single: "'"
      case nil: nil
      }
    var shown = ""
    // Without a limit the opening quote goes first, saving a copy; with one, it is added after
    // the cut, which counts the text alone.
    if limit == nil, let quote { shown.unicodeScalars.append(quote) }
    // A limited text is also cut past four scalars a character of the limit, so a 17 MiB
    // argument, or one character under thousands of combining marks, costs no more than a
    // short one.
    let scalarLimit = limit.map { $0 * 4 } ?? .max
    var scalarCount = 0
    for scalar in raw.unicodeScalars {
      if scalarCount > scalarLimit { break }
      switch (scalar, quotes) {
      case ("\"", .swiftLiteral), ("'", .single), ("\\", .swiftLiteral), ("\\", .single):
        shown.unicodeScalars.append("\\")
        shown.unicodeScalars.append(scalar)
        scalarCount += 2
      case ("\n", .swiftLiteral), ("\r", .swiftLiteral), ("\t", .swiftLiteral):
        shown.unicodeScalars.append("\\")
        shown.unicodeScalars.append(scalar == "\n" ? "n" : scalar == "\r" ? "r" : "t")
        scalarCount += 2
      default:
        guard scalar.isInvisible else {
          shown.unicodeScalars.append(scalar)
          scalarCount += 1
          continue
        }
        let replacement =
          switch invisible {
          case .codePoint: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
          case .replaced(let replacement): replacement
          }
        shown += replacement
        scalarCount += replacement.unicodeScalars.count
      }
    }
    if let limit {
      if scalarCount > scalarLimit || shown.count > limit {
        shown = String(shown.prefix(limit)) + "…"
      }
      if let quote { shown.unicodeScalars.insert(quote, at: shown.unicodeScalars.startIndex) }
    }
    if let quote { shown.unicodeScalars.append(quote) }
    return shown
  }
}
