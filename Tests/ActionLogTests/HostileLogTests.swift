import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// Hand-made logs that no recorder writes: numbers out of range, a header cut or nested too
/// deep, a log without steps, and `--emit-test` on logs that cannot replay. Each is a clear
/// error naming the line, or a clear note.
struct HostileLogTests {
  /// Replays `lines` as a counter log: the steps that replayed, and the error that stopped it.
  private func replay(_ lines: [String], terminated: Bool = true) throws -> (
    steps: [Int], error: ActionLogError?
  ) {
    let folder = try TemporaryFolder()
    let url = try folder.write("hostile.jsonl", lines: lines, terminated: terminated)
    var steps: [Int] = []
    do {
      let session = try Replayer(reducer: Counter()).steps(of: url)
      while let step = try session.next() { steps.append(step.sequenceNumber) }
      return (steps, nil)
    } catch {
      return (steps, error)
    }
  }

  /// A FIFO, a folder or a device given as a log is refused when it is opened: reading a FIFO
  /// that nothing writes to would wait for ever.
  @Test func whatIsNotARegularFileIsRefusedWhenOpened() throws {
    let folder = try TemporaryFolder()
    let pipe = folder.file("pipe.jsonl")
    try #require(mkfifo(pipe.path, 0o600) == 0)
    // Each named by its whole path, as given.
    let notLogs = [
      (pipe, "'\(pipe.path)' is a FIFO, not an action log"),
      (folder.url, "\(Sanitized.path(folder.url.relativePath)) is a folder, not an action log"),
      (URL(fileURLWithPath: "/dev/null"), "'/dev/null' is a device, not an action log"),
    ]
    for (url, message) in notLogs {
      #expect(throws: ActionLogError.ioError(message)) {
        try Replayer(reducer: Counter()).steps(of: url)
      }
      #expect(throws: ActionLogError.ioError(message)) {
        try ActionLogHeaderInfo(contentsOf: url)
      }
    }
  }

  @Test func aFirstSequenceNumberBelowOneIsMalformed() throws {
    let result = try replay([counterHeader, try counterLine(-5, #"{"increment":{}}"#, count: 1)])
    #expect(result.steps.isEmpty)
    #expect(
      result.error
        == .malformedLine(line: 2, reason: "sequence number -5: steps are numbered from 1"))
    #expect(
      result.error?.description
        == "line 2: malformed: sequence number -5: steps are numbered from 1")
    let zero = try replay([counterHeader, try counterLine(0, #"{"increment":{}}"#, count: 1)])
    #expect(
      zero.error == .malformedLine(line: 2, reason: "sequence number 0: steps are numbered from 1"))
  }

  @Test func aGapThatDropsNoTransitionsIsMalformed() throws {
    for dropped in [-5, 0] {
      let gap = #"{"kind":"gap","dropped":\#(dropped),"state":{"count":3,"isLoading":false}}"#
      let result = try replay([
        counterHeader, try counterLine(1, #"{"increment":{}}"#, count: 1), gap,
        try counterLine(9, #"{"increment":{}}"#, count: 4),
      ])
      #expect(result.steps == [1])
      #expect(
        result.error
          == .malformedLine(
            line: 3, reason: "a gap of \(dropped) dropped transitions: a gap drops at least 1"))
    }
  }

  @Test func aHeaderCutMidWriteSaysSo() throws {
    let cut = String(counterHeader.prefix(70))
    let result = try replay([cut], terminated: false)
    #expect(
      result.error
        == .malformedLine(
          line: 1, reason: "the header is cut off (the app stopped while writing it)"))
    #expect(
      result.error?.description
        == "line 1: malformed: the header is cut off (the app stopped while writing it)")
  }

  @Test func aDeeplyNestedHeaderSaysSo() throws {
    let nested =
      counterHeader.replacingOccurrences(
        of: #""initialState":{"count":0,"isLoading":false}"#,
        with: #""initialState":{"count":0,"isLoading":false,"x":"#
          + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}")
    let result = try replay([nested])
    #expect(
      result.error
        == .malformedLine(line: 1, reason: "nested more than 512 levels deep"))
  }

  @Test func aDeeplyNestedStepSaysSo() throws {
    let step =
      #"{"seq":1,"origin":"user","action":{"increment":{"x":"#
      + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
      + #"}},"effects":[],"digest":"0"}"#
    let result = try replay([counterHeader, step])
    #expect(result.error == .malformedLine(line: 2, reason: "nested more than 512 levels deep"))
  }

  // MARK: - replay

  @Test(arguments: [[], ["--verify"], ["--state"]])
  func aLogWithoutStepsSaysSoAndSucceeds(_ options: [String]) async throws {
    let folder = try TemporaryFolder()
    let header = try String(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8
    ).split(separator: "\n")[0]
    _ = try folder.write("header-only.jsonl", lines: [String(header)])
    let run = try await ReplayProcess.run(options + ["header-only.jsonl"], in: folder.url)
    #expect(run.status == 0)
    #expect(
      run.stderr == "replay: the log has no steps: nothing was recorded after its header\n")
  }

  @Test func helpSaysWhatALogWithoutStepsDoes() async throws {
    let run = try await ReplayProcess.run(["--help"])
    #expect(run.stdout.contains("A log with no steps"))
  }

  /// `--emit-test` replays and verifies the whole log first: a log that would give a failing
  /// test is bad input (exit status 2) and no test is printed.
  @Test(arguments: ["invalid UTF-8", "reordered steps", "an over-long line"])
  func emitTestRefusesALogThatDoesNotReplay(_ defect: String) async throws {
    let folder = try TemporaryFolder()
    let lines = try String(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8
    ).split(separator: "\n").map { Data($0.utf8) }
    var bad = lines
    let message: String
    switch defect {
    case "invalid UTF-8":
      bad[3] = Data([0x7B, 0xFF, 0xFE, 0x7D])
      message = "replay: line 4: binary data, not text; is this an action log?\n"
    case "reordered steps":
      bad.swapAt(2, 3)
      message = "replay: line 3: malformed: sequence number 3 does not follow 1\n"
    default:
      bad[3] = Data(repeating: UInt8(ascii: " "), count: 16 * 1024 * 1024 + 1)
      message =
        "replay: line 4: longer than the limit of 16777216 bytes; reading stopped there\n"
    }
    var data = Data()
    for line in bad { data += line + [0x0A] }
    try data.write(to: folder.file("bad.jsonl"))
    let run = try await ReplayProcess.run(["--emit-test", "bad.jsonl"], in: folder.url)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr == message)
  }
}
