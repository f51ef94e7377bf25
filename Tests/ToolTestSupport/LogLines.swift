import Foundation

/// Action-log lines with what changes from one recording to the next — the header's `created`
/// and each step's `time` — written as `…`, so two recordings of the same session compare
/// equal line for line.
package enum LogLines {
  /// `lines`, each with its volatile fields replaced.
  package static func withoutVolatileFields(_ lines: [String]) -> [String] {
    lines.map { line in
      line
        .replacingOccurrences(
          of: #""created":"[^"]*""#, with: #""created":"…""#, options: .regularExpression
        )
        .replacingOccurrences(
          of: #"^\{"seq":([0-9]+),"time":[0-9]+,"#, with: #"{"seq":$1,"time":…,"#,
          options: .regularExpression)
    }
  }

  /// Each step line's action, byte for byte, in `log`: what follows `"action":` up to
  /// `,"effects":` in the recorder's layout; `nil` for a step line in any other layout.
  package static func actions(in log: String) -> [String?] {
    log.split(separator: "\n").filter { $0.hasPrefix(#"{"seq":"#) }.map { line in
      guard let start = line.range(of: #","action":"#),
        let end = line.range(of: #","effects":"#, range: start.upperBound..<line.endIndex)
      else { return nil }
      return String(line[start.upperBound..<end.lowerBound])
    }
  }
}
