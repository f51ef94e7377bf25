import ActionLog
import Foundation
import LoginFeature
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// The timeline's Action tab and Play button, as the page holds them: each step's action as
/// the log records it, and the controls the page's script wires (the browser half is
/// `TimelineBrowserTests`).
@MainActor struct TimelineActionTabTests {
  static let fixtures = ReplayProcess.fixtures

  @Test func eachStepsJSONIsItsActionExactlyAsTheLogRecordsIt() async throws {
    let folder = try TemporaryFolder()
    let password = "Canary-Pw-7f"
    let hostile = "</script><b>\u{202E}\"quoted\"\\"
    try await Recordings.login(
      [
        .edit(.set(\.username, to: PersonalData(hostile))),
        .edit(.set(\.password, to: Secret(password))),
        .loginButtonTapped,
      ],
      to: folder.file("recorded.jsonl"))
    try await Recordings.appMix(300, to: folder.file("mix.jsonl"))
    let logs = [
      Self.fixtures.appendingPathComponent("login.jsonl"),
      Self.fixtures.appendingPathComponent("login-canonical-v1.jsonl"),
      Self.fixtures.appendingPathComponent("app.jsonl"),
      folder.file("recorded.jsonl"), folder.file("mix.jsonl"),
    ]
    for log in logs {
      let run = try await ReplayProcess.run(["--html", "page.html", log.path], in: folder.url)
      #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
      let page = try TimelinePageData(contentsOf: folder.file("page.html"))
      let recorded = LogLines.actions(in: try String(contentsOf: log, encoding: .utf8))
      #expect(page.stepCount == recorded.count)
      #expect(!recorded.contains(nil))
      let shown = (0..<page.stepCount).map { page.actionJSON($0) }
      #expect(shown == recorded, "\(log.lastPathComponent)")
      #expect(!page.html.contains(password) && !page.html.contains("Canary"))
      try FileManager.default.removeItem(at: folder.file("page.html"))
    }
  }

  /// A log keeps its own spelling of a duration: the first canonical form's two words of
  /// attoseconds, not the seconds this build would write.
  @Test func aDurationIsShownInTheFormTheLogIsWrittenIn() async throws {
    let folder = try TemporaryFolder()
    let v1Action = #"{"wait":{"_0":[1,11553255926290448384]}}"#
    let v2Action = #"{"wait":{"_0":30}}"#
    for (algorithm, action) in [
      ("fnv1a64-canonical-v1", v1Action), ("fnv1a64-canonical-v2", v2Action),
    ] {
      let state = try StateDigest.of(Waiting.State(waits: 1))
      try folder.write(
        "wait.jsonl",
        lines: [
          #"{"format":"loginstore.actionlog","version":1,"feature":"waiting","#
            + #""created":"2026-11-25T01:54:55Z","digest":"\#(algorithm)","#
            + #""checkpointInterval":0,"initialState":{"waits":0}}"#,
          #"{"seq":1,"time":5,"origin":"user","action":\#(action),"effects":[],"#
            + #""digest":"\#(state)"}"#,
        ])
      let captured = Captured()
      let status = ReplayCommand(
        features: [
          ReplayableFeature(
            name: "waiting", reducer: Waiting(), module: "Tests", reducerExpression: "Waiting()")
        ], toolName: "waiting-replay"
      ).run(
        ["--html", folder.file("wait.html").path, folder.file("wait.jsonl").path],
        output: captured.output)
      #expect(status == 0, "\(captured.text)")
      let page = try TimelinePageData(contentsOf: folder.file("wait.html"))
      #expect(page.actionJSON(0) == action, "\(algorithm)")
      // The row reads the current form whatever the log's: a duration as its seconds.
      #expect(page.action(0) == "wait(30)")
    }
  }

  @Test func thePageHasPlayWithItsSpeedsAndTheStateAndActionTabs() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "page.html", log], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let page = try TimelinePageData(contentsOf: folder.file("page.html"))
    #expect(page.html.contains(#"<button type="button" id="play" aria-pressed="false""#))
    #expect(page.speeds.values == ["1", "2", "4", "8", "16"])
    #expect(page.speeds.chosen == "2")
    let tabs = try #require(page.element(#"<div class="tabs" role="tablist""#, "</div>"))
    #expect(tabs.components(separatedBy: #"role="tab""#).count - 1 == 2)
    #expect(tabs.contains(#"id="tab-state""#) && tabs.contains(#"id="tab-action""#))
    #expect(page.html.contains(#"<div id="panel-action" role="tabpanel""#))
    #expect(page.html.contains(#"<pre id="action-json"></pre>"#))
    #expect(page.html.contains("<li>Space plays the steps the list shows"))
  }

  // MARK: - Helpers

  /// Waits, and counts how often.
  struct Waiting: Reducer, Sendable {
    struct State: Codable, Equatable, Sendable {
      var waits = 0
    }

    enum Action: Codable, Equatable, Sendable {
      case wait(Duration)
    }

    enum Effect: Codable, Equatable, StoreEffect {
      case never
    }

    func reduce(into state: inout State, action: Action) -> [Effect] {
      state.waits += 1
      return []
    }
  }
}
