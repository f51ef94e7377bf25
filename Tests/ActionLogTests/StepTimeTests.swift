import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// Every step records when it was sent, in milliseconds since the recording started, on the
/// clock the recording was given; `replay` shows it, and verification ignores it.
@MainActor
struct StepTimeTests {
  @Test func stepsAreTimedOnTheRecordingsClock() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("timed.jsonl")
    let clock = ManualClock()
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(
      to: url, feature: "login", options: RecordingOptions(clock: RecordingClock(clock)))
    store.send(.edit(.set(\.username, to: "d")))
    await clock.advance(by: .milliseconds(1_500))
    store.send(.edit(.set(\.username, to: "de")))
    await clock.advance(by: .seconds(61) + .microseconds(999))
    store.send(.edit(.set(\.username, to: "dem")))
    await recorder.close()

    let lines = try folder.lines(of: url)
    try #require(lines.count > 3, "\(lines)")
    #expect(lines[1].hasPrefix(#"{"seq":1,"time":0,"origin":"user""#))
    #expect(lines[2].hasPrefix(#"{"seq":2,"time":1500,"origin":"user""#))
    #expect(lines[3].hasPrefix(#"{"seq":3,"time":62500,"origin":"user""#))
    let result = try Replayer(reducer: LoginReducer()).replay(url, keepingSteps: true)
    #expect(result.steps.map(\.time) == [.zero, .milliseconds(1_500), .milliseconds(62_500)])

    let printed = try await ReplayProcess.run([url.path])
    #expect(printed.status == 0)
    #expect(
      printed.stdout.contains(#"#2 0:01.500 user edit(field: "username", value: "de")"#),
      "\(printed.stdout)")
    #expect(printed.stdout.contains(#"#3 1:02.500 user edit(field: "username", value: "dem")"#))
  }

  @Test func verificationIgnoresTheTimes() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("timed.jsonl")
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(to: url, feature: "login")
    store.send(.edit(.set(\.username, to: "d")))
    store.send(.edit(.set(\.username, to: "de")))
    await recorder.close()
    var lines = try folder.lines(of: url)
    try #require(lines.count > 2, "\(lines)")
    lines[2] = lines[2].replacingOccurrences(
      of: #""time":[0-9]+"#, with: #""time":987654321"#, options: .regularExpression)
    let edited = try folder.write("edited.jsonl", lines: lines)
    let result = try Replayer(reducer: LoginReducer()).replay(edited, keepingSteps: true)
    #expect(result.steps.last?.time == .milliseconds(987_654_321))
    let verified = try await ReplayProcess.run(["--verify", edited.path])
    #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
  }
}

/// A step's time is a whole number of milliseconds from 0, and never before the step before's:
/// anything else is bad input named at its line (`-1` printed as `0:00.0-1`, `1.5` and `1e30`
/// read as "not valid JSON", and a time going back showed a negative gap on the page).
struct StepTimeValidationTests {
  private static let fixture = ReplayProcess.fixtures.appendingPathComponent("login.jsonl")

  /// The fixture's header and first two steps, the first step's time replaced by `first`.
  private static func log(first: String, second: String? = nil) throws -> [String] {
    let lines = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n")
      .map(String.init)
    func timed(_ line: String, _ time: String) -> String {
      line.replacing(/"time":\d+/, with: "\"time\":\(time)")
    }
    return [lines[0], timed(lines[1], first), second.map { timed(lines[2], $0) } ?? lines[2]]
  }

  private static func error(reading lines: [String]) throws -> ActionLogError? {
    let folder = try TemporaryFolder()
    let url = try folder.write("times.jsonl", lines: lines)
    do {
      _ = try Replayer(reducer: LoginReducer()).replay(url)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: ["-1", "1.5", "1e30", "-0.5"])
  func aTimeThatIsNoWholeNumberOfMillisecondsIsMalformed(time: String) throws {
    #expect(
      try Self.error(reading: Self.log(first: time))?.description
        == "line 2: malformed: invalid value at 'time' (expected a whole number of "
        + "milliseconds from 0)")
  }

  /// The largest time taken is `Int.max / 1000` milliseconds, as the docs say; one more is
  /// malformed.
  @Test func theLargestTimeIsIntMaxOverAThousandMilliseconds() throws {
    let largest = String(Int.max / 1_000)
    #expect(try Self.error(reading: Self.log(first: largest, second: largest)) == nil)
    #expect(
      try Self.error(reading: Self.log(first: String(Int.max / 1_000 + 1)))?.description
        == "line 2: malformed: invalid value at 'time' (expected a whole number of "
        + "milliseconds from 0)")
  }

  @Test func aTimeThatIsNoNumberSaysWhatATimeIs() throws {
    #expect(
      try Self.error(reading: Self.log(first: "\"soon\""))?.description
        == "line 2: malformed: wrong type at 'time' (expected Int)")
  }

  @Test func aTimeBeforeTheStepBeforesIsMalformedAndEqualTimesAreNot() throws {
    #expect(
      try Self.error(reading: Self.log(first: "5", second: "1"))?.description
        == "line 3: malformed: step time 1 ms is before the 5 ms of the step before")
    #expect(try Self.error(reading: Self.log(first: "5", second: "5")) == nil)
    #expect(try Self.error(reading: Self.log(first: "0", second: "1")) == nil)
  }
}
