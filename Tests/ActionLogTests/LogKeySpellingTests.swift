import ActionLog
import Foundation
import Testing
import ToolTestSupport

/// Every key of the action-log format is spelled once, in `ActionLogFormat.swift`
/// (``ActionLogFormat/Key``); everything else uses the constants.
///
/// Scans `Sources/**/*.swift`, comment lines aside, for a key spelled as a JSON key: `\"seq\"`
/// inside a string literal (unless it is a value, right after a colon), or `"seq"` used as a
/// key — followed by a colon (raw JSON in a `#"…"#` literal, a dictionary literal), compared
/// (`== "seq"`, `case "seq"`), assigned, subscripted (`["seq"]`), paired with a value
/// (`("seq", …)`) or appended (`"seq".utf8`). The same word in a message
/// (`FailureMessage.count(n, "action")`) is not a key and passes.
struct LogKeySpellingTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")
  static let formatFile = "ActionLog/ActionLogFormat.swift"

  /// How `line` spells `key` as a JSON key, or `nil`.
  ///
  /// `\"key\"` counts anywhere in a string literal except right after a colon, where it is a
  /// value (the timeline page's warning of type `\"dropped\"` is not the gap's key).
  static func spelling(of key: String, in line: String) -> String? {
    let escaped = "\\\"\(key)\\\""
    for range in line.ranges(of: escaped)
    where range.lowerBound == line.startIndex || line[line.index(before: range.lowerBound)] != ":" {
      return escaped
    }
    let quoted = "\"\(key)\""
    let asKey = [
      quoted + ":",  // "key": in raw JSON (#"{"key":…"#) or a dictionary literal
      "== " + quoted, "!= " + quoted, quoted + " ==", quoted + " !=", "case " + quoted,
      "= " + quoted,  // assigned: `static let seq = "seq"`, `case seq = "seq"`
      "[" + quoted + "]",  // a subscript
      "(" + quoted + ",",  // a (name, value) pair
      quoted + ".utf8",  // appended as bytes
    ]
    return asKey.first { line.contains($0) }
  }

  /// `file:line: text` for every line outside the format file that spells a log key.
  static func misspellings(in sources: URL) throws -> [String] {
    let files = try #require(
      FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
    var found: [String] = []
    let prefix = sources.standardizedFileURL.path + "/"
    for case let url as URL in files where url.pathExtension == "swift" {
      let path = String(url.standardizedFileURL.path.dropFirst(prefix.count))
      if path == formatFile { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = String(line)
        if !line.contains("\"") || line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          continue
        }
        for key in ActionLogFormat.Key.allCases where line.contains(key.rawValue) {
          if let spelling = spelling(of: key.rawValue, in: line) {
            found.append(
              "Sources/\(path):\(index + 1): \(spelling) in "
                + line.trimmingCharacters(in: .whitespaces))
          }
        }
      }
    }
    return found.sorted()
  }

  @Test func noSourceOutsideTheFormatFileSpellsALogKey() throws {
    #expect(
      FileManager.default.fileExists(
        atPath: Self.sources.appendingPathComponent(Self.formatFile).path),
      "the format file moved; update LogKeySpellingTests.formatFile")
    let found = try Self.misspellings(in: Self.sources)
    #expect(
      found.isEmpty,
      """
      A key of the action-log format is spelled outside ActionLogFormat.swift:

      \(found.map { "  " + $0 }.joined(separator: "\n"))

      Use ActionLogFormat.Key (for example ActionLogFormat.Key.seq.rawValue, or the line \
      types' writers and Codable conformances) so that a key is spelled once.
      """)
  }

  @Test func theScanFindsAKeySpelledAgain() throws {
    let folder = try TemporaryFolder()
    let sources = folder.url.appendingPathComponent("Sources")
    try FileManager.default.createDirectory(
      at: sources.appendingPathComponent("ActionLog/Internal"), withIntermediateDirectories: true)
    let lines = [
      #"    var line = Data("{\"seq\":\(number),".utf8)"#,
      #"    if root == "action", path.count == 1 {"#,
      ##"  static let opening = #"{"format":""# + name"##,
      #"      ("checkpointInterval", String(checkpointInterval)),"#,
      #"    case "dropped": return"#,
    ]
    let fine = [
      #"      return "{\"type\":\"dropped\",\"line\":\(line)}""#,
      #"  /// `{"kind":"gap"}` in a doc comment"#,
      #"    // "seq": in a comment"#,
      #"    + "\(FailureMessage.count(pending.count, "action")) sent by effects ""#,
      #"    static let seq = Array(Format.opening(.seq).utf8)"#,
      #"    <ul id="effects"></ul>"#,
    ]
    try (lines + fine).joined(separator: "\n").write(
      to: sources.appendingPathComponent("ActionLog/Internal/Spelled.swift"), atomically: true,
      encoding: .utf8)
    try lines.joined(separator: "\n").write(
      to: sources.appendingPathComponent(Self.formatFile), atomically: true, encoding: .utf8)

    let found = try Self.misspellings(in: sources)
    #expect(found.count == lines.count)
    #expect(found.allSatisfy { $0.hasPrefix("Sources/ActionLog/Internal/Spelled.swift:") })
  }
}
