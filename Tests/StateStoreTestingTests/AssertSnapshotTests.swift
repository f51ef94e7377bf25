import Foundation
import StateStore
import StateStoreTesting
import Testing

/// A fresh folder under the system's temporary directory, removed at the end.
@MainActor func withTemporaryDirectory(_ body: (String) async throws -> Void) async throws {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("StateStoreTestingTests-\(UUID().uuidString)").path
  defer { try? FileManager.default.removeItem(atPath: path) }
  try await body(path)
}

@MainActor
struct AssertSnapshotTests {
  let state = SearchState(query: "a", results: ["A"], isSearching: false, token: "s3Cret")

  @Test func theSnapshotPathFollowsTheTestFileAndFunction() {
    let settings = SnapshotSettings()
    #expect(
      settings.path(filePath: "/p/Tests/X/LoginTests.swift", function: "lockout()", name: nil)
        == "/p/Tests/X/__Snapshots__/LoginTests/lockout.txt")
    #expect(
      settings.path(filePath: "/p/LoginTests.swift", function: "retry(count:)", name: "after 5")
        == "/p/__Snapshots__/LoginTests/retry.after-5.txt")
    let moved = SnapshotSettings(directory: "/tmp/snaps")
    #expect(
      moved.path(filePath: "/p/LoginTests.swift", function: "a()", name: nil)
        == "/tmp/snaps/LoginTests/a.txt")
  }

  @Test func aMissingSnapshotIsRecordedAndFailsOnce() async throws {
    try await withTemporaryDirectory { directory in
      let settings = SnapshotSettings(directory: directory, environment: { _ in nil })
      let path = "\(directory)/AssertSnapshotTests/aMissingSnapshotIsRecordedAndFailsOnce.txt"
      await expectFailures(
        [
          """
          No snapshot was stored for "aMissingSnapshotIsRecordedAndFailsOnce", so one was \
          recorded.

          Recorded: \(path)
          Read it, commit it, and run the test again.
          """
        ], line: #line + 2
      ) {
        SnapshotSettings.$current.withValue(settings) { assertSnapshot(of: state) }
      }
      let recorded = try String(contentsOfFile: path, encoding: .utf8)
      #expect(
        recorded == """
          SearchState(
            query: "a",
            results: [
              [0]: "A"
            ],
            isSearching: false,
            token: Secret(a0Aaaa)
          )

          """)
      // The second run compares against what was recorded, and passes.
      SnapshotSettings.$current.withValue(settings) { assertSnapshot(of: state) }
    }
  }

  @Test func aMismatchFailsWithALineDiff() async throws {
    try await withTemporaryDirectory { directory in
      let settings = SnapshotSettings(directory: directory, environment: { _ in nil })
      let path = "\(directory)/AssertSnapshotTests/aMismatchFailsWithALineDiff.state.txt"
      try FileManager.default.createDirectory(
        atPath: directory + "/AssertSnapshotTests", withIntermediateDirectories: true)
      try Dump.render(SearchState(query: "a", token: "s3Cret")).write(
        toFile: path, atomically: true, encoding: .utf8)
      await expectFailures(
        [
          """
          Snapshot "aMismatchFailsWithALineDiff.state" differs from the stored snapshot.

              SearchState(
                query: "a",
            −   results: [],
            +   results: [
            +     [0]: "A"
            +   ],
                isSearching: false,
                token: Secret(a0Aaaa)
              )

          (Expected: −, Actual: +)
          Stored at: \(path)
          If the change is intended, re-record with SNAPSHOT_RECORD=1; otherwise fix the code.
          """
        ], line: #line + 2
      ) {
        SnapshotSettings.$current.withValue(settings) { assertSnapshot(of: state, named: "state") }
      }
    }
  }

  @Test func theRecordVariableReRecords() async throws {
    try await withTemporaryDirectory { directory in
      let recording = SnapshotSettings(
        directory: directory, environment: { $0 == "SNAPSHOT_RECORD" ? "1" : nil })
      let path = "\(directory)/AssertSnapshotTests/theRecordVariableReRecords.txt"
      try FileManager.default.createDirectory(
        atPath: directory + "/AssertSnapshotTests", withIntermediateDirectories: true)
      try "old text\n".write(toFile: path, atomically: true, encoding: .utf8)
      await expectFailures(
        [
          """
          Re-recorded snapshot "theRecordVariableReRecords" because SNAPSHOT_RECORD is set.

          Recorded: \(path)
          Unset SNAPSHOT_RECORD and run the test again.
          """
        ]
      ) {
        SnapshotSettings.$current.withValue(recording) { assertSnapshot(of: "new text") }
      }
      let rerecorded = try String(contentsOfFile: path, encoding: .utf8)
      #expect(rerecorded == "new text\n")
      let checking = SnapshotSettings(
        directory: directory, environment: { $0 == "SNAPSHOT_RECORD" ? "0" : nil })
      #expect(!checking.isRecording)
      SnapshotSettings.$current.withValue(checking) { assertSnapshot(of: "new text") }
    }
  }

  @Test func aStringIsStoredAsIs() async throws {
    try await withTemporaryDirectory { directory in
      let settings = SnapshotSettings(directory: directory, environment: { _ in nil })
      await expectFailures(
        [
          """
          No snapshot was stored for "aStringIsStoredAsIs.text", so one was recorded.

          Recorded: \(directory)/AssertSnapshotTests/aStringIsStoredAsIs.text.txt
          Read it, commit it, and run the test again.
          """
        ]
      ) {
        SnapshotSettings.$current.withValue(settings) {
          assertSnapshot(of: "line \"1\"\nline 2", named: "text")
        }
      }
      let recorded = try String(
        contentsOfFile: "\(directory)/AssertSnapshotTests/aStringIsStoredAsIs.text.txt",
        encoding: .utf8)
      #expect(recorded == "line \"1\"\nline 2\n")
    }
  }

  @Test func aCommittedSnapshotBesideTheTestPasses() {
    assertSnapshot(of: state)
  }
}
