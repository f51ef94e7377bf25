import Foundation
import Testing
import ToolTestSupport

/// Runs the built `store-bench` as CI and a person would, and checks what it prints. Timings
/// are never asserted here (a debug build on a shared machine says nothing about speed); the
/// shape of the report is.
struct StoreBenchTests {
  @Test func quickJSONRunPrintsOneWellFormedRowPerScenario() async throws {
    // A debug build of every scenario: about 8 s of CPU, at the lowest priority so the tests
    // beside it keep theirs. The timeout only bounds a hang.
    let output = try await DemoProcess.run(
      ["--quick", "--json"], tool: "store-bench", timeout: 600, lowPriority: true)
    #expect(output.status == 0)
    #expect(output.stderr == "")
    let rows = try output.stdout.split(separator: "\n").map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        "not a JSON object: \(line)")
    }
    #expect(rows.count >= 20)
    for row in rows {
      let scenario = try #require(row["scenario"] as? String)
      let ratio = try #require(row["ratio"] as? Double, "\(scenario): no ratio")
      let nanoseconds = try #require(row["ns_per_op"] as? Double, "\(scenario): no ns_per_op")
      let ops = try #require(row["ops"] as? Int, "\(scenario): no ops")
      let peak = try #require(row["peak_rss_mib"] as? Double, "\(scenario): no peak_rss_mib")
      let floor = try #require(row["floor"] as? String, "\(scenario): no floor")
      // An overhead is a difference of two timings: in a quick debug run beside other work
      // it can come out at or below zero, which the bench reports as 0.
      let lowest = scenario.contains("overhead") ? 0.0 : .leastNonzeroMagnitude
      #expect(ratio.isFinite && ratio >= lowest, "\(scenario)")
      #expect(nanoseconds.isFinite && nanoseconds >= lowest, "\(scenario)")
      #expect(ops > 0 && peak > 0, "\(scenario)")
      #expect(rows.contains { $0["scenario"] as? String == floor }, "\(scenario): no floor row")
      if scenario == floor { #expect(ratio == 1, "\(scenario) is its own floor") }
    }
    let names = rows.compactMap { $0["scenario"] as? String }
    for required in [
      "Store.send, counter, 0 observers", "Store.send, counter, 100 observers",
      "Store.send, login keystroke, 0 observers", "TestStore.send + assert, counter",
      "send, 1,000 rows, one changes: transition observer",
      "record login: overhead per send (main actor)", "replay login: Replayer.replay, verified",
    ] {
      #expect(names.contains(required), "missing scenario \(required)")
    }
  }

  @Test func timelineModeTimesTheHTMLPageAgainstVerifyAndComparesSizes() async throws {
    let output = try await DemoProcess.run(["--timeline", "300"], tool: "store-bench")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr == "")
    let lines = output.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("timeline: an app log of 300 steps, ") == true)
    #expect(
      lines.contains {
        $0.hasPrefix("  replay --verify (floor)   ")
          && $0.hasSuffix(" s   (target ≤ 1 s, idle machine)")
      })
    #expect(
      lines.contains {
        $0.hasPrefix("  replay --html   ") && $0.hasSuffix("× the floor; target ≤ 1.5×)")
      })
    #expect(
      lines.contains { $0.hasPrefix("  page size ") && $0.contains("× the log (target ≤ 2×)") })
    let page = try #require(
      lines.first { $0.hasPrefix("  page ") && $0.hasSuffix(".html") }?
        .split(separator: " ").last.map(String.init))
    let folder = URL(fileURLWithPath: page).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: folder) }
    let html = try String(contentsOf: URL(fileURLWithPath: page), encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains(#""stepCount":300"#))
  }

  @Test func anUnknownOptionIsAOneLineUsageError() async throws {
    let output = try await DemoProcess.run(["--fast"], tool: "store-bench")
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(output.stderr == "store-bench: unknown option '--fast' (see --help)\n")
  }

  /// Every option `--help` lists, mistyped, is suggested: the list and the help cannot drift.
  @Test func everyOptionTheHelpListsIsSuggestedForATypo() async throws {
    let help = try await DemoProcess.run(["--help"], tool: "store-bench").stdout
    // The options are the long names of the lines that start with one, after any short name
    // (`-h, --help`); the prose around them names `replay`'s options too.
    let options = help.split(separator: "\n").compactMap { line -> String? in
      let words = line.split(separator: " ")
      guard words.first?.hasPrefix("-") == true else { return nil }
      return words.prefix(2).first { $0.hasPrefix("--") }.map(String.init)
    }.sorted()
    #expect(options == ["--group", "--help", "--json", "--quick", "--timeline"], "\(options)")
    for option in options {
      let typo = HelpOptions.typo(of: option)
      let output = try await DemoProcess.run([typo], tool: "store-bench")
      #expect(output.status == 2)
      #expect(
        output.stderr
          == "store-bench: unknown option '\(typo)'; did you mean '\(option)'? (see --help)\n")
    }
  }

  @Test func anUnknownGroupIsAOneLineUsageError() async throws {
    let output = try await DemoProcess.run(["--group", "nope"], tool: "store-bench")
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "store-bench: --group must be one of counter, login, scoped, teststore, actionlog, "
        + "scale, rows, record, not 'nope' (see --help)\n")
  }

  /// A mistyped group gets a did-you-mean, as a mistyped option does.
  @Test func aMistypedGroupGetsADidYouMean() async throws {
    let output = try await DemoProcess.run(["--group", "scoepd"], tool: "store-bench")
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(
      output.stderr
        == "store-bench: --group must be one of counter, login, scoped, teststore, actionlog, "
        + "scale, rows, record, not 'scoepd'; did you mean 'scoped'? (see --help)\n")
  }

  @Test func helpExplainsTheOptions() async throws {
    let output = try await DemoProcess.run(["--help"], tool: "store-bench")
    #expect(output.status == 0)
    #expect(
      output.stdout.hasPrefix("usage: store-bench [--quick] [--json] [--group NAME] [--help]\n"))
    #expect(output.stdout.contains("swift run -c release store-bench"))
  }
}
