import Foundation
import Testing
import ToolTestSupport

/// `login-demo` and `replay` run as a user would, fed hostile input: escape sequences that
/// would retitle or clear a terminal, and input far longer than any message should show.
struct LoginDemoHostileInputTests {
  /// An escape that retitles the terminal and one that clears it, as a script line holds them.
  static let escapes = "\u{1B}]0;title\u{07}\u{1B}[2J"
  /// What ``escapes`` looks like quoted in a message.
  static let shown = "?]0;title??[2J"

  @Test(arguments: [
    ("frob\(escapes)", "unknown command 'frob\(shown)'"),
    (
      "type user\(escapes)",
      "unknown field 'user\(shown)' (expected username, password, code or email)"
    ),
    (
      "tap x\(escapes)",
      "cannot tap 'x\(shown)' (expected login, cancel, logout, verify, resend, forgot, send, "
        + "back or alert <button>)"
    ),
    ("wait \(escapes)x", "'wait' takes no argument, got '\(shown)x'"),
    ("advance 1\(escapes)", "invalid duration '1\(shown)' (expected e.g. 30s or 250ms)"),
    ("tap login x\(escapes)", "'tap login' takes no argument, got 'x\(shown)'"),
  ])
  func scriptErrorsShowControlCharactersVisibly(_ line: String, _ message: String) async throws {
    let output = try await runScript([line])
    #expect(output.status == 2)
    #expect(output.stderr == "login-demo: script line 1: \(message)\n")
    Self.expectPrintable(output.stderr)
    Self.expectPrintable(output.stdout)
  }

  @Test func anAlertButtonThatIsNotThereIsQuoted() async throws {
    let output = try await runScript([
      "tap login", "tap alert O\(Self.escapes)K",
    ])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "login-demo: script line 2: the alert has no button 'O\(Self.shown)K' (it has 'OK')\n")
  }

  @Test func longInputInAMessageIsCutWithAMarker() async throws {
    let long = String(repeating: "x", count: 300)
    let output = try await runScript(["frob" + long])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "login-demo: script line 1: unknown command 'frob\(String(repeating: "x", count: 60))…'\n"
    )
  }

  @Test func aLongScriptLineIsCutInTheScreensHeader() async throws {
    let output = try await runScript(["type username " + String(repeating: "y", count: 300)])
    #expect(output.status == 0)
    let header = output.stdout.split(separator: "\n").first { $0.hasPrefix("── after line 1") }
    #expect(
      header == "── after line 1: type username \(String(repeating: "y", count: 58))… ──")
  }

  /// A private-use character draws as whatever a font puts there, and a right-to-left
  /// override turns the rest of the line around: on the screen both are U+FFFD.
  @Test func invisibleCharactersATypedFieldHoldsShowAsReplacementCharacters() async throws {
    let output = try await runScript(["type username a\u{E000}b\u{202E}c"])
    #expect(output.status == 0)
    #expect(output.stdout.contains("a\u{FFFD}b\u{FFFD}c"))
    #expect(!output.stdout.unicodeScalars.contains { $0 == "\u{E000}" || $0 == "\u{202E}" })
  }

  @Test(arguments: [
    (
      ["--api", "http://host/\u{E000}"],
      "--api must be an http:// or https:// URL, got 'http://host/?'"
    ),
    (
      ["--api", "http://host/\(escapes)"],
      "--api must be an http:// or https:// URL, got 'http://host/\(shown)'"
    ),
    (
      ["--api", "ftp://\(escapes)"],
      "--api must be an http:// or https:// URL, got 'ftp://\(shown)'"
    ),
    (["--\(escapes)"], "unknown option '--\(shown)' (see --help)"),
    (["now\(escapes)"], "unexpected argument 'now\(shown)' (see --help)"),
    (
      ["--latency", String(repeating: "9", count: 300)],
      "--latency must be a whole number of milliseconds from 0 to 60000, got '"
        + String(repeating: "9", count: 64) + "…'"
    ),
  ])
  func commandLineErrorsShowControlCharactersVisibly(
    _ arguments: [String], _ message: String
  ) async throws {
    let output = try await DemoProcess.run(arguments)
    #expect(output.status == 2)
    #expect(output.stderr == "login-demo: \(message)\n")
  }

  @Test func aScriptPathIsQuotedWithItsControlCharactersShown() async throws {
    let output = try await DemoProcess.run(["--script", "/nonexistent/a\(Self.escapes)"])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "login-demo: cannot read script '/nonexistent/a\\u{1B}]0;title\\u{7}\\u{1B}[2J': "
        + "No such file or directory\n")
  }

  @Test func replayQuotesTheNameOfAFileItCannotOpen() async throws {
    let output = try await DemoProcess.run(["nope\u{1B}]0;T\u{07}"], tool: "replay")
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "replay: I/O error: cannot open 'nope\\u{1B}]0;T\\u{7}': No such file or directory\n")
  }

  /// A log in a folder that does not exist is refused as every option refuses such a path: the
  /// path whole, exit status 2, and a log in a nested folder named whole too.
  @Test func replayNamesTheWholePathOfALogItCannotRead() async throws {
    let folder = try TemporaryFolder()
    let missingFolder = folder.file("gone").path + "/rec.jsonl"
    let refused = try await DemoProcess.run([missingFolder], tool: "replay")
    #expect(refused.status == 2)
    #expect(
      refused.stderr
        == "replay: '\(missingFolder)': the folder '\(folder.file("gone").path)' does not exist\n")
    let missingFile = folder.file("rec.jsonl").path
    let missing = try await DemoProcess.run([missingFile], tool: "replay")
    #expect(missing.status == 2)
    #expect(
      missing.stderr
        == "replay: I/O error: cannot open '\(missingFile)': No such file or directory\n")
  }

  @Test func recordingOverTheScriptIsRefused() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let script = folder.file("session.script")
    let text = "type username demo\n"
    try Data(text.utf8).write(to: script)
    // The same file, spelled another way.
    let other = folder.url.path + "/./session.script"
    let output = try await DemoProcess.run(["--script", script.path, "--record", other])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "login-demo: --record '\(other)' is the script; record to another file\n")
    #expect(try String(contentsOf: script, encoding: .utf8) == text)
  }

  @Test func recordingOverAFileThatIsNotALogIsRefused() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let notes = folder.file("notes.txt")
    try Data("keep me\n".utf8).write(to: notes)
    let output = try await DemoProcess.run(["--record", notes.path])
    #expect(output.status == 1)
    #expect(
      output.stderr
        == "login-demo: cannot record to '\(notes.path)': I/O error: 'notes.txt' is not an "
        + "action log; it was left as it was (record to a new file)\n")
    #expect(try String(contentsOf: notes, encoding: .utf8) == "keep me\n")
  }

  // MARK: - Scripts are streamed

  /// `--script /dev/zero` (and the same on stdin) under a 2 GB address-space limit: the
  /// script is read a line at a time, so the endless first line is refused after 1 MiB.
  @Test(arguments: [
    "exec \"$0\" --script /dev/zero", "exec \"$0\" < /dev/zero",
  ])
  func anEndlessLineIsRefusedWithBoundedMemory(_ command: String) async throws {
    let output = try await DemoProcess.run(
      program: URL(fileURLWithPath: "/bin/sh"),
      ["-c", "ulimit -v 2000000; " + command, try DemoProcess.executable().path],
      timeout: 60)
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "login-demo: script line 1: longer than the limit of 1048576 bytes; is this a "
        + "script?\n")
  }

  @Test func theLineOverTheLimitIsNamedAndTheLinesBeforeItRun() async throws {
    let output = try await runScript([
      "type username demo", "# a comment", String(repeating: "#", count: 1_048_577),
      "type password never-reached",
    ])
    #expect(output.status == 2)
    #expect(
      output.stderr
        == "login-demo: script line 3: longer than the limit of 1048576 bytes; is this a "
        + "script?\n")
    #expect(output.stdout.contains("── after line 1: type username demo ──"))
  }

  @Test func aLineAtTheLimitRuns() async throws {
    let output = try await runScript(["#" + String(repeating: "x", count: 1_048_575)])
    #expect(output.status == 0)
    #expect(output.stderr == "")
  }

  @Test func aFolderAsTheScriptIsAReadError() async throws {
    let output = try await DemoProcess.run(["--script", "/"])
    #expect(output.status == 1)
    #expect(output.stderr == "login-demo: cannot read script '/': Is a directory\n")
  }

  // MARK: - Helpers

  /// Runs `lines` as a script on stdin.
  /// The password-reset verbs on a screen that does not show the step (or the form) are
  /// usage errors naming the line and the screen, and take no extra words.
  @Test(arguments: [
    (["type email ada@example.com"], "script line 1: the password-reset step is not showing"),
    (["tap send"], "script line 1: the password-reset step is not showing"),
    (["tap back"], "script line 1: the password-reset step is not showing"),
    (["tap forgot", "tap forgot"], "script line 2: the login form is not showing"),
    (["tap forgot", "type username demo"], "script line 2: the login form is not showing"),
    (["tap forgot now"], "script line 1: 'tap forgot' takes no argument, got 'now'"),
  ])
  func thePasswordResetVerbsNeedTheirScreen(_ lines: [String], _ message: String) async throws {
    let output = try await runScript(lines)
    #expect(output.status == 2)
    #expect(output.stderr == "login-demo: \(message)\n")
  }

  private func runScript(
    _ lines: [String], arguments: [String] = []
  ) async throws -> DemoProcess.Output {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let script = try folder.write("hostile.script", lines: lines)
    return try await DemoProcess.run(arguments, stdin: script)
  }

  /// Expects no control character but the newline in `text`.
  static func expectPrintable(
    _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let controls = text.unicodeScalars.filter {
      $0 != "\n" && $0.properties.generalCategory == .control
    }
    #expect(
      controls.isEmpty, "raw control characters: \(controls.map(\.value))",
      sourceLocation: sourceLocation)
  }
}
