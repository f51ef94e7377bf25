import StateStore
import Testing

/// The one escaper for text shown to a person: Swift-style literals (``Dump``), one-line
/// messages (names, paths, warnings) and the terminal screen.
struct ShownTextTests {
  /// Every C0 control character, DEL, NEL, the line and paragraph separators and a
  /// bidirectional override, with what a Swift string literal writes for each.
  static let invisible: [(Unicode.Scalar, String)] =
    (0..<0x20).map { value in
      let scalar = Unicode.Scalar(UInt8(value))
      switch scalar {
      case "\n": return (scalar, #"\n"#)
      case "\r": return (scalar, #"\r"#)
      case "\t": return (scalar, #"\t"#)
      default: return (scalar, #"\u{"# + String(value, radix: 16, uppercase: true) + "}")
      }
    } + [
      ("\u{7F}", #"\u{7F}"#), ("\u{85}", #"\u{85}"#), ("\u{2028}", #"\u{2028}"#),
      ("\u{2029}", #"\u{2029}"#), ("\u{202E}", #"\u{202E}"#), ("\u{200B}", #"\u{200B}"#),
      ("\u{E000}", #"\u{E000}"#),
    ]

  @Test func aSwiftLiteralEscapesEveryInvisibleCharacterAsItsCodePoint() {
    for (scalar, escape) in Self.invisible {
      #expect(
        ShownText.escaped("a\(scalar)b", quotes: .swiftLiteral) == "\"a\(escape)b\"",
        "U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
  }

  @Test func aSwiftLiteralEscapesDoubleQuotesAndBackslashesOnly() {
    #expect(
      ShownText.escaped(#"say "hi" it's C:\dir"#, quotes: .swiftLiteral)
        == #""say \"hi\" it's C:\\dir""#)
  }

  @Test func visibleTextStaysAsItIs() {
    // Emoji, a combining mark and other scripts are shown as themselves; the zero-width
    // joiner inside a family emoji is a format character and shows as its code point.
    let text = "é e\u{301} 漢字 😀 👍🏽 Ünïcødé"
    #expect(ShownText.escaped(text) == text)
    #expect(ShownText.escaped(text, quotes: .swiftLiteral) == "\"" + text + "\"")
    #expect(ShownText.escaped("👩‍👧") == #"👩\u{200D}👧"#)
  }

  @Test func singleQuotesEscapeSingleQuotesAndBackslashesAndNoShortForms() {
    #expect(
      ShownText.escaped("it's \"a\"\\b\nc\t", quotes: .single)
        == #"'it\'s "a"\\b\u{A}c\u{9}'"#)
  }

  @Test func unquotedTextKeepsQuotesAndBackslashesAndEscapesTheInvisible() {
    #expect(
      ShownText.escaped("say(\"a\\n\")\n\u{1B}[2J\u{202E}\u{2028}")
        == #"say("a\n")\u{A}\u{1B}[2J\u{202E}\u{2028}"#)
  }

  @Test func aScreenReplacesEveryInvisibleCharacter() {
    for (scalar, _) in Self.invisible {
      #expect(
        ShownText.escaped("a\(scalar)b", invisible: .replaced(by: "\u{FFFD}")) == "a\u{FFFD}b",
        "U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
    #expect(
      ShownText.escaped("it's\u{1B}", quotes: .single, invisible: .replaced(by: "?"))
        == #"'it\'s?'"#)
  }

  @Test func aLimitCountsTheShownCharactersAndEndsACutTextWithAnEllipsis() {
    let long = String(repeating: "a", count: 70)
    #expect(
      ShownText.escaped(long, quotes: .single, limit: 64)
        == "'" + String(repeating: "a", count: 64) + "…'")
    #expect(ShownText.escaped(String(long.prefix(64)), limit: 64) == String(long.prefix(64)))
    // Escapes count: 60 letters and one `\u{1B}` are 66 characters shown.
    #expect(
      ShownText.escaped(String(repeating: "a", count: 60) + "\u{1B}", limit: 64)
        == String(repeating: "a", count: 60) + #"\u{1…"#)
    // One character under 10,000 combining marks is cut too: past four scalars a character.
    let flood = ShownText.escaped("x" + String(repeating: "\u{301}", count: 10_000), limit: 64)
    #expect(flood.hasSuffix("…") && flood.unicodeScalars.count <= 64 * 4 + 2)
  }
}
