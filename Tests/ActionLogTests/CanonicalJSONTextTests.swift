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

/// An action or an effect on one line, read from its canonical JSON as the log tools show it,
/// and its row label: no `Mirror` of the host's value takes part.
struct CanonicalOneLineTests {
  private func line(_ json: String) -> String? { CanonicalJSONText.oneLine(Array(json.utf8)) }

  @Test(arguments: [
    (#"{"loginButtonTapped":{}}"#, "loginButtonTapped"),
    (#"{"codeChanged":{"_0":"123"}}"#, #"codeChanged("123")"#),
    // One structure as the only payload: its fields are the arguments.
    (
      #"{"edit":{"_0":{"field":"password","value":"Aaaa0a"}}}"#,
      #"edit(field: "password", value: "Aaaa0a")"#
    ),
    (
      #"{"loginResponse":{"_0":{"failure":{"_0":{"invalidCredentials":{}}}},"attempt":1}}"#,
      "loginResponse(failure(invalidCredentials), attempt: 1)"
    ),
    (
      #"{"authenticate":{"_0":{"password":"A","username":"d"},"attempt":1}}"#,
      #"authenticate((password: "A", username: "d"), attempt: 1)"#
    ),
    (#"{"added":{"_0":["( a ]","b"]}}"#, #"added(["( a ]", "b"])"#),
    (#"{"a":1,"b":[]}"#, "(a: 1, b: [])"),
    (#"{"big":18446744073709551615}"#, "(big: 18446744073709551615)"),
    (#""x""#, #""x""#),
  ])
  func aValueReadsAsSwiftWritesItsCase(json: String, expected: String) {
    #expect(line(json) == expected)
  }

  /// Control characters travel escaped in canonical JSON and stay so; an invisible character
  /// written as itself shows as its code point: nothing moves the cursor or breaks the line.
  @Test func controlAndInvisibleCharactersAreShownAsCodePointsOnOneLine() {
    let shown = line("{\"typed\":{\"_0\":\"a\\nb\u{202E}c\\u001b\"}}")
    #expect(shown == #"typed("a\nb\u{202E}c\u001b")"#)
    #expect(shown?.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" } == false)
  }

  @Test func whatIsNotOneJSONValueHasNoLine() {
    #expect(line("") == nil)
    #expect(line(#"{"a":1"#) == nil)
    #expect(line(#"{"a":1} {"b":2}"#) == nil)
    #expect(line("{\"a\":\"raw \u{1B} control\"}") == nil)
    // Deeper than a log line may nest: refused, not recursed into.
    #expect(
      line(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) == nil)
  }

  @Test func aRowIsLabelledByTheCasesItsActionIsNestedIn() throws {
    let nested =
      #"{"login":{"_0":{"twoFactor":{"_0":{"verifyResponse":{"_0":{"failure":{}},"request":1}}}}}}"#
    let label = try #require(CanonicalJSONText.label(Array(nested.utf8)))
    #expect(label.path == ["login", "twoFactor"])
    #expect(label.leaf == "verifyResponse(failure, request: 1)")
    // A case whose payload is not a case ends the path at once.
    let flat = try #require(CanonicalJSONText.label(Array(#"{"add":{"_0":6}}"#.utf8)))
    #expect(flat.path.isEmpty && flat.leaf == "add(6)")
  }
}
