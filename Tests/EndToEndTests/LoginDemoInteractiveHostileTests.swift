import Foundation
import Testing

/// `login-demo` full-screen in tmux, under hostile conditions: a recording that cannot be
/// written.
@Suite(.serialized)
struct LoginDemoInteractiveHostileTests {
  /// `--record /dev/full`: every write fails. The app says so on its screen, keeps working,
  /// says it again on the main screen after leaving full-screen, and exits with status 1.
  @Test(.timeLimit(.minutes(1)))
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

  /// The screen's words separated by single spaces, so text wrapped on the screen reads whole.
  private func words(_ screen: String) -> String {
    screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
