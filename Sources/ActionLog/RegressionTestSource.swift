import StateStore

/// Writes the Swift source of a regression test that replays a recorded log.
///
/// A log attached to a bug report becomes a test: the generated test replays the file with
/// verification and snapshots the final state, so the bug stays fixed. The `replay` tool's
/// `--emit-test` prints this text.
///
/// ```swift
/// print(RegressionTestSource.make(
///   logPath: "Logs/bug-42.jsonl", feature: "login", featureModule: "LoginFeature",
///   reducer: "LoginReducer()"))
/// ```
///
/// <!-- sample: regression-test-source -->
/// ```text
/// import ActionLog
/// import Foundation
/// import LoginFeature
/// import StateStoreTesting
/// import Testing
///
/// // SwiftPM warns about a file in a target that is not a source: exclude the log
/// // from this test target in Package.swift, exclude: ["Logs/bug-42.jsonl"] (relative
/// // to the target's folder), or keep it outside the target and give its full path.
/// @MainActor @Test func replayOfBug42MatchesSnapshot() throws {
///   let log = URL(fileURLWithPath: #filePath)
///     .deletingLastPathComponent()
///     .appendingPathComponent("Logs/bug-42.jsonl")
///   let result = try Replayer(reducer: LoginReducer())
///     .replay(log, options: ActionLogReadOptions(expectedFeature: "login"))
///   #expect(result.warnings.isEmpty)
///   assertSnapshot(of: result.finalState)
/// }
/// ```
public enum RegressionTestSource {
  /// The source text of a Swift Testing test that replays `logPath` and snapshots the final
  /// state.
  ///
  /// - Parameters:
  ///   - logPath: The log file: absolute, or relative to the folder of the test file.
  ///   - feature: The feature name the log's header must hold.
  ///   - featureModule: The module that defines the reducer, imported by the test.
  ///   - reducer: A Swift expression that creates the reducer, for example `LoginReducer()`.
  ///   - testName: The test function's name; derived from the file name when `nil`.
  ///   - assertion: The statement that checks `result.finalState`.
  ///   - flightRecording: Whether `logPath` is a ``FlightRecorder`` folder rather than a file.
  /// - Returns: A complete Swift file, ending with a newline.
  public static func make(
    logPath: String,
    feature: String,
    featureModule: String,
    reducer: String,
    testName: String? = nil,
    assertion: String = "assertSnapshot(of: result.finalState)",
    flightRecording: Bool = false
  ) -> String {
    let variable = flightRecording ? "folder" : "log"
    let location =
      logPath.hasPrefix("/")
      ? "  let \(variable) = URL(fileURLWithPath: \(literal(logPath)))\n"
      : "  let \(variable) = URL(fileURLWithPath: #filePath)\n"
        + "    .deletingLastPathComponent()\n"
        + "    .appendingPathComponent(\(literal(logPath)))\n"
    let options = "ActionLogReadOptions(expectedFeature: \(literal(feature)))"
    let replay =
      flightRecording
      ? "  let result = try FlightRecording(folder: folder)\n"
        + "    .replay(with: \(reducer), options: \(options))\n"
        + "    .toEnd()\n"
      : "  let result = try Replayer(reducer: \(reducer))\n"
        + "    .replay(log, options: \(options))\n"
    let imports = Set(["ActionLog", "Foundation", featureModule, "StateStoreTesting", "Testing"])
    // A log beside the test is a file SwiftPM does not know what to do with: it warns, unless
    // the test target excludes it.
    let placement =
      logPath.hasPrefix("/")
      ? ""
      : "// SwiftPM warns about a file in a target that is not a source: exclude the log\n"
        + "// from this test target in Package.swift, exclude: [\(literal(logPath))] (relative\n"
        + "// to the target's folder), or keep it outside the target and give its full path.\n"
    return imports.sorted().map { "import \($0)\n" }.joined()
      + "\n" + placement
      + "@MainActor @Test func \(testName ?? defaultTestName(for: logPath))() throws {\n"
      + location
      + replay
      + "  #expect(result.warnings.isEmpty)\n"
      + "  \(assertion)\n"
      + "}\n"
  }

  /// `replayOf<FileName>MatchesSnapshot`, with the file name's words capitalized.
  static func defaultTestName(for logPath: String) -> String {
    let fileName = logPath.split(separator: "/").last.map(String.init) ?? logPath
    let stem = fileName.split(separator: ".").first.map(String.init) ?? fileName
    let words = stem.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return "replayOf\(name.isEmpty ? "Log" : name)MatchesSnapshot"
  }

  /// A Swift string literal for `text` (``StateStore/Dump/quoted(_:)`` escapes it that way).
  static func literal(_ text: String) -> String {
    Dump.quoted(text)
  }
}
