import ActionLog
import Testing

/// The field-by-field diff of two canonical JSON values that `replay` prints: made of the bytes
/// alone, with every change under its path and every unchanged part only counted.
struct CanonicalJSONTextTests {
  private func diff(_ old: String, _ new: String) -> String? {
    CanonicalJSONText.diff(from: Array(old.utf8), to: Array(new.utf8))
  }

  @Test func aChangedMemberShowsUnderItsPathAndTheRestIsCounted() {
    #expect(
      diff(
        #"{"a":1,"login":{"name":"x","password":"Aa","tries":0},"z":[]}"#,
        #"{"a":1,"login":{"name":"x","password":"Aaa","tries":0},"z":[]}"#)
          == """
            … (1 unchanged)
            login: {
              … (1 unchanged)
          −   password: "Aa"
          +   password: "Aaa"
              … (1 unchanged)
            }
            … (1 unchanged)
          """)
  }

  @Test func membersOnlyOneSideHasAreRemovedOrAddedWhole() {
    #expect(
      diff(#"{"a":{"b":[1]},"c":2}"#, #"{"b":true,"c":2,"d":{}}"#)
        == """
        − a: {
        −   b: [
        −     [0]: 1
        −   ]
        − }
        + b: true
          … (1 unchanged)
        + d: {}
        """)
  }

  /// An element inserted at the front of a long list is one added element, not a change of
  /// every index after it; an element changed in place shows under its index.
  @Test func arrayElementsAreMatchedByTheirBytes() {
    let rows = (1...20).map { #"{"id":\#($0),"title":"t\#($0)"}"# }
    let inserted = [#"{"id":0,"title":"new"}"#] + rows
    var edited = rows
    edited[7] = #"{"id":8,"title":"edited"}"#
    func list(_ rows: [String]) -> String { #"{"rows":["# + rows.joined(separator: ",") + "]}" }
    #expect(
      diff(list(rows), list(inserted))
        == """
          rows: [
        +   [0]: {
        +     id: 0
        +     title: "new"
        +   }
            … (20 unchanged)
          ]
        """)
    #expect(
      diff(list(rows), list(edited))
        == """
          rows: [
            … (7 unchanged)
            [7]: {
              … (1 unchanged)
        −     title: "t8"
        +     title: "edited"
            }
            … (12 unchanged)
          ]
        """)
  }

  @Test func theSameBytesOrBytesThatAreNotJSONGiveNoDiff() {
    #expect(diff(#"{"a":1}"#, #"{"a":1}"#) == nil)
    #expect(diff(#"{"a":1"#, #"{"a":2}"#) == nil)
    #expect(diff("", "1") == nil)
  }

  /// A control character in a string (a value the log holds) shows as its code point: nothing
  /// from a log moves the cursor or retitles the terminal.
  @Test func invisibleCharactersShowAsCodePoints() throws {
    // Canonical JSON escapes control characters (`\u001b`); a right-to-left override is
    // written as itself.
    let shown = try #require(diff(#"{"a":"x"}"#, #"{"a":"\u001b]0;owned\u0007"# + "\u{202E}\"}"))
    #expect(!shown.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })
    #expect(shown.contains(#"+ a: "\u001b]0;owned\u0007\u{202E}""#), "\(shown)")
  }

  @Test func aTopLevelObjectRendersAsItsFields() {
    #expect(
      CanonicalJSONText.lines(Array(#"{"a":1,"b":{"c":[]},"d":[{"e":null}]}"#.utf8))?
        .joined(separator: "\n")
          == """
          a: 1
          b: {
            c: []
          }
          d: [
            [0]: {
              e: null
            }
          ]
          """)
  }
}
