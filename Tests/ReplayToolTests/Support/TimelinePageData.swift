import ActionLog
import Foundation
import Testing

/// The data a `replay --html` page embeds, read back the way the page's script reads it:
/// states rebuilt from the checkpoint before them and the splices after it.
///
/// Tests compare what it rebuilds with what the replay computed, so a wrong splice, a wrong
/// checkpoint or a wrongly reused line fails them.
struct TimelinePageData {
  static let dataStart = #"<script type="application/json" id="timeline-data">"#

  /// The whole page.
  let html: String
  /// The embedded JSON object.
  let json: [String: Any]

  init(contentsOf url: URL) throws {
    html = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    let start = try #require(html.range(of: Self.dataStart), "no data element in the page")
    let end = try #require(
      html.range(of: "</script>", range: start.upperBound..<html.endIndex),
      "the data element does not end")
    let text = html[start.upperBound..<end.lowerBound]
    json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
      "the data is not a JSON object")
  }

  /// The page's texts, each joined from its pieces as the page's script joins them: a text
  /// that holds a long run is an array of inline strings and run numbers.
  var strings: [String] {
    (json["strings"] as? [Any] ?? []).map { entry in
      (entry as? String) ?? Self.joined(entry as? [Any] ?? [], runs: runs)
    }
  }

  /// The long runs of text the page keeps once.
  var runs: [String] { json["runs"] as? [String] ?? [] }

  static func joined(_ pieces: [Any], runs: [String]) -> String {
    pieces.map { piece in
      if let run = piece as? Int { return runs.element(run) ?? "" }
      return piece as? String ?? ""
    }.joined()
  }

  /// `value` with every `{"$": pieces}` joined into its string, as the page's script does.
  static func expanded(_ value: Any, runs: [String]) -> Any {
    if let array = value as? [Any] { return array.map { expanded($0, runs: runs) } }
    guard let object = value as? [String: Any] else { return value }
    if let pieces = object["$"] as? [Any] { return joined(pieces, runs: runs) }
    return object.mapValues { expanded($0, runs: runs) }
  }
  var stepCount: Int { json["stepCount"] as? Int ?? -1 }
  var steps: [String: Any] { json["steps"] as? [String: Any] ?? [:] }
  var verify: [String: Any] { json["verify"] as? [String: Any] ?? [:] }
  var end: [String: Any] { json["end"] as? [String: Any] ?? [:] }
  var warnings: [[String: Any]] { json["warnings"] as? [[String: Any]] ?? [] }
  var gaps: [[String: Any]] { json["gaps"] as? [[String: Any]] ?? [] }
  var facts: [[String]] { json["facts"] as? [[String]] ?? [] }

  /// The recorded sequence numbers, in page order.
  var sequenceNumbers: [Int] { steps["number"] as? [Int] ?? [] }

  /// `user` or `effect`, per step.
  var origins: [String] {
    (steps["sender"] as? String ?? "").map { $0 == "u" ? "user" : "effect" }
  }

  /// Whether each step repeats the one before (its action and effects, with only numbers in
  /// its state changed), so the page shows them as one row: the page's `repeats` column.
  var repeats: [Bool] { (steps["repeats"] as? String ?? "").map { $0 == "1" } }

  /// The action of step `index` (0-based), one line; `""`, with an issue recorded, when the
  /// page has no such step.
  func action(_ index: Int, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    let ids = steps["actionID"] as? [Int] ?? []
    return text(ids.element(index).flatMap(strings.element), sourceLocation) ?? ""
  }

  /// The effects of step `index`, one line each; none, with an issue recorded, when the page
  /// has no such step.
  func effects(_ index: Int, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    let ids = (steps["effectIDs"] as? [[Int]] ?? []).element(index)
    return text(ids.map { $0.compactMap(strings.element) }, sourceLocation) ?? []
  }

  /// `value`, or `nil` with an issue recorded: what a test reads is not on the page.
  private func text<T>(_ value: T?, _ sourceLocation: SourceLocation) -> T? {
    if value == nil {
      Issue.record("the page has no such step (\(stepCount) steps)", sourceLocation: sourceLocation)
    }
    return value
  }

  /// A step after the first divergence whose replay differs from the recording, as the page
  /// holds it.
  struct RecordingDifference {
    /// The fields that differ, recorded − and replayed +.
    var fields: [String]
    var recordedEffects: [String]
    var replayedEffects: [String]
    var note: String?
  }

  /// The steps after the first divergence whose replay differs from the recording, by index.
  var recordingDifferences: [Int: RecordingDifference] {
    var result: [Int: RecordingDifference] = [:]
    for entry in json["recordingDifferences"] as? [[Any]] ?? [] {
      guard entry.count == 5, let index = entry[0] as? Int else { continue }
      func texts(_ value: Any) -> [String] {
        (value as? [Int] ?? []).compactMap(strings.element)
      }
      let note = (entry[4] as? Int).flatMap(strings.element)
      result[index] = RecordingDifference(
        fields: texts(entry[1]), recordedEffects: texts(entry[2]),
        replayedEffects: texts(entry[3]), note: note)
    }
    return result
  }

  /// The canonical JSON values the page holds (states, patches) are texts in its table.
  var values: [String] { strings }

  /// The lines of value `id` (a state), as ``CanonicalJSONText`` renders them.
  func lines(ofValue id: Int) -> [String] {
    values.element(id).flatMap { CanonicalJSONText.lines(Array($0.utf8)) } ?? []
  }

  /// The lines of the state before the first step.
  var initialLines: [String] { lines(ofValue: json["initial"] as? Int ?? -1) }

  /// The lines of the state a gap resumes from.
  func lines(ofGap gap: [String: Any]) -> [String] { lines(ofValue: gap["resumed"] as? Int ?? -1) }

  /// The canonical JSON of the state after step `index`, rebuilt as the page's script
  /// rebuilds it: from the whole state before it (the initial state, a checkpoint or a gap's)
  /// and the patches after it; `nil`, with an issue recorded, when the page has no such step
  /// or a patch does not apply.
  func stateBytes(
    after index: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [UInt8]? {
    let patches = steps["changes"] as? [Int] ?? []
    let values = self.values
    guard index >= 0, index < patches.count else {
      Issue.record("the page has no step \(index)", sourceLocation: sourceLocation)
      return nil
    }
    let checkpoints = (json["checkpoints"] as? [[Int]] ?? []).filter { $0.first ?? .max <= index }
    var start = 0
    var base = json["initial"] as? Int ?? -1
    if let last = checkpoints.last, last.count == 2 {
      start = last[0] + 1
      base = last[1]
    }
    let gapStates = Dictionary(
      gaps.compactMap { gap in (gap["before"] as? Int).map { ($0, gap["resumed"] as? Int ?? -1) } },
      uniquingKeysWith: { first, _ in first })
    var state = StatePatch.Rebuilt(base: Array((values.element(base) ?? "").utf8)[...])
    for step in start...max(start, index) where step <= index {
      if let gapState = gapStates[step] {
        state = StatePatch.Rebuilt(base: Array((values.element(gapState) ?? "").utf8)[...])
      }
      guard patches[step] >= 0 else { continue }
      do {
        try state.apply(Array((values.element(patches[step]) ?? "").utf8)[...])
      } catch {
        Issue.record(
          "the patch of step \(step) does not apply: \(error.reason)",
          sourceLocation: sourceLocation)
        return nil
      }
    }
    return state.bytes
  }

  /// The lines of the state after step `index` (see ``stateBytes(after:sourceLocation:)``);
  /// none, with an issue recorded, when it cannot be rebuilt.
  func stateLines(
    after index: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [String] {
    stateBytes(after: index, sourceLocation: sourceLocation).flatMap(CanonicalJSONText.lines)
      ?? []
  }

  /// The widgets of the screen after step `index` (`nil` for a page without screens).
  func screen(after index: Int) -> [[String: Any]]? {
    guard let ids = steps["screen"] as? [Int], let id = ids.element(index) else { return nil }
    return screen(withID: id)
  }

  /// The widgets of the screen before the first step.
  var initialScreen: [[String: Any]]? {
    (json["initialScreen"] as? Int).flatMap { screen(withID: $0) }
  }

  private func screen(withID id: Int) -> [[String: Any]]? {
    let screens = json["screens"] as? [[Int]] ?? []
    let parts = (json["parts"] as? [Any] ?? []).compactMap {
      Self.expanded($0, runs: runs) as? [String: Any]
    }
    return screens.element(id)?.compactMap(parts.element)
  }

  /// The page's inline script, as the Content-Security-Policy hashes it.
  var script: String? { element("<script>", "</script>") }
  /// The page's style sheet, as the Content-Security-Policy hashes it.
  var style: String? { element("<style>", "</style>") }

  func element(_ open: String, _ close: String) -> String? {
    guard let start = html.range(of: open),
      let end = html.range(of: close, range: start.upperBound..<html.endIndex)
    else { return nil }
    return String(html[start.upperBound..<end.lowerBound])
  }
}

extension Array where Element == [String: Any] {
  /// The widgets' kinds and texts, for comparing a screen in one line: `field Username=demo`.
  var summary: [String] {
    map { part in
      let kind = part["k"] as? String ?? "?"
      switch kind {
      case "field": return "field \(part["label"] ?? "")=\(part["value"] ?? "")"
      case "secure": return "secure \(part["label"] ?? "")=\(part["length"] ?? "")"
      case "button": return "button \(part["t"] ?? "") \((part["enabled"] as? Bool) == true)"
      case "text": return "text[\(part["tone"] ?? "")] \(part["t"] ?? "")"
      case "path": return "path " + ((part["v"] as? [String]) ?? []).joined(separator: " › ")
      case "alert":
        return "alert \(part["title"] ?? ""): \(part["message"] ?? "") "
          + ((part["buttons"] as? [String]) ?? []).joined(separator: ",")
      default: return "\(kind) \(part["t"] ?? "")"
      }
    }
  }
}

extension Array {
  /// The element at `index`, or `nil` when there is none: the page is read by a test, which
  /// must fail, not crash, on a page that lacks what it expects.
  func element(_ index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}

extension TimelinePageData {
  /// The JSON the Action tab shows for step `index` (0-based): the action as the page holds
  /// it; `nil` when the page holds none for the step.
  func actionJSON(_ index: Int) -> String? {
    let ids = steps["actionJSON"] as? [Int] ?? []
    return ids.element(index).flatMap(strings.element)
  }

  /// The values of the speed menu beside Play, and the one chosen when the page opens.
  var speeds: (values: [String], chosen: String?) {
    guard let menu = element(#"<select id="speed""#, "</select>") else { return ([], nil) }
    let options = menu.components(separatedBy: "<option value=\"").dropFirst()
    let values = options.map { String($0.prefix { $0 != "\"" }) }
    let chosen = options.first { $0.contains("\" selected>") }.map {
      String($0.prefix { $0 != "\"" })
    }
    return (values, chosen)
  }
}
