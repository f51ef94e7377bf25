import Foundation
import StateStore
import Testing

/// The printed samples in the docs (```` ```text ```` blocks) are what the code prints today.
///
/// A sample is marked on the line just before its fence:
///
/// - `<!-- sample: NAME -->`: the text that `DocSamples.producers` makes under NAME, by running
///   the code.
///   Re-record every such sample after an intended change with `RECORD_DOC_SAMPLES=1 swift test
///   --filter DocSampleTests` (the test then fails once, so the diff gets read).
/// - `<!-- sample: excerpt PATH -->`: consecutive lines of a golden file that another test
///   checks against the code (`Tests/ActionLogTests/Fixtures/Expected/…`, re-recorded with
///   `RECORD_GOLDENS=1`); indentation and trailing spaces aside, the lines must be there in order.
@MainActor
struct DocSampleTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_DOC_SAMPLES"] == "1"

  @Test(arguments: DocCompiler.markdownFiles)
  func everyMarkedSampleIsWhatTheCodePrints(_ file: String) async throws {
    let url = DocCompiler.root.appendingPathComponent(file)
    var lines = try String(contentsOf: url, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var recorded = false
    var index = 0
    while index < lines.count {
      let marker = lines[index].trimmingCharacters(in: .whitespaces)
      guard marker.hasPrefix("<!-- sample:"), marker.hasSuffix("-->"),
        index + 1 < lines.count, lines[index + 1].hasPrefix("```")
      else {
        index += 1
        continue
      }
      let name = marker.dropFirst("<!-- sample:".count).dropLast(3)
        .trimmingCharacters(in: .whitespaces)
      let start = index + 2
      guard let end = lines[start...].firstIndex(where: { $0.hasPrefix("```") }) else {
        Issue.record("\(file):\(index + 2): the sample's block is never closed")
        return
      }
      let shown = Array(lines[start..<end])
      let place = "\(file), the sample at line \(index + 2)"
      if name.hasPrefix("excerpt ") {
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
            lines.replaceSubrange(start..<end, with: actualLines)
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
      index = end + 1
    }
    if recorded {
      try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
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

  @Test func anExcerptMustBeConsecutiveLines() {
    let golden = "a\n  b\nc\nd\n"
    #expect(Self.contains(golden, run: ["b", "c"]))
    #expect(!Self.contains(golden, run: ["a", "c"]))
    #expect(!Self.contains(golden, run: ["b", "x"]))
  }
}
