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
}
