import Foundation
import StateStore
import Testing

private struct Member: Equatable {
  var name: String
  var age: Int?
  var tags: [String]
  var scores: [String: Int]
  var password: Secret
}

private enum Event: Equatable {
  case tapped
  case typed(String)
  case moved(x: Int, y: Int)
  case saved(Member)
}

private struct Form {
  var password: Secret
}

private final class Node {
  var name = "root"
  var next: Node?
}

struct DumpTests {
  private let profile = Member(
    name: "Blob", age: nil, tags: ["a", "b"], scores: ["z": 1, "a": 2], password: "Secr3t")

  @Test func structsListPropertiesInOrderWithSortedDictionaries() {
    #expect(
      Dump.render(profile) == """
        Member(
          name: "Blob",
          age: nil,
          tags: [
            [0]: "a",
            [1]: "b"
          ],
          scores: [
            "a": 2,
            "z": 1
          ],
          password: Secret(Aaaa0a)
        )
        """)
  }

  @Test func enumsShowTheirCaseAndPayloadInline() {
    #expect(Dump.render(Event.tapped) == "Event.tapped")
    #expect(Dump.render(Event.typed("hi")) == #"Event.typed("hi")"#)
    #expect(Dump.render(Event.moved(x: 1, y: -2)) == "Event.moved(x: 1, y: -2)")
  }

  @Test func longOrNestedPayloadsBreakOntoLines() {
    #expect(
      Dump.render(Event.saved(Member(name: "B", age: 3, tags: [], scores: [:], password: "x")))
        == """
        Event.saved(
          Member(
            name: "B",
            age: 3,
            tags: [],
            scores: [:],
            password: Secret(a)
          )
        )
        """)
  }

  @Test func stringsAreQuotedAndEscaped() {
    #expect(Dump.render("a\"b\\c\nd\te") == #""a\"b\\c\nd\te""#)
    #expect(Dump.render("\u{1B}[31m") == #""\u{1B}[31m""#)
    #expect(Dump.render("rtl\u{202E}") == #""rtl\u{202E}""#)
    #expect(Dump.render("emoji 😀 é") == #""emoji 😀 é""#)
  }

  @Test func scalarsOptionalsAndTuples() {
    #expect(Dump.render(42) == "42")
    #expect(Dump.render(Optional(1.5) as Any) == "1.5")
    #expect(Dump.render(true) == "true")
    #expect(Dump.render((1, "x")) == #"(1, "x")"#)
    #expect(Dump.render(Set([3, 1, 2])) == "Set([\n  1,\n  2,\n  3\n])")
    #expect(Dump.render(Duration.seconds(30)) == "30 seconds")
    #expect(Dump.render(Duration.milliseconds(90_250)) == "1 minute 30.25 seconds")
  }

  /// Dates read as ISO 8601 in UTC, in the proleptic Gregorian calendar, milliseconds kept.
  @Test(arguments: [
    (0.0, "2001-01-01T00:00:00Z"),
    (816_827_448.25, "2026-11-20T00:30:48.250Z"),
    (-978_307_200, "1970-01-01T00:00:00Z"),
    (-63_113_904_000, "0001-01-01T00:00:00Z"),
    (252_423_993_599.999, "9999-12-31T23:59:59.999Z"),
    (-1, "2000-12-31T23:59:59Z"),
    (5_011_200, "2001-02-28T00:00:00Z"),
    (99_705_600, "2004-02-29T00:00:00Z"),
    (1e300, "Date(timeIntervalSinceReferenceDate: 1e+300)"),
  ])
  func datesReadAsISO8601InUTC(seconds: Double, text: String) {
    #expect(Dump.render(Date(timeIntervalSinceReferenceDate: seconds)) == text)
    #expect(Dump.renderOneLine([Date(timeIntervalSinceReferenceDate: seconds)]) == "[\(text)]")
  }

  @Test func typeNamesDropTheirModule() {
    #expect(Dump.render([Event.tapped]) == "[\n  [0]: Event.tapped\n]")
    #expect(
      Dump.readableTypeName("Swift.Optional<MyApp.Outer.Inner>") == "Optional<Outer.Inner>")
    #expect(
      Dump.readableTypeName("MyApp.(unknown context at $10b0f4).Form") == "Form")
  }

  @Test func cyclesInClassesAreCut() {
    let node = Node()
    node.next = node
    #expect(Dump.render(node) == "Node(\n  name: \"root\",\n  next: Node(↩︎)\n)")
  }

  @Test func renderingIsDeterministic() {
    let scores = Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", $0) })
    let first = Dump.render(scores)
    for _ in 0..<5 {
      #expect(Dump.render(Dictionary(uniqueKeysWithValues: scores.shuffled())) == first)
    }
  }
}

struct LineDiffTests {
  @Test func equalTextsHaveNoDiff() {
    #expect(Dump.diff("a\nb", "a\nb") == nil)
  }

  @Test func changedLinesAreMarkedMinusThenPlus() {
    let old = "State(\n  name: \"a\",\n  count: 1\n)"
    let new = "State(\n  name: \"b\",\n  count: 1\n)"
    #expect(
      Dump.diff(old, new) == """
          State(
        −   name: "a",
        +   name: "b",
            count: 1
          )
        """)
  }

  @Test func insertionsAndDeletionsAlign() {
    #expect(Dump.diff("a\nb\nc", "a\nc\nd") == "  a\n− b\n  c\n+ d")
  }

  @Test func contextFoldsLongUnchangedRuns() {
    let old = (1...10).map(String.init).joined(separator: "\n")
    let new = old.replacingOccurrences(of: "5", with: "five")
    #expect(
      Dump.diff(old, new, context: 1) == """
          … (3 unchanged)
          4
        − 5
        + five
          6
          … (4 unchanged)
        """)
  }

  @Test func diffOfValuesUsesTheirRenderings() {
    #expect(
      Dump.diff(of: Form(password: "Ab1"), and: Form(password: "Ab12")) == """
          Form(
        −   password: Secret(Aa0)
        +   password: Secret(Aa00)
          )
        """)
  }

  @Test func hugeInputsFallBackToAPlainReplacement() {
    let old = (0..<3000).map { "old \($0)" }.joined(separator: "\n")
    let new = (0..<3000).map { "new \($0)" }.joined(separator: "\n")
    let diff = Dump.diff(old, new)
    #expect(diff?.split(separator: "\n").count == 6000)
    #expect(diff?.hasPrefix("− old 0\n") == true)
  }
}
