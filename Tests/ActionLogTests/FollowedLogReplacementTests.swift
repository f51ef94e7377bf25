import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// `replay --follow` tells a log recorded again at its path by the open file, whatever the
/// timing: another file at the path, or the same one rewritten from the start, even when the
/// new recording is already longer than what was read of the old one.
@MainActor
struct FollowedLogReplacementTests {
  /// Records `sends` increments into `name` and returns the log.
  func record(_ name: String, sends: Int, in folder: TemporaryFolder) async throws -> URL {
    try await recordCounter(name, sends: sends, in: folder)
  }

  /// A following session of `url` that has read everything written so far.
  func drained(_ url: URL) throws -> ReplaySession<Counter> {
    let session = try Replayer(reducer: Counter()).following(url)
    while try session.next() != nil {}
    #expect(session.hasEnded)
    return session
  }

  /// Writes `bytes` over the start of the file at `url`, in place, as an app that records the
  /// path again does.
  func overwrite(_ url: URL, with bytes: Data) throws {
    let handle = try FileHandle(forWritingTo: url)
    try handle.write(contentsOf: bytes)
    try handle.close()
  }

  @Test func theSameRecordingIsNotAReplacement() async throws {
    let folder = try TemporaryFolder()
    let live = try await record("live.jsonl", sends: 2, in: folder)
    let session = try drained(live)
    #expect(!session.isReplaced())
  }

  @Test func aLongerRecordingWrittenOverTheOldOneInPlaceIsSeen() async throws {
    let folder = try TemporaryFolder()
    let live = try await record("live.jsonl", sends: 2, in: folder)
    let longer = try Data(contentsOf: try await record("b.jsonl", sends: 30, in: folder))
    let session = try drained(live)
    #expect(longer.count > session.bytesRead)
    // As an app that records the path again does, but faster than any look at the path:
    // the same file, written from the start, already longer than what was read.
    try overwrite(live, with: longer)
    #expect(session.isReplaced())
  }

  @Test func anotherFileAtThePathIsSeen() async throws {
    let folder = try TemporaryFolder()
    let live = try await record("live.jsonl", sends: 2, in: folder)
    let other = try await record("b.jsonl", sends: 30, in: folder)
    let session = try drained(live)
    try FileManager.default.removeItem(at: live)
    #expect(!session.isReplaced(), "nothing at the path yet: waited for")
    try FileManager.default.copyItem(at: other, to: live)
    #expect(session.isReplaced())
  }

  @Test func aCutFileIsSeen() async throws {
    let folder = try TemporaryFolder()
    let live = try await record("live.jsonl", sends: 2, in: folder)
    let session = try drained(live)
    let handle = try FileHandle(forWritingTo: live)
    try handle.truncate(atOffset: 10)
    try handle.close()
    #expect(session.isReplaced())
  }

  @Test func aChangeOfTheFirstBytesAloneIsSeen() async throws {
    let folder = try TemporaryFolder()
    let live = try await record("live.jsonl", sends: 2, in: folder)
    let session = try drained(live)
    // Same length, same last bytes: only the header differs (another recording's time).
    var bytes = try Data(contentsOf: live)
    let created = try #require(bytes.firstRange(of: Data("\"created\":\"".utf8)))
    bytes[created.upperBound] = bytes[created.upperBound] == UInt8(ascii: "1") ? 50 : 49
    try overwrite(live, with: bytes)
    #expect(session.isReplaced())
  }

  /// Same length, same first bytes: only the last bytes read differ, as when another recording
  /// of the same length and header time ends in another step (issue 49 §5: no test changed the
  /// tail alone, so a reader that stopped checking it went unnoticed).
  @Test func aChangeOfTheLastBytesAloneIsSeen() async throws {
    let folder = try TemporaryFolder()
    let live = try await record("live.jsonl", sends: 30, in: folder)
    let session = try drained(live)
    var bytes = try Data(contentsOf: live)
    // Past the first 512 bytes the reader keeps, within the last 64.
    #expect(bytes.count > 1_024)
    let last = bytes.count - 3
    bytes[last] = bytes[last] == UInt8(ascii: "d") ? UInt8(ascii: "e") : UInt8(ascii: "d")
    try overwrite(live, with: bytes)
    #expect(try Data(contentsOf: live).count == bytes.count)
    #expect(session.isReplaced())
  }
}
