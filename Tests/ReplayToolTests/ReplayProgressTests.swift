import Foundation
import ReplayTool
import Testing
import ToolTestSupport

/// Progress on standard error: only after half a second, drawn over itself, cleared at the
/// end; and on a real terminal only.
@MainActor
struct ReplayProgressTests {
  /// A clock the test moves by hand.
  final class Hands: @unchecked Sendable {
    let start = ContinuousClock.now
    var elapsed: Duration = .zero
    var now: ContinuousClock.Instant { start + elapsed }
  }

  @Test func aLineShowsAfterHalfASecondIsRedrawnAndCleared() {
    let hands = Hands()
    var written: [String] = []
    let progress = ReplayProgress(
      totalBytes: 4_000_000, write: { written.append($0) }, now: { hands.now })
    for step in 1...1_024 {
      hands.elapsed = .milliseconds(step / 4)  // 256 steps: 64 ms
      progress.update(.init(steps: step, bytes: step * 1_000))
    }
    #expect(written.isEmpty, "nothing in the first half second")
    hands.elapsed = .seconds(1)
    for step in 1_025...1_280 { progress.update(.init(steps: step, bytes: 1_000_000)) }
    #expect(
      written == ["\r\u{1B}[Kreplay: 1,280 steps · 1,280 steps/s · about 3 seconds left"])
    progress.clear()
    progress.clear()
    #expect(written.last == "\r\u{1B}[K" && written.count == 2, "cleared once")
  }

  @Test func theLineSaysStepsRateAndTimeLeftInWords() {
    #expect(
      ReplayProgress.line(.init(steps: 120_000, bytes: 10), elapsed: .seconds(2), totalBytes: 610)
        == "replay: 120,000 steps · 60,000 steps/s · about 2 minutes left")
    #expect(
      ReplayProgress.line(.init(steps: 5, bytes: 100), elapsed: .seconds(1), totalBytes: 100)
        == "replay: 5 steps · 5 steps/s")
  }

  /// Through a pseudo-terminal (`script`), a replay that takes over half a second shows the
  /// line on standard error and clears it before its verdict; through a pipe it prints nothing
  /// extra. The long log is written as text — the fixture's header and 25,000 steps that
  /// each type the same letter, so its states never change — cheap to make and to replay.
  @Test func aTerminalSeesProgressAndAPipeDoesNot() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let fixture = try String(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8)
    let lines = fixture.split(separator: "\n")
    let header = try #require(lines.first)
    // The fixture's first step types "d": its digest is the state's after every step here.
    let first = try #require(lines.dropFirst().first)
    #expect(first.contains(#""action":{"edit":{"_0":{"field":"username","value":"d"}}}"#))
    let digest = try #require(
      first.firstMatch(of: /"digest":"([0-9a-f]{16})"/).map { String($0.output.1) })
    var text = header + "\n"
    // 25,000 steps: 2.5 s of CPU for a debug replay on the 2-core CI machine, so over half a
    // second on one five times as fast.
    for step in 1...25_000 {
      text +=
        #"{"seq":\#(step),"time":1,"origin":"user","action":{"edit":{"_0":{"field":"username","value":"d"}}},"#
        + #""effects":[],"digest":"\#(digest)"}"# + "\n"
    }
    try Data(text.utf8).write(to: folder.file("long.jsonl"))
    let piped = try await ReplayProcess.run(["--verify", "long.jsonl"], in: folder.url)
    #expect(piped.status == 0 && piped.stderr == "", "\(piped.stderr)")
    #expect(!piped.stdout.contains("\u{1B}"))

    let script = try #require(
      ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) },
      "script (util-linux) makes the pseudo-terminal")
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    let replay = try ReplayProcess.executable().path
    let terminal = try await ProcessRunner.run(
      URL(fileURLWithPath: script), ["-qec", "\(replay) --verify long.jsonl", "/dev/null"],
      in: folder.url, environment: environment, timeout: .seconds(120))
    #expect(terminal.status == 0, "\(terminal.stderr)")
    let output = terminal.stdout
    #expect(output.contains("\r\u{1B}[Kreplay: ") && output.contains(" steps/s"), "\(output)")
    #expect(output.contains("\r\u{1B}[Kverified 25000 steps"), "cleared before the verdict")
  }
}
