import ActionLog
import AppFeature
import Foundation
import Testing
import ToolTestSupport

/// `login-demo` full-screen in tmux, under hostile conditions: a recording that cannot be
/// written, a 10,000-character paste, a terminal resized under it.
@Suite(.serialized)
struct LoginDemoInteractiveHostileTests {
  /// `--record /dev/full`: every write fails. The app says so on its screen, keeps working,
  /// says it again on the main screen after leaving full-screen, and exits with status 1.
  @Test(.timeLimit(.minutes(5)))
  func aRecordingThatStopsIsShownAndReportedAfterLeavingFullScreen() async throws {
    let run = try await InteractiveRun(arguments: ["--record", "/dev/full"], keepsPaneOpen: true)
    let screen = try await run.session.waitForScreen("the recording-stopped notice") {
      $0.contains(" › Username") && $0.contains("⚠ Recording stopped")
    }
    #expect(
      words(screen).contains(
        "⚠ Recording stopped: I/O error: cannot write 'full': No space left on device"))

    try await run.session.type("demo")
    try await run.session.waitForScreen("the app still working") {
      $0.contains(" › Username  demo")
    }
    try await run.session.press("C-c")
    try await run.expectRestored(status: "1")
    try await run.session.waitForScreen("the message on the main screen") {
      words($0).contains(
        "login-demo: recording stopped: I/O error: cannot write 'full': No space left on device")
    }
  }

  /// Pasting 10,000 characters arrives as a few large reads: each is one field change, not
  /// one action per character (it took 10,000 actions, ~40 s and a 51.6 MB log).
  @Test(.timeLimit(.minutes(5)))
  func aPasteIsOneFieldChangePerRead() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("paste.jsonl")
    let run = try await InteractiveRun(arguments: ["--record", log.path])
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }

    try await run.session.type(String(repeating: "a", count: 10_000))
    try await run.session.waitForScreen(timeout: .seconds(120), "the pasted username") {
      $0.contains(" › Username  …aaaaaaaaaa")
    }
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")

    let result = try Replayer(reducer: AppReducer()).replay(
      log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
    let edits = result.steps.filter {
      if case .login(.edit(let edit)) = $0.transition.action { return edit.field == "username" }
      return false
    }
    #expect(result.finalState.login.username.value.count == 10_000)
    #expect((1...10).contains(edits.count), "\(edits.count) username changes for one paste")
    let size = try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int ?? 0
    #expect(size < 1_000_000, "\(size) bytes of log for one paste")
  }

  /// A resize (SIGWINCH) redraws the whole screen: what else was printed on it is gone.
  @Test(.timeLimit(.minutes(5)))
  func aResizedTerminalIsRedrawn() async throws {
    let run = try await InteractiveRun(arguments: [])
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    // Back to the size `stty -a` saw before the app started, the second time round.
    for (columns, rows) in [(100, 30), (80, 24)] {
      let tty = try await run.session.terminalPath()
      guard let handle = FileHandle(forWritingAtPath: tty) else {
        throw DemoProcessError("cannot open \(tty)")
      }
      handle.write(Data("\u{1B}[20;1HSTRAY OUTPUT".utf8))
      try handle.close()
      try await run.session.waitForScreen("the stray output") { $0.contains("STRAY OUTPUT") }

      try await run.session.resize(columns: columns, rows: rows)
      try await run.session.waitForScreen("the screen redrawn without it") {
        !$0.contains("STRAY OUTPUT") && $0.contains(" › Username")
      }
    }
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
  }

  /// The screen's words separated by single spaces, so text wrapped on the screen reads whole.
  private func words(_ screen: String) -> String {
    screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
