import ActionLog
import AppFeature
import Foundation
import Testing
import ToolTestSupport

/// Drives `login-demo` in interactive mode through a real pseudo-terminal (tmux), and checks
/// that the terminal is exactly as it was after the app quits.
///
/// Each test runs, in a shell inside tmux:
/// `stty -a > before; login-demo; echo $? > status; stty -a > after`.
@Suite(.serialized)
struct LoginDemoInteractiveTests {
  @Test(.timeLimit(.minutes(5)))
  func signsInWithTheKeyboardAndQuitsWithCtrlC() async throws {
    // The spinner shows while the sign-in takes: long enough that a look at the screen on a
    // loaded machine (tmux started, the screen captured) finds it. 1.5 s was missed under a
    // load of 8 on two cores, and the test then waited for a spinner already gone.
    let run = try await InteractiveRun(arguments: ["--latency", "5000"])

    try await run.session.waitForScreen("the login form") {
      $0.contains(" › Username") && $0.contains("   [ Login ] (disabled)")
    }
    try await run.session.type("demo")
    try await run.session.press("Tab")
    try await run.session.type("Secr3t")
    let filled = try await run.session.waitForScreen("the filled-in form") {
      $0.contains(" › Password  ••••••") && $0.contains("✓ Ready to sign in")
    }
    #expect(filled.contains("   Username  demo"))
    #expect(!filled.contains("Secr3t"))

    try await run.session.press("Tab")
    try await run.session.waitForScreen("the enabled, focused login button") {
      $0.contains(" › [ Login ]\n")
    }
    try await run.session.press("Enter")
    try await run.session.waitForScreen("the spinner") { $0.contains("Signing in…") }
    let home = try await run.session.waitForScreen("the home screen") {
      $0.contains("Hello Demo User")
    }
    #expect(home.contains(" › [ Logout ]"))
    #expect(home.contains("login › home(demo)"))

    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
  }

  /// A slow sign-in shows its Cancel button without moving the focus to it: a second Enter,
  /// which impatient people press, does nothing (it cancelled the sign-in when Cancel took the
  /// focus), and Esc, the deliberate key, cancels; the form comes back with its Login button.
  @Test(.timeLimit(.minutes(5)))
  func aSecondEnterKeepsASlowSignInAndEscCancelsIt() async throws {
    let run = try await InteractiveRun(arguments: ["--latency", "30000"])
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    try await run.session.type("demo")
    try await run.session.press("Tab")
    try await run.session.type("Secr3t")
    try await run.session.press("Enter")
    let signingIn = try await run.session.waitForScreen("the Cancel button") {
      $0.contains("Signing in…") && $0.contains("[ Cancel ]")
    }
    #expect(!signingIn.contains(" › [ Cancel ]"), "\(signingIn)")
    // The second Enter, then a Tab: the screen after the Tab shows what the Enter left.
    try await run.session.press("Enter")
    try await run.session.press("BTab")
    let after = try await run.session.waitForScreen("the focus on Username, still signing in") {
      $0.contains(" › Username")
    }
    #expect(after.contains("Signing in…") && after.contains("[ Cancel ]"), "\(after)")
    try await run.session.press("Escape")
    try await run.session.waitForScreen("the form again") {
      !$0.contains("Signing in…") && !$0.contains("[ Cancel ]") && $0.contains("[ Login ]")
    }
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
  }

  @Test(.timeLimit(.minutes(5)))
  func escDismissesAnAlertAndSIGTERMRestoresTheTerminal() async throws {
    let run = try await InteractiveRun(arguments: [])

    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    try await run.session.press("Tab", "Tab", "Enter")
    try await run.session.waitForScreen("the validation alert") {
      $0.contains("│ Validation Errors") && $0.contains("› [ OK ] │")
    }
    try await run.session.press("Escape")
    try await run.session.waitForScreen("the form without the alert") {
      !$0.contains("Validation Errors") && $0.contains(" › [ Login ] (disabled)")
    }

    let pid = try await run.appProcessID()
    #expect(kill(pid, SIGTERM) == 0)
    try await run.expectRestored(status: "143")
  }
}

extension LoginDemoInteractiveTests {
  /// Five wrong passwords lock the form: the lockout line counts whole seconds down on the
  /// real clock, "Ready to sign in" is gone, and Enter on Login says why nothing happens. A
  /// relaunch with the same state folder is still locked, in whole seconds too.
  ///
  /// The screens are compared with `DemoScripts/Interactive/countdown.expected.txt`, the
  /// seconds left written `‹n›` (they depend on the real clock).
  @Test(.timeLimit(.minutes(5)))
  func theLockoutCountsDownAndEnterSaysWhy() async throws {
    let state = try TemporaryFolder()
    defer { withExtendedLifetime(state) {} }
    let arguments = ["--latency", "0", "--state-dir", state.url.path]
    let run = try await InteractiveRun(arguments: arguments)
    var frames = Frames()
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    try await run.session.type("demo")
    try await run.session.press("Tab")
    try await run.session.type("Wr0ng")
    try await run.session.press("Tab")
    for attempt in 1...5 {
      try await run.session.press("Enter")
      let title = attempt < 5 ? "│ Couldn't sign in" : "│ Sign-in locked"
      try await run.session.waitForScreen("the alert of attempt \(attempt)") { $0.contains(title) }
      try await run.session.press("Enter")
      try await run.session.waitForScreen("no alert after attempt \(attempt)") {
        !$0.contains("│ Couldn't sign in") && !$0.contains("│ Sign-in locked")
      }
    }
    let locked = try await run.session.waitForScreen(markingInverse: true, "the countdown") {
      $0.contains("Locked after 5 failed attempts. Try again in ")
    }
    #expect(!locked.contains("Ready to sign in"))
    #expect(!locked.contains(" seconds"), "whole seconds, never a fraction: \(locked)")
    frames.add("locked", locked)
    // It ticks: two seconds later it reads at least one second less.
    let first = try Self.secondsLeft(in: locked)
    try await run.session.waitForScreen("the countdown, a second later") {
      (try? Self.secondsLeft(in: $0)).map { $0 < first } ?? false
    }
    try await run.session.press("Enter")
    let why = try await run.session.waitForScreen(markingInverse: true, "why the tap did nothing") {
      $0.contains("The form is locked after too many failed attempts; wait for the countdown.")
    }
    frames.add("Enter on the locked Login button", why)
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")

    let relaunch = try await InteractiveRun(arguments: arguments)
    let restored = try await relaunch.session.waitForScreen(
      markingInverse: true, "the countdown after a relaunch"
    ) { $0.contains("Locked after 5 failed attempts. Try again in ") }
    let line = restored.split(separator: "\n").first { $0.contains("Try again in") } ?? ""
    let left = line.split(separator: "Try again in ").last ?? ""
    #expect(
      left.hasSuffix(" s") && left.dropLast(2).allSatisfy(\.isNumber), "whole seconds: \(line)")
    #expect(try Self.secondsLeft(in: restored) <= first)
    frames.add("after a relaunch", restored)
    try await relaunch.session.press("C-c")
    try await relaunch.expectRestored(status: "130")
    Golden.expect(frames.text, matches: Frames.golden("countdown"))
  }

  /// Below the smallest size that fits, one line asks for a larger window instead of a torn
  /// layout — shorter in a narrower window, so it is never cut; a window only a little short
  /// shows the screen without its key hints; growing the window again brings them back. The screens are in `DemoScripts/Interactive/too-small.expected.txt`.
  @Test(.timeLimit(.minutes(5)))
  func aTooSmallTerminalAsksForALargerWindow() async throws {
    let run = try await InteractiveRun(arguments: [])
    var frames = Frames()
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    let sizes: [(columns: Int, rows: Int, expected: String)] = [
      (40, 24, "Please make the window at least 61×"), (80, 6, "(it is 80×6)"),
      (24, 24, "Make it at least 61×"), (12, 24, "61×"),
    ]
    for (columns, rows, expected) in sizes {
      try await run.session.resize(columns: columns, rows: rows)
      let small = try await run.session.waitForScreen(
        markingInverse: true, "the request for a larger window at \(columns)×\(rows)"
      ) { $0.hasPrefix(expected) || ($0.contains(expected) && $0.hasPrefix("Please")) }
      #expect(!small.contains("Username"))
      #expect(small.split(separator: "\n").count == 1, "one line: \(small)")
      frames.add("\(columns)×\(rows)", small)
    }
    // Two rows short of the form with its key hints: the form, without them.
    try await run.session.resize(columns: 80, rows: 8)
    let short = try await run.session.waitForScreen(markingInverse: true, "the form, no hints") {
      $0.contains(" › Username") && !$0.contains("61×")
    }
    #expect(!short.contains("Tab next"))
    frames.add("80×8", short)
    try await run.session.resize(columns: 80, rows: 24)
    let again = try await run.session.waitForScreen(markingInverse: true, "the form again") {
      $0.contains(" › Username") && $0.contains("Tab next")
    }
    frames.add("80×24", again)
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
    Golden.expect(frames.text, matches: Frames.golden("too-small"))
  }

  /// The editing keys as a terminal sends them: ←/→, Home/End, Delete, Backspace, Ctrl-U,
  /// Ctrl-W, with the cursor drawn where they put it; Enter in the password field signs in.
  /// The screens, the cursor's cell marked `⟦ ⟧`, are in
  /// `DemoScripts/Interactive/editing.expected.txt`.
  @Test(.timeLimit(.minutes(5)))
  func theEditingKeysMoveAVisibleCursor() async throws {
    let run = try await InteractiveRun(arguments: ["--latency", "0"])
    var frames = Frames()
    /// Waits for the focused field `label` to read `text` (the cursor's cell marked), and
    /// adds the screen as `title`.
    func expectField(_ label: String, _ text: String, after title: String) async throws {
      let screen = try await run.session.waitForScreen(
        markingInverse: true, "\(label) reading \(text) after \(title)"
      ) { $0.contains(" › \(label.padding(toLength: 10, withPad: " ", startingAt: 0))\(text)\n") }
      frames.add(title, screen)
    }
    try await expectField("Username", "⟦ ⟧", after: "start")
    try await run.session.type("demo")
    try await run.session.press("Left", "Left")
    try await run.session.type("X")
    try await expectField("Username", "deX⟦m⟧o", after: "demo ← ← X")
    try await run.session.press("Home", "DC")
    try await expectField("Username", "⟦e⟧Xmo", after: "Home Delete")
    try await run.session.press("End", "BSpace")
    try await run.session.type(" lovelace")
    try await expectField("Username", "eXm lovelace⟦ ⟧", after: "End Backspace ␣lovelace")
    try await run.session.press("C-w")
    try await expectField("Username", "eXm ⟦ ⟧", after: "Ctrl-W")
    try await run.session.press("Left", "Left", "C-u")
    try await expectField("Username", "⟦m⟧", after: "← ← Ctrl-U")
    try await run.session.press("C-e", "BSpace", "BSpace", "BSpace")
    try await run.session.type("demo")
    try await run.session.press("Tab")
    try await run.session.type("Secr3t")
    try await run.session.press("C-a", "Right", "Right")
    try await expectField(
      "Password", "••⟦•⟧•••", after: "Ctrl-E ⌫ ⌫ ⌫ demo Tab (the password) Ctrl-A → →")
    try await run.session.press("Enter")
    let home = try await run.session.waitForScreen(markingInverse: true, "the home screen") {
      $0.contains("Hello Demo User") && $0.contains("unread messages")
    }
    frames.add("Enter in the password field", home)
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
    #expect(!frames.text.contains("Secr3t"))
    Golden.expect(frames.text, matches: Frames.golden("editing"))
  }

  /// The code step on a real terminal: the code shows its digits as they are typed, as iOS
  /// one-time-code fields do (the screen is the one place they show), Ctrl-W and Ctrl-U erase
  /// it as the help says, typing on a button types into it, and the code's lifetime shows under
  /// it. The screens are in `DemoScripts/Interactive/code-step.expected.txt`.
  @Test(.timeLimit(.minutes(5)))
  func theCodeFieldShowsItsDigitsAndEditsLikeTheOthers() async throws {
    let run = try await InteractiveRun(arguments: ["--latency", "0"])
    var frames = Frames()
    func expectCode(_ text: String, after title: String) async throws {
      let screen = try await run.session.waitForScreen(
        markingInverse: true, "the code reading \(text) after \(title)"
      ) { $0.contains(" › Code      \(text)⟦ ⟧\n") }
      frames.add(title, screen)
    }
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    try await run.session.type("grace")
    try await run.session.press("Tab")
    try await run.session.type("Cobol1959")
    try await run.session.press("Enter")
    try await expectCode("______", after: "grace, Cobol1959, Enter")
    #expect(frames.text.contains("The code is valid for 5 minutes."))
    try await run.session.type("123")
    try await expectCode("123___", after: "123")
    try await run.session.press("C-w")
    try await expectCode("______", after: "Ctrl-W")
    try await run.session.type("98")
    try await run.session.press("C-u")
    try await expectCode("______", after: "98 Ctrl-U")
    try await run.session.press("Tab")
    try await run.session.type("7")
    try await expectCode("7_____", after: "Tab (Verify) 7")
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
    Golden.expect(frames.text, matches: Frames.golden("code-step"))
  }

  /// "Forgot password?" comes after Login in Tab order and Enter opens the password-reset
  /// step; its email field edits at a cursor like the form's, Enter sends the link, the
  /// confirmation and the wait before "Send again" show, and Esc goes back to the form. The
  /// screens are in `DemoScripts/Interactive/password-reset.expected.txt`.
  @Test(.timeLimit(.minutes(5)))
  func forgotPasswordOpensTheStepSendsALinkAndEscGoesBack() async throws {
    let run = try await InteractiveRun(arguments: ["--latency", "0"])
    var frames = Frames()
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    try await run.session.press("Tab", "Tab", "Tab")
    let form = try await run.session.waitForScreen(markingInverse: true, "the focused button") {
      $0.contains(" › ⟦[ Forgot password? ]⟧")
    }
    frames.add("Tab Tab Tab", form)
    try await run.session.press("Enter")
    let step = try await run.session.waitForScreen(markingInverse: true, "the reset step") {
      $0.contains("Reset your password") && $0.contains(" › Email     ⟦ ⟧")
    }
    frames.add("Enter", step)
    try await run.session.type("ada@example")
    try await run.session.press("Left", "Left")
    try await run.session.type("x")
    try await run.session.press("End")
    try await run.session.type(".com")
    let typed = try await run.session.waitForScreen(markingInverse: true, "the typed email") {
      $0.contains(" › Email     ada@exampxle.com⟦ ⟧") && $0.contains("   [ Send link ]\n")
    }
    frames.add("ada@example ← ← x End .com", typed)
    try await run.session.press("Enter")
    let sent = try await run.session.waitForScreen(markingInverse: true, "the confirmation") {
      $0.contains("a reset") && $0.contains("   [ Send again ] (disabled)")
    }
    #expect(sent.contains("If an account exists for a••••@exampxle.com, a reset"))
    #expect(sent.contains("You can send again in "))
    frames.add("Enter (sends the link)", sent)
    try await run.session.press("Escape")
    let back = try await run.session.waitForScreen(markingInverse: true, "the form again") {
      $0.contains(" › Username") && !$0.contains("Reset your password")
    }
    frames.add("Esc", back)
    try await run.session.press("C-c")
    try await run.expectRestored(status: "130")
    Golden.expect(frames.text, matches: Frames.golden("password-reset"))
  }

  static func secondsLeft(in screen: String) throws -> Int {
    let marker = "Try again in "
    guard let range = screen.range(of: marker) else { throw DemoProcessError("no countdown") }
    let digits = screen[range.upperBound...].prefix { $0.isNumber }
    guard let seconds = Int(digits) else { throw DemoProcessError("no seconds") }
    return seconds
  }

  /// The screens of an interactive test, each under a `── title ──` header, for a golden file.
  struct Frames {
    private(set) var text = ""

    /// The golden file `DemoScripts/Interactive/<name>.expected.txt`.
    static func golden(_ name: String) -> URL {
      DemoProcess.scriptsFolder.appendingPathComponent("Interactive/\(name).expected.txt")
    }

    /// Adds `screen`, the seconds of "Try again in N s", of Resend's "(disabled) in N s" and the
    /// wait of "You can send again in 42 seconds." written `‹n›` (they depend on the real clock,
    /// and a busy machine can take a second between two screens).
    mutating func add(_ title: String, _ screen: String) {
      var screen = screen
      for countdown in ["Try again in ", "(disabled) in "] {
        guard let range = screen.range(of: countdown) else { continue }
        let digits = screen[range.upperBound...].prefix { $0.isNumber }
        screen.replaceSubrange(range.upperBound..<digits.endIndex, with: "‹n›")
      }
      if let range = screen.range(of: "send again in "),
        let end = screen[range.upperBound...].firstIndex(of: ".")
      {
        screen.replaceSubrange(range.upperBound..<end, with: "‹n›")
      }
      text += (text.isEmpty ? "" : "\n") + "── \(title) ──\n" + screen
    }
  }

  /// `kill -9` in the middle of a session: the flight-recorder folder stays replayable, and
  /// at most the batch the writer had in flight is lost.
  @Test(.timeLimit(.minutes(5)))
  func aSessionKilledWithSIGKILLLeavesAReplayableFlightRecording() async throws {
    let flight = FileManager.default.temporaryDirectory
      .appendingPathComponent("login-demo-flight-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: flight) }
    let run = try await InteractiveRun(arguments: ["--flight-recorder", flight.path])
    // `expectRestored` removes the run's folder; a killed app is never restored.
    defer { try? FileManager.default.removeItem(at: run.folder) }
    try await run.session.waitForScreen("the login form") { $0.contains(" › Username") }
    // Recording is on, and the screen says so from the start.
    try await run.session.waitForScreen("the recording line") { screen in
      let lines = screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let first = lines.firstIndex(where: { $0.hasPrefix("● recording to the folder") })
      else { return false }
      return lines[first...].prefix(4).joined().contains("'\(flight.path)'")
    }
    try await run.session.type("demo")
    try await run.session.press("Tab")
    try await run.session.type("Secr3t")
    try await run.session.waitForScreen("the filled-in form") { $0.contains("✓ Ready to sign in") }

    let pid = try await run.appProcessID()
    #expect(kill(pid, SIGKILL) == 0)
    #expect(try await run.exitStatus() == "137\n")

    let replay = try FlightRecording(folder: flight).replay(with: AppReducer())
    let result = try replay.toEnd()
    // The launch, its restore and up to ten keystrokes: what was written before the kill.
    #expect((2...12).contains(result.stepCount), "\(result.stepCount) steps")
    #expect(result.warnings.allSatisfy { $0.contains("truncated") || $0.contains("cut") })
    if result.stepCount >= 6 { #expect(result.finalState?.login.username == "demo") }
    for segment in try FlightRecording(folder: flight).segments {
      #expect(try !String(contentsOf: segment.url, encoding: .utf8).contains("Secr3t"))
    }
  }
}

/// One run of `login-demo` in tmux, with the files its shell writes.
struct InteractiveRun {
  let session: TmuxSession
  let folder: URL

  /// Starts the app in tmux; with `keepsPaneOpen` the pane stays after it exits, so a test
  /// can read what it printed on the main screen.
  init(arguments: [String], keepsPaneOpen: Bool = false) async throws {
    let executable = try DemoProcess.executable()
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("login-demo-tty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let app = ([executable.path] + arguments).map(Self.quoted).joined(separator: " ")
    let dir = Self.quoted(folder.path)
    session = try await TmuxSession(
      command: "cd \(dir) && stty -a > before.txt; "
        + "sh -c 'echo $$ > pid.txt; exec \"$@\"' sh \(app); "
        + "echo $? > status.txt; stty -a > after.txt" + (keepsPaneOpen ? "; sleep 600" : ""))
  }

  /// The process id of `login-demo`.
  func appProcessID() async throws -> pid_t {
    let text = try await contents(of: "pid.txt")
    guard let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw DemoProcessError("pid.txt holds no process id: \(text)")
    }
    return pid
  }

  /// Waits for the app to exit, then expects its status and the terminal's attributes to be
  /// exactly what they were before it started: canonical mode and echo back on.
  func expectRestored(status: String, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
  {
    let exitStatus = try await contents(of: "status.txt")
    let after = try await contents(of: "after.txt")
    let before = try String(
      contentsOf: folder.appendingPathComponent("before.txt"), encoding: .utf8)
    #expect(exitStatus == status + "\n", sourceLocation: sourceLocation)
    #expect(
      after == before, "stty -a differs after login-demo quit", sourceLocation: sourceLocation)
    let flags = Set(after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }))
    #expect(flags.contains("icanon") && flags.contains("echo"), sourceLocation: sourceLocation)
    #expect(!flags.contains("-icanon") && !flags.contains("-echo"), sourceLocation: sourceLocation)
    try? FileManager.default.removeItem(at: folder)
  }

  /// The app's exit status as the shell wrote it, once it has exited.
  func exitStatus() async throws -> String {
    try await contents(of: "status.txt")
  }

  /// The contents of a file the shell writes, once it is complete (a bounded wait).
  private func contents(of name: String) async throws -> String {
    let file = folder.appendingPathComponent(name)
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      if let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix("\n") {
        return text
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw DemoProcessError("Timed out waiting for \(name) in \(folder.path)")
  }

  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
