import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

#if canImport(Glibc)
  import Glibc
#endif

struct ActionLogReaderTests {
  typealias Reader = ActionLogReader<Counter.State, Counter.Action, Counter.Effect>

  /// Replays `url` and returns the sequence numbers that replayed, and the error that stopped it.
  func replay(_ url: URL, options: ActionLogReadOptions = .init()) -> (
    steps: [Int], error: ActionLogError?, warnings: [ActionLogError]
  ) {
    var steps: [Int] = []
    do {
      let session = try Replayer(reducer: Counter()).steps(of: url, options: options)
      do {
        while let step = try session.next() { steps.append(step.sequenceNumber) }
      } catch {
        return (steps, error, session.warnings)
      }
      return (steps, nil, session.warnings)
    } catch {
      return (steps, error, [])
    }
  }

  @Test func emptyFile() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write("empty.jsonl", lines: [])
    #expect(replay(url).error == .emptyFile)
    #expect(
      ActionLogError.emptyFile.description
        == "the file is empty: an action log starts with a header line")
    let blank = try folder.write("blank.jsonl", lines: ["", "", ""])
    #expect(replay(blank).error == .emptyFile)
  }

  @Test func missingHeader() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write(
      "no-header.jsonl", lines: [try counterLine(1, #"{"increment":{}}"#, count: 1)])
    #expect(replay(url).error == .missingHeader(line: 1))
    #expect(
      ActionLogError.missingHeader(line: 1).description
        == #"line 1: missing header: an action log starts with {"format":"loginstore.actionlog","version":1,…}"#
    )
    let text = try folder.write("text.jsonl", lines: ["hello world"])
    #expect(replay(text).error == .missingHeader(line: 1))
  }

  @Test func foreignHeader() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write("foreign.jsonl", lines: [#"{"format":"other.log","version":1}"#])
    #expect(replay(url).error == .foreignFormat("other.log"))
    #expect(
      ActionLogError.foreignFormat("other.log").description
        == "not an action log: the header's format is 'other.log', expected 'loginstore.actionlog'")
  }

  @Test func unknownFormatVersion() throws {
    let folder = try TemporaryFolder()
    let header = counterHeader.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
    let url = try folder.write("v2.jsonl", lines: [header])
    #expect(replay(url).error == .unsupportedVersion(found: 2, supported: 1))
    #expect(
      ActionLogError.unsupportedVersion(found: 2, supported: 1).description
        == "this build reads version 1; the file is version 2")
  }

  /// A log of another feature, whose state this reader's type cannot even decode, is named as
  /// another feature — not as a state with a missing field.
  @Test func anotherFeaturesLogIsAMismatchBeforeItsStateIsDecoded() throws {
    let folder = try TemporaryFolder()
    let header =
      #"{"format":"loginstore.actionlog","version":1,"feature":"shop","#
      + #""created":"2026-11-22T04:56:22Z","checkpointInterval":100,"initialState":{"cart":[]}}"#
    let url = try folder.write("shop.jsonl", lines: [header])
    #expect(throws: ActionLogError.featureMismatch(expected: "login", found: "shop")) {
      try ActionLogReader<LoginState, LoginAction, LoginEffect>(
        url: url, options: ActionLogReadOptions(expectedFeature: "login"))
    }
  }

  @Test func otherFeature() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write("counter.jsonl", lines: [counterHeader])
    let error = replay(url, options: ActionLogReadOptions(expectedFeature: "login")).error
    #expect(error == .featureMismatch(expected: "login", found: "counter"))
    #expect(
      error?.description == "the log records feature 'counter'; this replayer is for 'login'")
  }

  @Test func malformedLineNamesItsNumberAndKeepsTheStepsBeforeIt() throws {
    let folder = try TemporaryFolder()
    let good = try counterLine(1, #"{"increment":{}}"#, count: 1)
    let broken = try folder.write(
      "broken.jsonl", lines: [counterHeader, good, #"{"seq":2,"origin""#])
    let result = replay(broken)
    #expect(result.steps == [1])
    #expect(result.error == .malformedLine(line: 3, reason: "not valid JSON"))
    #expect(result.error?.description == "line 3: malformed: not valid JSON")

    let missing = try folder.write(
      "missing.jsonl",
      lines: [counterHeader, good, #"{"seq":2,"origin":"user","effects":[],"digest":"0"}"#])
    #expect(replay(missing).error == .malformedLine(line: 3, reason: "missing 'action'"))

    let wrongType = try folder.write(
      "type.jsonl", lines: [counterHeader, try counterLine(1, #"{"add":{"_0":"five"}}"#, count: 5)])
    #expect(
      replay(wrongType).error
        == .malformedLine(line: 2, reason: "wrong type at 'action.add._0' (expected Int)"))

    let skipped = try folder.write(
      "skipped.jsonl",
      lines: [counterHeader, good, try counterLine(5, #"{"increment":{}}"#, count: 2)])
    #expect(
      replay(skipped).error
        == .malformedLine(line: 3, reason: "sequence number 5 does not follow 1"))

    let kind = try folder.write("kind.jsonl", lines: [counterHeader, #"{"kind":"party"}"#])
    #expect(replay(kind).error == .malformedLine(line: 2, reason: "unknown line kind 'party'"))
  }

  @Test func unknownActionCaseIsNamed() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write(
      "unknown.jsonl",
      lines: [
        counterHeader, try counterLine(1, #"{"increment":{}}"#, count: 1),
        try counterLine(2, #"{"frobnicate":{"_0":1}}"#, count: 1),
      ])
    let result = replay(url)
    #expect(result.steps == [1])
    #expect(result.error == .unknownAction(line: 3, name: "frobnicate"))
    #expect(result.error?.description == "line 3: unknown action case 'frobnicate'")

    let effect = try folder.write(
      "effect.jsonl",
      lines: [
        counterHeader,
        try counterLine(1, #"{"increment":{}}"#, count: 1, effects: #"[{"beep":{}}]"#),
      ])
    #expect(replay(effect).error == .malformedLine(line: 2, reason: "unknown effect case 'beep'"))
  }

  @Test func truncatedLastLineWarnsAndReplaysEverythingBeforeIt() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write(
      "truncated.jsonl",
      lines: [
        counterHeader, try counterLine(1, #"{"increment":{}}"#, count: 1),
        try counterLine(2, #"{"add":{"_0":4}}"#, count: 5), #"{"seq":3,"origin":"us"#,
      ],
      terminated: false)
    let result = replay(url)
    #expect(result.steps == [1, 2])
    #expect(result.error == nil)
    #expect(result.warnings == [.truncatedLastLine(line: 4)])
    #expect(result.warnings.first?.isWarning == true)
    #expect(
      result.warnings.first?.description
        == "line 4: the last line is incomplete (the app stopped mid-write); "
        + "everything before it was replayed")
    let final = try Replayer(reducer: Counter()).replay(url)
    #expect(final.finalState.count == 5)
  }

  @Test func gibibyteLineFailsWithBoundedMemory() async throws {
    try await MemoryHeavyTests.shared.run { try gibibyteLine() }
  }

  private func gibibyteLine() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("huge.jsonl")
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    try handle.write(contentsOf: Data((counterHeader + "\n").utf8))
    try handle.write(
      contentsOf: Data((try counterLine(1, #"{"increment":{}}"#, count: 1) + "\n").utf8))
    // A line of 1 GiB of zero bytes, as a sparse file: nothing to write, no disk taken.
    try handle.truncate(atOffset: try handle.seekToEnd() + (1 << 30))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("\n".utf8))
    try handle.close()

    // VmHWM is process-wide: reset it to the current resident size first (Linux `clear_refs`
    // 5), as `ActionLogMutationTests` does, so an earlier test's peak cannot hide this one's.
    let canReset = Memory.resetPeak()
    let before = Memory.kibibytes("VmRSS")
    let result = replay(url)
    let after = Memory.kibibytes(canReset ? "VmHWM" : "VmRSS")
    #expect(result.steps == [1])
    #expect(result.error == .lineTooLong(line: 3, limit: 16 * 1024 * 1024))
    #expect(
      result.error?.description
        == "line 3: longer than the limit of 16777216 bytes; reading stopped there")
    // A reader that held the line would add its 1 GiB; the bound leaves half of that to the
    // tests running beside this one, which move the same process-wide peak (a 100 MiB line
    // with a 90 MiB bound once saw 111 MiB of growth on a loaded machine).
    #expect(
      after - before < 512 * 1024,
      "the reader must not hold the whole line (the peak grew by \(after - before) KiB)")

    let small = replay(url, options: ActionLogReadOptions(maximumLineLength: 1000))
    #expect(small.error == .lineTooLong(line: 3, limit: 1000))
  }

  @Test func binaryGarbageIsNotText() throws {
    let folder = try TemporaryFolder()
    var generator = SplitMix(seed: 42)
    let garbage = Data((0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    let url = folder.file("garbage.bin")
    try garbage.write(to: url)
    #expect(replay(url).error == .notText(line: 1))
    #expect(
      ActionLogError.notText(line: 1).description
        == "line 1: binary data, not text; is this an action log?")

    let tail = folder.file("tail.jsonl")
    var mixed = Data(
      (counterHeader + "\n" + (try counterLine(1, #"{"increment":{}}"#, count: 1)) + "\n").utf8)
    mixed.append(contentsOf: [0xFF, 0x00, 0xFE, 0x7B, 0x0A])
    try mixed.write(to: tail)
    let result = replay(tail)
    #expect(result.steps == [1])
    #expect(result.error == .notText(line: 3))
  }

  /// The path is named whole, as it was given (issue 49 §2: only its last part was).
  @Test func missingFile() throws {
    let folder = try TemporaryFolder()
    let url = folder.file("nope.jsonl")
    #expect(
      replay(url).error == .ioError("cannot open '\(url.path)': No such file or directory"))
  }

  @Test func headerInfoNeedsNoTypes() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write("info.jsonl", lines: [counterHeader])
    let info = try ActionLogHeaderInfo(contentsOf: url)
    #expect(info.feature == "counter")
    #expect(info.version == 1)
    #expect(info.checkpointInterval == 0)
    #expect(info.created == Date(timeIntervalSince1970: 1_795_323_382))
  }

  @Test func readerReturnsRecordedEntries() throws {
    let folder = try TemporaryFolder()
    let url = try folder.write(
      "entries.jsonl",
      lines: [
        counterHeader,
        try counterLine(
          1, #"{"loadTapped":{}}"#, count: 0, effects: #"[{"load":{}}]"#, isLoading: true),
      ])
    let reader = try Reader(url: url)
    guard case .transition(let entry) = try reader.next() else {
      Issue.record("expected a transition")
      return
    }
    #expect(entry.line == 2)
    #expect(entry.action == .loadTapped)
    #expect(entry.effects == [.load])
    #expect(entry.checkpoint == nil)
    #expect(try reader.next() == nil)
  }
}

struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
