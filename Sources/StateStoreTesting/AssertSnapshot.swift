import Foundation
import StateStore

/// Checks the deterministic dump of `value` against the snapshot stored for this test.
///
/// The dump is `Dump.render(value)`, so secrets show their masks only. It is stored at
/// `__Snapshots__/<TestFile>/<test>[.<name>].txt` beside the test file (see
/// ``SnapshotSettings``). A missing snapshot is recorded and the test fails once, so that a
/// person reads it before it is committed; `SNAPSHOT_RECORD=1` re-records every snapshot.
///
/// ```swift
/// assertSnapshot(of: store.state, named: "locked")
/// ```
///
/// A difference fails the test with a line diff:
///
/// <!-- sample: snapshot-mismatch -->
/// ```text
/// Snapshot "lockout.locked" differs from the stored snapshot.
///
///     LoginState(
///       username: "demo",
///       password: Secret(),
///       isLoading: false,
///       failedAttempts: 0,
///   −   isLocked: true,
///   +   isLocked: false,
///       attemptID: 0,
///       user: nil,
///       rules: CredentialRules(
///         kind: CredentialRules.Kind.default,
///         maxAttempts: 5,
///         lockoutDuration: 30 seconds
///       ),
///       twoFactor: nil,
///       notice: nil,
///       lockedFor: nil,
///       passwordReset: nil,
///       isRestoring: false,
///       isUsernameEdited: false,
///       isPasswordEdited: false,
///       wasSubmitTried: false
///     )
///
/// (Expected: −, Actual: +)
/// Stored at: /…/__Snapshots__/LoginTests/lockout.locked.txt
/// If the change is intended, re-record with SNAPSHOT_RECORD=1; otherwise fix the code.
/// ```
///
/// - Parameters:
///   - value: Any value; its dump is compared.
///   - name: Tells several snapshots of one test apart.
///   - fileID: The caller's file ID.
///   - filePath: The caller's file path; the snapshot folder is derived from it.
///   - function: The test's name; the snapshot file is named after it.
///   - line: The caller's line.
///   - column: The caller's column.
public func assertSnapshot<Value>(
  of value: Value,
  named name: String? = nil,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) {
  assertSnapshot(
    of: Dump.render(value), named: name, fileID: fileID, filePath: filePath, function: function,
    line: line, column: column)
}

/// Checks `text` against the snapshot stored for this test, as is.
///
/// For text a test has already rendered: a story, a report, a command's output. Everything
/// else works as in the generic `assertSnapshot(of:named:)`, which stores `Dump.render(value)`.
///
/// - Parameters:
///   - text: The text to compare.
///   - name: Tells several snapshots of one test apart.
///   - fileID: The caller's file ID.
///   - filePath: The caller's file path; the snapshot folder is derived from it.
///   - function: The test's name; the snapshot file is named after it.
///   - line: The caller's line.
///   - column: The caller's column.
public func assertSnapshot(
  of text: String,
  named name: String? = nil,
  fileID: String = #fileID,
  filePath: StaticString = #filePath,
  function: String = #function,
  line: Int = #line,
  column: Int = #column
) {
  let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  let settings = SnapshotSettings.current
  let path = settings.path(filePath: "\(filePath)", function: function, name: name)
  let title = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
  let stored = try? String(contentsOfFile: path, encoding: .utf8)

  if let stored, !settings.isRecording {
    let expected = stored.hasSuffix("\n") ? String(stored.dropLast()) : stored
    guard expected != text else { return }
    FailureReporter.current(
      FailureMessage.diff(
        "Snapshot \"\(title)\" differs from the stored snapshot.", expected: expected,
        actual: text,
        fix: "Stored at: \(path)\nIf the change is intended, re-record with "
          + "\(SnapshotSettings.recordVariable)=1; otherwise fix the code."),
      at: location)
    return
  }

  do {
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(),
      withIntermediateDirectories: true)
    try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  } catch {
    FailureReporter.current(
      "Could not write snapshot \"\(title)\".\n\nPath: \(path)\nError: \(error)", at: location)
    return
  }
  let message =
    stored == nil
    ? "No snapshot was stored for \"\(title)\", so one was recorded.\n\nRecorded: \(path)\n"
      + "Read it, commit it, and run the test again."
    : "Re-recorded snapshot \"\(title)\" because \(SnapshotSettings.recordVariable) is set.\n\n"
      + "Recorded: \(path)\nUnset \(SnapshotSettings.recordVariable) and run the test again."
  FailureReporter.current(message, at: location)
}
