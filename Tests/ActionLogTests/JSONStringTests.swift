import ActionLog
import Foundation
import StateStore
import Testing

/// The one writer of JSON string literals: `.encoder` for the log's canonical form (exactly
/// `JSONEncoder`'s bytes), `.htmlScript` for the timeline page.
struct JSONStringTests {
  /// Every C0 control character, DEL, NEL, the separators, bidirectional and zero-width
  /// characters, private use, quotes, backslash, slash, markup, emoji and combining marks.
  static let hostile: [String] =
    (0..<0x20).map { String(Unicode.Scalar(UInt8($0))) } + [
      "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{200B}", "\u{FEFF}", "\u{E000}",
      "\u{F0000}", "\"", "\\", "/", "<", ">", "&", "'", "é", "e\u{301}", "😀", "👩‍👩‍👧",
      "\"\u{301}", "</script>", "plain text", "",
    ]

  private static func encoder(_ text: String) -> String {
    var bytes: [UInt8] = []
    JSONString.append(text, escaping: .encoder, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func theEncoderEscapingWritesWhatJSONEncoderWrites() throws {
    for text in Self.hostile {
      let expected = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
      #expect(Self.encoder(text) == expected, "\(Array(text.unicodeScalars))")
      #expect(JSONString.quoted(text, escaping: .encoder) == expected)
    }
    // Several escapes in one string, between runs copied whole.
    let mixed = Self.hostile.joined(separator: "ab")
    #expect(
      Self.encoder(mixed) == String(decoding: try JSONEncoder().encode(mixed), as: UTF8.self))
  }

  @Test func theEncoderEscapingSpellsItsEscapes() {
    #expect(
      Self.encoder("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1F}\u{7F}\u{2028}")
        == #""\"\\\/\b\f\n\r\t\u0000\u001f"# + "\u{7F}\u{2028}\"")
  }

  @Test(
    arguments: [
      ("</script><!-- & -->", #""\u003c/script\u003e\u003c!-- \u0026 --\u003e""#),
      ("quote \" backslash \\ slash / tab \t", #""quote \" backslash \\ slash / tab \t""#),
      ("\n\r\u{8}\u{C}\u{0}\u{1F}\u{7F}", #""\n\r\u0008\u000c\u0000\u001f\u007f""#),
      ("\u{85}\u{2028}\u{2029}\u{202E}\u{200B}", #""\u0085\u2028\u2029\u202e\u200b""#),
      ("é e\u{301} 😀 👩‍👧 ✓", "\"é e\u{301} 😀 👩\\u200d👧 ✓\""),
      ("\u{E000}\u{F0000}", #""\ue000\udb80\udc00""#),
    ])
  func theHTMLScriptEscapingSpellsItsEscapes(text: String, json: String) {
    #expect(JSONString.quoted(text, escaping: .htmlScript) == json)
  }

  @Test func everyHostileStringDecodesBackAndCannotEndAScriptElement() throws {
    for escaping in [JSONString.Escaping.encoder, .htmlScript] {
      let strings = Self.hostile.map { JSONString.quoted($0, escaping: escaping) }
      let json = "[" + strings.joined(separator: ",") + "]"
      let decoded = try JSONDecoder().decode([String].self, from: Data(json.utf8))
      #expect(decoded == Self.hostile, "\(escaping)")
      if escaping == .htmlScript {
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        #expect(!json.unicodeScalars.contains { $0.isInvisible })
      }
    }
  }
}
