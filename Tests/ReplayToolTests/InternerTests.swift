import Foundation
import Testing

@testable import ReplayTool

/// The string table of the HTML timeline: a long run of text is kept once, and every text
/// joins back from its pieces to exactly what it was.
struct InternerTests {
  private static let long = String(repeating: "abcdefghij", count: 40)

  /// What the page's script does: a text is a string, or its pieces joined.
  private static func pageTexts(_ strings: Interner) throws -> [String] {
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(strings.json().utf8)) as? [Any])
    return entries.map { entry in
      (entry as? String) ?? TimelinePageData.joined(entry as? [Any] ?? [], runs: strings.runs)
    }
  }

  @Test func aLongRunInSeveralTextsIsKeptOnceAndEveryTextJoinsBack() throws {
    var strings = Interner()
    let texts = [
      #"AppAction.login(LoginAction.edit(set(username: "\#(Self.long)")))"#,
      #"{"login":{"_0":{"edit":{"_0":{"field":"username","value":"\#(Self.long)"}}}}}"#,
      #"    username: "\#(Self.long)","#,
      Self.long,
      "short",
    ]
    let ids = texts.map { strings.id($0) }
    #expect(ids == [0, 1, 2, 3, 4])
    #expect(strings.runs == [Self.long], "the run is kept once")
    #expect(ids.map { strings.text($0) } == texts)
    #expect(try Self.pageTexts(strings) == texts)
    #expect(strings.json().utf8.count < 2 * Self.long.utf8.count, "\(strings.json().count)")
    // The same text again is the same number.
    #expect(strings.id(texts[2]) == 2)
  }

  /// Quotes, escapes, a combining mark right after a quote, emoji, control bytes: a run is a
  /// substring cut at quote bytes, so the pieces always join back to the text.
  @Test func awkwardTextsJoinBackExactly() throws {
    var strings = Interner()
    let awkward = [
      "\"\u{301}" + Self.long + "\"",
      #"a "\#(Self.long)\" b" \"#,
      "\u{1B}[2J\"" + String(repeating: "🧑‍💻", count: 80) + "\"\0",
      String(repeating: "\"", count: 600),
      #"x""# + Self.long + Self.long + #"""#,
    ]
    for text in awkward { _ = strings.id(text) }
    #expect((0..<awkward.count).map { strings.text($0) } == awkward)
    #expect(try Self.pageTexts(strings) == awkward)
  }

  /// A screen part's JSON: a string literal with a long run and no escape becomes
  /// `{"$":[…]}`, which the page joins back; a literal with an escape stays as it is.
  @Test func aScreenPartSharesItsLongStringsAndReadsBackTheSame() throws {
    var strings = Interner()
    _ = strings.id(#"    username: "\#(Self.long)","#)
    let escaped = "a\"b" + Self.long
    let part =
      #"{"k":"field","l":"Username","v":"\#(Self.long)","w":"# + JSONText.string(escaped) + "}"
    let shared = strings.sharingRuns(inJSON: part)
    #expect(shared.contains(#""v":{"$":[0]}"#), "\(shared)")
    #expect(strings.runs.count == 1)
    let original = try JSONSerialization.jsonObject(with: Data(part.utf8)) as? [String: Any]
    let read = try JSONSerialization.jsonObject(with: Data(shared.utf8))
    let expanded = TimelinePageData.expanded(read, runs: strings.runs) as? [String: Any]
    #expect(expanded?["v"] as? String == original?["v"] as? String)
    #expect(expanded?["w"] as? String == escaped)
    #expect(expanded?["l"] as? String == "Username")
  }
}
