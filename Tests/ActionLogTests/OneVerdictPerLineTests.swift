import ActionLog
import Foundation
import Testing
import ToolTestSupport

/// Every line of a log gets one verdict, where it is read, in the order read: a checkpoint or a
/// patch that lies is malformed at its own line, whatever follows the `closed` marker is named,
/// and a file rewritten while it is read is said to be, not taken for the log.
@MainActor
struct OneVerdictPerLineTests {
  /// The error that stops reading `url` to its end with a plain reader that never asks for the
  /// recorded state, or `nil`.
  func readingError(_ url: URL) -> ActionLogError? {
    do {
      let reader = try ActionLogReader<Counter.State, Counter.Action, Counter.Effect>(url: url)
      while try reader.next() != nil {}
      return nil
    } catch {
      return error
    }
  }

  /// The error that stops a verified replay of `url`, or `nil`.
  func verifyingError(_ url: URL) -> ActionLogError? {
    do {
      _ = try Replayer(reducer: Counter()).replay(url, verify: true)
      return nil
    } catch {
      return error
    }
  }

  /// Writes `lines` over the log at `url`, line `number` (1-based) changed by `change`, which
  /// must change it.
  func edit(_ url: URL, line number: Int, _ change: (String) -> String) throws {
    var lines = try String(decoding: Data(contentsOf: url), as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let changed = change(lines[number - 1])
    try #require(changed != lines[number - 1])
    lines[number - 1] = changed
    try Data(lines.joined(separator: "\n").utf8).write(to: url)
  }

  @Test func aCheckpointThatDoesNotHaveItsOwnDigestIsMalformedAtItsLine() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordCounter("counter.jsonl", sends: 4, checkpointInterval: 2, in: folder)
    // Line 3 is step 2, a checkpoint: its state says 7, its digest the true 2.
    try edit(url, line: 3) {
      $0.replacingOccurrences(of: #""checkpoint":{"count":2,"#, with: #""checkpoint":{"count":7,"#)
    }
    let expected = ActionLogError.malformedLine(
      line: 3,
      reason: "its 'checkpoint' does not have the digest its 'digest' records (one of the two "
        + "was changed)")
    #expect(readingError(url) == expected)
    #expect(verifyingError(url) == expected)
  }

  @Test func aPatchThatLiesIsMalformedAtItsOwnLineNotALaterOne() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordCounter("counter.jsonl", sends: 8, checkpointInterval: 0, in: folder)
    // Line 4 (step 3) also sets a field no later patch touches; its digest is still the true
    // one, and every later line is intact.
    try edit(url, line: 4) {
      $0.replacingOccurrences(
        of: #""patch":[{"at":["count"],"value":3}]"#,
        with: #""patch":[{"at":["count"],"value":3},{"at":["isLoading"],"value":true}]"#)
    }
    let expected = ActionLogError.malformedLine(
      line: 4,
      reason: "the state its 'patch' rebuilds does not have the digest its 'digest' records (one "
        + "of the two was changed)")
    #expect(readingError(url) == expected)
    #expect(verifyingError(url) == expected)
  }

  @Test func aSecondRecordingAfterTheClosedMarkerIsNamedAtItsHeader() async throws {
    let folder = try TemporaryFolder()
    let first = try await recordCounter("a.jsonl", sends: 3, in: folder)
    let second = try await recordCounter("b.jsonl", sends: 8, in: folder)
    let both = folder.file("both.jsonl")
    try (try Data(contentsOf: first) + Data(contentsOf: second)).write(to: both)
    // Header, 3 steps, `closed` on line 5: the second header is line 6.
    let expected = ActionLogError.malformedLine(
      line: 6,
      reason: "a second recording begins here, after the 'closed' marker on line 5: a log file "
        + "holds one recording; split the file at this line to read each")
    #expect(readingError(both) == expected)
    #expect(verifyingError(both) == expected)
  }

  @Test func aStepAfterTheClosedMarkerIsMalformedNotDropped() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordCounter("counter.jsonl", sends: 2, in: folder)
    let step = try counterLine(3, #"{"increment":{}}"#, count: 3)
    try (try Data(contentsOf: url) + Data((step + "\n").utf8)).write(to: url)
    let expected = ActionLogError.malformedLine(
      line: 5, reason: "a line after the 'closed' marker on line 4, which ends the recording")
    #expect(readingError(url) == expected)
    #expect(verifyingError(url) == expected)
  }

  /// A recorder that stopped writes nothing after its `stopped` marker: a step there is
  /// malformed, not dropped with the rest (as after `closed`).
  @Test func aStepAfterTheStoppedMarkerIsMalformedNotDropped() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordCounter("counter.jsonl", sends: 2, in: folder)
    var lines = try String(decoding: Data(contentsOf: url), as: UTF8.self)
      .split(separator: "\n").map(String.init)
    // Header, 2 steps, then `stopped` where `closed` was, and a third step after it.
    try #require(lines.last == #"{"kind":"closed"}"#)
    lines[lines.count - 1] = #"{"kind":"stopped","reason":"maximumFileSize","limit":1048576}"#
    lines.append(try counterLine(3, #"{"increment":{}}"#, count: 3))
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
    let expected = ActionLogError.malformedLine(
      line: 5, reason: "a line after the 'stopped' marker on line 4, which ends the recording")
    #expect(readingError(url) == expected)
    #expect(verifyingError(url) == expected)
  }

  /// `replay --verify` of two logs joined into one file (was: "verified 11 steps", exit 0).
  @Test func replayVerifySaysASecondRecordingBegins() async throws {
    let folder = try TemporaryFolder()
    let login = try Data(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"))
    try (login + login).write(to: folder.file("both.jsonl"))
    let closed = String(decoding: login, as: UTF8.self).split(separator: "\n").count
    let run = try await ReplayProcess.run(["--verify", "both.jsonl"], in: folder.url)
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "replay: line \(closed + 1): malformed: a second recording begins here, after the "
        + "'closed' marker on line \(closed): a log file holds one recording; split the file "
        + "at this line to read each\n")
  }

  /// A log long enough to take several reads, read in part, then written over in place by
  /// another recording (the same length, other bytes after its header) or cut: the reader says
  /// so at its next read instead of reading the other bytes as the rest of the log.
  @Test(arguments: ["another recording", "cut"])
  func aLogRewrittenWhileReadIsSaidToBe(_ how: String) async throws {
    let folder = try TemporaryFolder()
    let url = try await recordCounter("live.jsonl", sends: 5_000, in: folder)
    let original = try Data(contentsOf: url)
    // More than a prefetching reader reads ahead (8 batches of 256 lines, about 300 KiB here)
    // before its first step is taken.
    try #require(original.count > 600_000)
    let other = Data(
      String(decoding: original, as: UTF8.self)
        .replacingOccurrences(of: #"{"increment":{}}"#, with: #"{"incremenT":{}}"#).utf8)
    for prefetches in [false, true] {
      try original.write(to: url)
      let reader = try ActionLogReader<Counter.State, Counter.Action, Counter.Effect>(
        url: url, options: .init(), follows: false, prefetches: prefetches)
      _ = try reader.next()
      let handle = try FileHandle(forWritingTo: url)
      if how == "cut" {
        try handle.truncate(atOffset: UInt64(original.count * 3 / 4))
      } else {
        try handle.write(contentsOf: other)
      }
      try handle.close()
      var error: ActionLogError?
      do {
        while try reader.next() != nil {}
      } catch let thrown {
        error = thrown
      }
      guard case .rewrittenWhileRead(let line)? = error else {
        Issue.record("prefetches \(prefetches): \(String(describing: error))")
        continue
      }
      #expect(line > 2)
      #expect(
        error?.description
          == "line \(line): the file was rewritten or cut while it was read (was its path "
          + "recorded again?); nothing from here on is the log that was opened: read it again")
    }
  }
}
