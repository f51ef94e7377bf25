import Foundation
import StateStore
import Testing

/// Compares text with a golden file; records it only when `RECORD_GOLDEN=1` is set.
enum Golden {
  /// Whether this run records golden files instead of checking them.
  static var isRecording: Bool {
    ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"
  }

  /// Expects `actual` to equal the contents of `file` byte for byte.
  ///
  /// With `RECORD_GOLDEN=1` it writes `actual` to `file` instead, and fails so the new file
  /// gets looked at.
  ///
  /// ```text
  /// wrong-password.expected.txt does not match what login-demo printed.
  ///
  ///     ── after line 8: tap login ──
  ///   −  LoginStore demo
  ///   +  LoginStore demo!
  ///
  /// (Expected: −, Actual: +)
  ///
  /// If the change is intended, re-record: RECORD_GOLDEN=1 swift test --filter LoginDemo
  /// ```
  static func expect(
    _ actual: String,
    matches file: URL,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let name = file.lastPathComponent
    if isRecording {
      do {
        try actual.write(to: file, atomically: true, encoding: .utf8)
        Issue.record(
          "Recorded \(name). Check it, then run again without RECORD_GOLDEN=1.",
          sourceLocation: sourceLocation)
      } catch {
        Issue.record("Cannot record \(name): \(error)", sourceLocation: sourceLocation)
      }
      return
    }
    guard let data = FileManager.default.contents(atPath: file.path) else {
      let message =
        "The golden file \(name) is missing.\n\n"
        + "Record it with: RECORD_GOLDEN=1 swift test --filter LoginDemo"
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
      return
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard expected != actual else { return }
    let diff = Dump.diff(expected, actual, context: 2) ?? "(the texts differ in bytes only)"
    let indented = diff.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "  " + $0 }.joined(separator: "\n")
    let message =
      "\(name) does not match what login-demo printed.\n\n\(indented)\n\n"
      + "(Expected: −, Actual: +)\n\n"
      + "If the change is intended, re-record: RECORD_GOLDEN=1 swift test --filter LoginDemo"
    Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
  }
}
