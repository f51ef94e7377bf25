import Foundation
import StateStore
import Testing

/// The printed samples in the docs (```` ```text ```` blocks) are what the code prints today:
/// in the README, the articles, and the doc comments of the sources.
///
/// A sample is marked on the line just before its fence (in a doc comment, a doc-comment line:
/// `/// <!-- sample: NAME -->`; DocC shows no HTML comment):
///
/// - `<!-- sample: NAME -->`: the text that `DocSamples.producers` makes under NAME, by running
///   the code.
///   Re-record every such sample after an intended change with `RECORD_DOC_SAMPLES=1 swift test
///   --filter DocSampleTests` (the test then fails once, so the diff gets read).
/// - `<!-- sample: excerpt PATH -->`: consecutive lines of a golden file that another test
///   checks against the code (`Tests/ActionLogTests/Fixtures/Expected/…`, re-recorded with
///   `RECORD_GOLDENS=1`); indentation and trailing spaces aside, the lines must be there in order.
/// - `<!-- sample: lines of PATH -->`: lines picked from such a file, in its order, not
///   necessarily next to each other; `…` in a line stands for text left out, and a blank line
///   is only layout.
///
/// Every other block that is not Swift or a shell command says why nothing checks it, on the
/// line before its fence: `<!-- not output: a diagram -->`, or
/// `<!-- not output: printed by SwiftPM -->` for what another program prints.
@MainActor
struct DocSampleTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_DOC_SAMPLES"] == "1"

  /// The README, the articles, and the Swift sources whose doc comments hold printed blocks.
  nonisolated static var files: [String] {
    DocCompiler.markdownFiles + DocCompiler.documentedSources
  }

  @Test(arguments: files)
  func everyMarkedSampleIsWhatTheCodePrints(_ file: String) async throws {
    var text = try DocText(file: file)
    var recorded = false
    // From the last block up, so that recording one leaves the others' lines where they are.
    for block in text.blocks.reversed() where block.marker.hasPrefix("<!-- sample:") {
      guard block.marker.hasSuffix("-->") else { continue }
      let name = block.marker.dropFirst("<!-- sample:".count).dropLast(3)
        .trimmingCharacters(in: .whitespaces)
      let place = "\(file), the sample at line \(block.fence + 1)"
      guard let body = block.body else {
        Issue.record("\(file):\(block.fence + 1): the sample's block is never closed")
        continue
      }
      let shown = text.shown(body)
      if name.hasPrefix("lines of ") {
        let path = String(name.dropFirst("lines of ".count))
        let golden = try String(
          contentsOf: DocCompiler.root.appendingPathComponent(path), encoding: .utf8)
        if let missing = Self.firstLineNotFound(shown, in: golden) {
          Issue.record(
            Comment(
              rawValue: "\(place): the line \"\(missing)\" is not in \(path) (after the lines "
                + "before it), which the tests check against the code. Copy it from there."))
        }
      } else if name.hasPrefix("excerpt ") {
        let path = String(name.dropFirst("excerpt ".count))
        let golden = try String(
          contentsOf: DocCompiler.root.appendingPathComponent(path), encoding: .utf8)
        if !Self.contains(golden, run: shown) {
          Issue.record(
            Comment(
              rawValue: "\(place) is not a run of lines of \(path), which the tests check "
                + "against the code. Copy the lines the sample should show from it."))
        }
      } else if let produce = DocSamples.producers[name] {
        let actual = await produce()
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
          .map(String.init)
        if actualLines != shown {
          if Self.isRecording {
            text.replace(body, with: actualLines)
            recorded = true
            Issue.record(
              "Recorded \(place). Read the diff, then run again without RECORD_DOC_SAMPLES=1.")
          } else {
            let diff =
              Dump.diff(shown.joined(separator: "\n"), actual, context: 2)
              ?? "(they differ in bytes only)"
            Issue.record(
              Comment(
                rawValue: "\(place) is not what the code prints today.\n\n"
                  + diff.split(separator: "\n", omittingEmptySubsequences: false)
                  .map { "  " + $0 }.joined(separator: "\n")
                  + "\n\n(Expected: −, Actual: +)\n\n"
                  + "If the change is intended, re-record: "
                  + "RECORD_DOC_SAMPLES=1 swift test --filter DocSampleTests"))
          }
        }
      } else {
        Issue.record("\(place) names no known sample '\(name)' (see DocSamples.producers)")
      }
    }
    if recorded {
      try text.write()
    }
  }

  /// Whether `run` is a run of consecutive lines of `text`, indentation and trailing spaces
  /// aside.
  static func contains(_ text: String, run: [String]) -> Bool {
    let key = { (line: String) in line.trimmingCharacters(in: .whitespaces) }
    let haystack = text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { key(String($0)) }
    let needle = run.map(key)
    guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
    return (0...(haystack.count - needle.count)).contains { start in
      Array(haystack[start..<(start + needle.count)]) == needle
    }
  }

  /// The first line of `lines` that is not found in `text` after the ones before it; `…` in
  /// a line matches any text. Indentation and trailing spaces aside; a blank line is layout.
  static func firstLineNotFound(_ lines: [String], in text: String) -> String? {
    let key = { (line: Substring) in line.trimmingCharacters(in: .whitespaces) }
    let haystack = text.split(separator: "\n").map(key)
    var next = 0
    for line in lines where !key(line[...]).isEmpty {
      let parts = key(line[...]).components(separatedBy: "…")
      guard
        let found = haystack[next...].firstIndex(where: { Self.matches($0, parts: parts) })
      else { return line }
      next = found + 1
    }
    return nil
  }

  /// Whether `line` is `parts` in order with anything between them, starting with the first
  /// and ending with the last.
  private static func matches(_ line: String, parts: [String]) -> Bool {
    guard parts.count > 1 else { return line == parts.first }
    guard line.hasPrefix(parts[0]), line.hasSuffix(parts[parts.count - 1]),
      line.count >= parts[0].count + parts[parts.count - 1].count
    else { return false }
    var rest = line.dropFirst(parts[0].count).dropLast(parts[parts.count - 1].count)
    for part in parts.dropFirst().dropLast() where !part.isEmpty {
      guard let range = rest.range(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }

  @Test func pickedLinesMustBeThereInOrderWithEllipsesForWhatIsLeftOut() {
    let golden = #"{"seq":1,"digest":"ab"}"# + "\nmiddle\n" + #"{"seq":4,"digest":"cd"}"# + "\n"
    #expect(
      Self.firstLineNotFound([#"{"seq":1,…}"#, #"{"seq":4,"digest":"…"}"#], in: golden) == nil)
    #expect(Self.firstLineNotFound(["{…}", "middle"], in: golden) == nil)
    #expect(Self.firstLineNotFound(["middle", "", #"{"seq":4,…}"#], in: golden) == nil)
    #expect(Self.firstLineNotFound(["middle", #"{"seq":1,…}"#], in: golden) == #"{"seq":1,…}"#)
    #expect(Self.firstLineNotFound([#"{"seq":2,…}"#], in: golden) == #"{"seq":2,…}"#)
    #expect(Self.firstLineNotFound(["a…b…c"], in: "abc") == nil)
    #expect(Self.firstLineNotFound(["ab…bc"], in: "abc") == "ab…bc")
  }

  /// Every block that is not Swift or a shell command is a checked sample or says why not.
  @Test(arguments: files)
  func everyPrintedBlockIsCheckedOrSaysWhyNot(_ file: String) throws {
    let text = try DocText(file: file)
    let check = {
      for block in text.printedBlocks {
        #expect(
          block.marker.hasPrefix("<!-- sample: ") || block.marker.hasPrefix("<!-- not output: "),
          """
          \(file):\(block.fence + 1): a ```\(block.language) block with no \
          `<!-- sample: … -->` marker (what checks it) and no `<!-- not output: why -->` (a \
          diagram, or another program's output)
          """)
      }
    }
    if Self.pending.contains(file) {
      withKnownIssue("\(file) has doc-comment samples not checked yet", check)
    } else {
      check()
    }
  }

  /// Sources whose doc-comment samples are not marked yet: each is a known issue until its
  /// samples are checked (or say why not), and then must leave this list.
  static let pending: Set<String> = []

  @Test func aDocCommentsBlockIsReadAndRecordedWithoutItsPrefix() {
    var text = DocText(
      file: "Example.swift",
      text: """
        /// Prints:
        ///
          /// <!-- sample: x -->
          /// ```text
          /// old
          ///
          /// ```
        let x = 1
        /// ```text
        /// never closed
        func f() {}
        """)
    let blocks = text.blocks
    #expect(blocks.map(\.fence) == [3, 8])
    #expect(blocks.map(\.marker) == ["<!-- sample: x -->", ""])
    #expect(blocks[1].body == nil)
    #expect(text.shown(blocks[0].body!) == ["old", ""])
    text.replace(blocks[0].body!, with: ["new", "", "lines"])
    #expect(text.lines[4...7] == ["  /// new", "  ///", "  /// lines", "  /// ```"])
    #expect(text.printedBlocks.count == 2)
  }

  @Test func anExcerptMustBeConsecutiveLines() {
    let golden = "a\n  b\nc\nd\n"
    #expect(Self.contains(golden, run: ["b", "c"]))
    #expect(!Self.contains(golden, run: ["a", "c"]))
    #expect(!Self.contains(golden, run: ["b", "x"]))
  }
}
