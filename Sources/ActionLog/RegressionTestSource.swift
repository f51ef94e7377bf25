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
/// // SwiftPM warns about files in a test target that are not sources, and this test brings
/// // two: the log "Logs/bug-42.jsonl", and the snapshot its first run records beside
/// // this file (the test fails once, so the snapshot gets read; commit it), in
/// //   __Snapshots__/<this file's name>/replayOfBug42MatchesSnapshot.txt
/// // Exclude both from this test target in Package.swift (relative to the target's folder):
/// //   exclude: ["Logs/bug-42.jsonl", "__Snapshots__"],
/// // or keep the log outside the target and give its full path.
/// @MainActor @Test func replayOfBug42MatchesSnapshot() throws {
///   let log = URL(fileURLWithPath: #filePath)
///     .deletingLastPathComponent()
///     .appendingPathComponent("Logs/bug-42.jsonl")
///   // Verified: every step's state must be the one the log recorded, and its effects too;
///   // a step that differs fails with a diff of its fields, recorded against replayed.
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
  /// A comment above the test says which files it brings into the test target — the log (when
  /// `logPath` is relative) and the snapshot `assertSnapshot` records on the first run, in
  /// `__Snapshots__/<test file>/<testName>.txt` — and the `exclude:` that keeps SwiftPM from
  /// warning about them as unhandled files.
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
    let testName = testName ?? defaultTestName(for: logPath)
    let placement = placementComment(
      log: logPath.hasPrefix("/") ? nil : logPath,
      snapshot: assertion.contains("assertSnapshot(") ? testName : nil,
      isFolder: flightRecording)
    return imports.sorted().map { "import \($0)\n" }.joined()
      + "\n" + placement
      + "@MainActor @Test func \(testName)() throws {\n"
      + location
      + "  // Verified: every step's state must be the one the log recorded, and its effects too;\n"
      + "  // a step that differs fails with a diff of its fields, recorded against replayed.\n"
      + replay
      + "  #expect(result.warnings.isEmpty)\n"
      + "  \(assertion)\n"
      + "}\n"
  }

  /// Where the files the test brings go, and how to keep SwiftPM quiet about them: a log or
  /// folder in the target's folder (`log`, relative to the test file's folder) and the snapshot
  /// `assertSnapshot` records on the first run (`snapshot`, the test's name) are files that are
  /// not sources, which SwiftPM warns about unless the target excludes them. Empty when the
  /// test brings neither.
  static func placementComment(log: String?, snapshot: String?, isFolder: Bool) -> String {
    let what = isFolder ? "flight recording" : "log"
    var lines: [String] = []
    switch (log, snapshot) {
    case (nil, nil):
      return ""
    case (let log?, nil):
      lines = [
        "SwiftPM warns about files in a test target that are not sources, and this test brings",
        "one: the \(what) \(literal(log)). Exclude it from this test target in Package.swift",
        "(relative to the target's folder):",
        "  exclude: [\(literal(log))],",
        "or keep the \(what) outside the target and give its full path.",
      ]
    case (let log?, let test?):
      lines = [
        "SwiftPM warns about files in a test target that are not sources, and this test brings",
        "two: the \(what) \(literal(log)), and the snapshot its first run records beside",
        "this file (the test fails once, so the snapshot gets read; commit it), in",
        "  __Snapshots__/<this file's name>/\(test).txt",
        "Exclude both from this test target in Package.swift (relative to the target's folder):",
        "  exclude: [\(literal(log)), \"__Snapshots__\"],",
        "or keep the \(what) outside the target and give its full path.",
      ]
    case (nil, let test?):
      lines = [
        "SwiftPM warns about files in a test target that are not sources, and this test brings",
        "one: the snapshot its first run records beside this file (the test fails once, so the",
        "snapshot gets read; commit it), in",
        "  __Snapshots__/<this file's name>/\(test).txt",
        "Exclude it from this test target in Package.swift (relative to the target's folder):",
        "  exclude: [\"__Snapshots__\"],",
      ]
    }
    return lines.map { "// \($0)\n" }.joined()
  }

  /// `replayOf<FileName>MatchesSnapshot`, with the file name's words capitalized.
  static func defaultTestName(for logPath: String) -> String {
    let fileName = logPath.split(separator: "/").last.map(String.init) ?? logPath
    let stem = fileName.split(separator: ".").first.map(String.init) ?? fileName
    let words = stem.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return "replayOf\(name.isEmpty ? "Log" : name)MatchesSnapshot"
  }

  /// A Swift string literal for `text`: the package's one escaper writes it.
  static func literal(_ text: String) -> String {
    ShownText.escaped(text, quotes: .swiftLiteral)
  }
}
