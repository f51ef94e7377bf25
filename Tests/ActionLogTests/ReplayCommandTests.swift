import Foundation
import Testing
import ToolTestSupport

/// Runs the built `replay` executable on the committed fixture logs and compares what it
/// prints with the goldens in `Fixtures/Expected/` (exit status, stdout, stderr).
///
/// `RECORD_GOLDENS=1 swift test --filter ReplayCommandTests` re-records them; a missing golden
/// is recorded and the test fails so that it gets looked at.
struct ReplayCommandTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"

  @Test(
    arguments: [
      ("timeline", ["login.jsonl"]),
      ("state", ["--state", "login.jsonl"]),
      ("until-3", ["--until", "3", "login.jsonl"]),
      ("until-3-state", ["--until=3", "--state", "login.jsonl"]),
      ("verify", ["--verify", "login.jsonl"]),
      ("verify-divergent", ["--verify", "login-divergent.jsonl"]),
      ("verify-divergent-step3", ["--verify", "login-divergent-step3.jsonl"]),
      ("timeline-divergent-step3", ["--until", "4", "login-divergent-step3.jsonl"]),
      ("verify-before-patches", ["--verify", "login-before-patches.jsonl"]),
      ("timeline-divergent-unverified", ["--until", "4", "login-divergent.jsonl"]),
      ("truncated", ["login-truncated.jsonl"]),
      ("verify-truncated", ["--verify", "login-truncated.jsonl"]),
      ("emit-test", ["--emit-test", "login.jsonl"]),
      ("help", ["--help"]),
      ("app-timeline", ["app.jsonl"]),
      ("app-verify", ["--verify", "app.jsonl"]),
      ("app-until-9-state", ["--until", "9", "--state", "app.jsonl"]),
      ("app-emit-test", ["--emit-test", "app.jsonl"]),
    ])
  func outputMatchesGolden(name: String, arguments: [String]) async throws {
    let run = try await ReplayProcess.run(arguments)
    let golden = ReplayProcess.fixtures.appendingPathComponent("Expected/\(name).txt")
    let exists = FileManager.default.fileExists(atPath: golden.path)
    if Self.isRecording || !exists {
      try FileManager.default.createDirectory(
        at: golden.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(run.description.utf8).write(to: golden)
      if !exists { Issue.record("Recorded a new golden at \(golden.path); check it and rerun.") }
      return
    }
    let expected = String(decoding: try Data(contentsOf: golden), as: UTF8.self)
    #expect(run.description == expected, "replay \(arguments.joined(separator: " "))")
  }

  @Test func aRunThatHangsIsKilledAtItsTimeoutAndSaysSo() async throws {
    let folder = try TemporaryFolder()
    // `--follow` waits for a log that nothing writes for as long as it runs.
    let timedOut = await #expect(throws: ReplayProcess.TimedOut.self) {
      try await ReplayProcess.run(
        ["--follow", "not-yet.jsonl"], in: folder.url, timeout: .seconds(1))
    }
    // How long the kill took is not checked: on a busy machine it is late by whatever the
    // scheduler makes it. That it happened, and what the failure says, is.
    let failure = try #require(timedOut)
    #expect(failure.timeout == .seconds(1))
    // It says what it waits for, once: a silent wait reads as a hang.
    #expect(
      failure.stderr == "replay: waiting for 'not-yet.jsonl' to be recorded (Ctrl-C to stop)\n")
    #expect(
      failure.description.hasPrefix(
        "replay --follow not-yet.jsonl did not end within 1.0 seconds and was killed."),
      "\(failure)")
  }

  /// A flight folder whose first segment is not a log and whose second is a FIFO: both are
  /// named, neither is read (a FIFO would block for ever), and the segment after them replays.
  @Test func aFolderSkipsWhatIsNotASegmentAndNamesItAndABadFirstSegment() async throws {
    let folder = try TemporaryFolder()
    try Data("not a log\n".utf8).write(to: folder.file("segment-000001.jsonl"))
    try #require(mkfifo(folder.file("segment-000002.jsonl").path, 0o600) == 0)
    try FileManager.default.copyItem(
      at: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"),
      to: folder.file("segment-000003.jsonl"))
    let alone = try await ReplayProcess.run(["--verify", "login.jsonl"])

    let run = try await ReplayProcess.run(
      ["--verify", folder.url.path], in: folder.url, timeout: .seconds(60))
    #expect(run.status == 0, "\(run)")
    let verified = try #require(alone.stdout.split(separator: ":").first)
    #expect(run.stdout.hasPrefix(verified + " in 2 segments:"), "\(run)")
    #expect(
      run.stderr.contains(
        "replay: warning: 'segment-000002.jsonl' is a FIFO, not a segment file; skipped\n"),
      "\(run)")
    #expect(
      run.stderr.contains(
        "replay: warning: segment-000001.jsonl: line 1: missing header: an action log starts "
          + #"with {"format":"loginstore.actionlog","version":1,…}; skipped, the replay "#
          + "starts after it\n"), "\(run)")
  }

  /// A FIFO is refused at once, with or without `--follow`: opening one with no writer would
  /// block the replay for ever.
  @Test(arguments: [["pipe.jsonl"], ["--verify", "pipe.jsonl"], ["--follow", "pipe.jsonl"]])
  func aFIFOIsRefusedNotWaitedOn(arguments: [String]) async throws {
    let folder = try TemporaryFolder()
    try #require(mkfifo(folder.file("pipe.jsonl").path, 0o600) == 0)
    try await expectRefusal(
      arguments, in: folder, saying: "I/O error: 'pipe.jsonl' is a FIFO, not an action log")
  }

  /// `--follow` waits for a header the app has not written yet, but a first line that is whole
  /// and not a header is the log's error at once, as without `--follow`: in a file, and in a
  /// flight-recorder folder's segment.
  @Test func aFollowedLogWhoseWholeFirstLineIsNoHeaderIsRefusedAtOnce() async throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("bad.jsonl", lines: ["not a header"])
    try FileManager.default.createDirectory(
      at: folder.file("flight"), withIntermediateDirectories: false)
    try Data("not a header\n".utf8).write(to: folder.file("flight/segment-000001.jsonl"))
    let missingHeader =
      "line 1: missing header: an action log starts with "
      + #"{"format":"loginstore.actionlog","version":1,…}"#

    try await expectRefusal(["--follow", "bad.jsonl"], in: folder, saying: missingHeader)
    try await expectRefusal(
      ["--follow", "flight"], in: folder, saying: "'segment-000001.jsonl': \(missingHeader)")
  }

  /// `--html a --html b` used to write `b` alone, in silence: a second value is a usage error
  /// naming both, and no page is written.
  @Test func anOptionGivenTwiceIsAUsageErrorNamingBothValues() async throws {
    let folder = try TemporaryFolder()
    let log = ReplayProcess.fixtures.appendingPathComponent("login.jsonl").path
    try await expectRefusal(
      ["--html", "a.html", "--html=b.html", log], in: folder,
      saying: "--html given twice ('a.html', then 'b.html'); give it once (see replay --help)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("a.html").path))
    #expect(!FileManager.default.fileExists(atPath: folder.file("b.html").path))
  }

  /// An empty path is one usage error, worded one way, for the log and for `--html`: `replay
  /// --follow ''` waited for ever, `replay ''` read the current folder as a flight recorder's.
  @Test(arguments: [[""], ["--follow", ""], ["--verify", "--", ""], ["--html", "", "log.jsonl"]])
  func anEmptyPathIsTheSameUsageErrorEverywhere(arguments: [String]) async throws {
    let folder = try TemporaryFolder()
    let name = arguments.first == "--html" ? "--html" : "FILE"
    let run = try await ReplayProcess.run(arguments, in: folder.url, timeout: .seconds(10))
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "",
          stderr: "replay: \(name) needs a path, not an empty one (see replay --help)\n"))
  }

  /// A flight recorder's folder is named by its whole path as given, not by its last folder
  /// (`'rec'`): two folders of that name in one tree read the same.
  @Test(arguments: [["logs/rec"], ["--verify", "logs/rec"], ["--html", "page.html", "logs/rec"]])
  func aFolderIsNamedByItsWholePathAsGiven(arguments: [String]) async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.file("logs/rec"), withIntermediateDirectories: true)
    try await expectRefusal(
      arguments, in: folder, saying: "I/O error: 'logs/rec' holds no segment-NNNNNN.jsonl files")
  }

  /// `--until N` past the end is said at once, before any step is printed, when the end of
  /// the log says where it ends: in a log, with or without `--state`, and in a flight
  /// recorder's folder (the timeline was printed whole, then refused).
  @Test(arguments: [
    ["--until", "99", "login.jsonl"], ["--until", "11", "--verify", "login.jsonl"],
    ["--until", "99", "flight"],
  ])
  func untilPastTheEndIsSaidBeforeAnyStep(arguments: [String]) async throws {
    let folder = try TemporaryFolder()
    let log = ReplayProcess.fixtures.appendingPathComponent("login.jsonl")
    try FileManager.default.copyItem(at: log, to: folder.file("login.jsonl"))
    try FileManager.default.createDirectory(
      at: folder.file("flight"), withIntermediateDirectories: false)
    try FileManager.default.copyItem(at: log, to: folder.file("flight/segment-000001.jsonl"))
    let step = arguments[1]
    try await expectRefusal(
      arguments, in: folder, saying: "--until \(step): the log ends at step 10")
  }

  /// Runs `replay arguments` in `folder`: it must exit 2 at once, printing nothing but
  /// `replay: message` on standard error.
  private func expectRefusal(
    _ arguments: [String], in folder: TemporaryFolder, saying message: String
  ) async throws {
    let run = try await ReplayProcess.run(arguments, in: folder.url, timeout: .seconds(60))
    #expect(run == ToolRun(status: 2, stdout: "", stderr: "replay: \(message)\n"))
  }

  /// A log in a folder that does not exist can never be recorded: refused at once (status 2),
  /// not waited for.
  @Test func aFollowedLogWhoseFolderIsMissingIsRefusedAtOnce() async throws {
    let folder = try TemporaryFolder()
    let run = try await ReplayProcess.run(
      ["--follow", "missing/live.jsonl"], in: folder.url, timeout: .seconds(60))
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(
      run.stderr
        == "replay: --follow 'missing/live.jsonl': the folder 'missing' does not exist\n")
  }

  /// A header line still being written (no newline yet) is waited for, not refused, even
  /// megabytes of it (a header holds the whole first state).
  @Test func aFollowedLogWithAPartialFirstLineIsWaitedFor() async throws {
    let folder = try TemporaryFolder()
    let partial = #"{"format":"loginstore.actionlog","version":2,"state":{"items":["#
    try Data((partial + String(repeating: #""item","#, count: 300_000)).utf8)
      .write(to: folder.file("partial.jsonl"))
    await #expect(throws: ReplayProcess.TimedOut.self) {
      try await ReplayProcess.run(
        ["--follow", "partial.jsonl"], in: folder.url, timeout: .seconds(2))
    }
  }

  @Test func exitStatusesAreZeroForWarningsOneForDivergenceTwoForBadInput() async throws {
    #expect(try await ReplayProcess.run(["login-truncated.jsonl"]).status == 0)
    #expect(try await ReplayProcess.run(["--verify", "login-truncated.jsonl"]).status == 0)
    #expect(try await ReplayProcess.run(["--verify", "login-divergent.jsonl"]).status == 1)
    #expect(try await ReplayProcess.run(["login-divergent.jsonl"]).status == 0)
    #expect(try await ReplayProcess.run(["nowhere.jsonl"]).status == 2)
  }

  @Test(
    arguments: [
      ([], "missing FILE: the action log to replay (see replay --help)"),
      (["--frobnicate", "login.jsonl"], "unknown option '--frobnicate' (see replay --help)"),
      (["-x", "login.jsonl"], "unknown option '-x' (see replay --help)"),
      (
        ["--verfiy", "login.jsonl"],
        "unknown option '--verfiy'; did you mean '--verify'? (see replay --help)"
      ),
      (
        ["--emit-tests", "login.jsonl"],
        "unknown option '--emit-tests'; did you mean '--emit-test'? (see replay --help)"
      ),
      (
        ["--HTML=out.html", "login.jsonl"],
        "unknown option '--HTML'; did you mean '--html'? (see replay --help)"
      ),
      (["--until"], "--until needs a step number (see replay --help)"),
      (["--until", "0", "login.jsonl"], "--until needs a step number of at least 1, not '0'"),
      (
        ["--until", "three", "login.jsonl"],
        "--until needs a step number of at least 1, not 'three'"
      ),
      (["--verify=yes", "login.jsonl"], "--verify takes no value (see replay --help)"),
      (["login.jsonl", "other.jsonl"], "unexpected argument 'other.jsonl': replay reads one FILE"),
      (
        ["--emit-test", "--state", "login.jsonl"],
        "--emit-test cannot be combined with --verify, --until or --state"
      ),
      (["--until", "99", "--state", "login.jsonl"], "--until 99: the log ends at step 10"),
      (["nowhere.jsonl"], "I/O error: cannot open 'nowhere.jsonl': No such file or directory"),
    ] as [([String], String)])
  func usageErrorsExitWithTwoAndOneLine(arguments: [String], message: String) async throws {
    let run = try await ReplayProcess.run(arguments)
    #expect(run == ToolRun(status: 2, stdout: "", stderr: "replay: \(message)\n"))
  }

  /// Every option `--help` lists, mistyped (its last two letters swapped), is suggested: the
  /// suggestions and the help cannot drift apart.
  @Test func everyOptionTheHelpListsIsSuggestedForATypo() async throws {
    let help = try await ReplayProcess.run(["--help"]).stdout
    let options = HelpOptions.listed(in: help)
    #expect(options.count == 9, "\(options)")
    for option in options {
      let typo = HelpOptions.typo(of: option)
      let run = try await ReplayProcess.run([typo, "login.jsonl"])
      #expect(
        run
          == ToolRun(
            status: 2, stdout: "",
            stderr: "replay: unknown option '\(typo)'; did you mean '\(option)'? "
              + "(see replay --help)\n"))
    }
  }

  static let header = try! String(
    decoding: Data(contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl")),
    as: UTF8.self
  ).split(separator: "\n")[0].description

  static let firstStep =
    #"{"seq":1,"origin":"user","action":{"edit":{"_0":{"field":"username","value":"d"}}},"effects":[],"#
    + #""digest":"cd0c0659c00e136c"}"#

  @Test(
    arguments: [
      ([""], "the file is empty: an action log starts with a header line"),
      (
        ["hello, world"],
        #"line 1: missing header: an action log starts with {"format":"loginstore.actionlog","version":1,…}"#
      ),
      (
        [#"{"format":"something.else","version":1}"#],
        "not an action log: the header's format is 'something.else', expected 'loginstore.actionlog'"
      ),
      (
        [#"{"format":"loginstore.actionlog","version":2}"#],
        "this build reads version 1; the file is version 2"
      ),
      (
        [header.replacingOccurrences(of: #""feature":"login""#, with: #""feature":"counter""#)],
        "unknown feature 'counter' (this build knows: login, app)"
      ),
      (
        [
          header.replacingOccurrences(of: #""initialState":{"#, with: #""initialState":{"x":1,"#)
            .replacingOccurrences(of: #""username":"""#, with: #""username":7"#)
        ],
        "line 1: malformed: wrong type at 'initialState.username' (expected String)"
      ),
      (
        [
          header,
          #"{"seq":1,"origin":"user","action":{"frobnicate":{}},"effects":[],"digest":"0"}"#,
        ],
        "line 2: unknown action case 'frobnicate'"
      ),
      (
        [
          header,
          #"{"seq":1,"origin":"user","action":{"edit":{"_0":{"field":"username"}}},"#
            + #""effects":[],"digest":"0"}"#,
        ],
        // A known case missing a key is not an unknown case ('edit.field', it said).
        "line 2: malformed: missing 'action.edit._0.value'"
      ),
      (
        [
          header, firstStep,
          #"{"seq":3,"origin":"user","action":{"loginButtonTapped":{}},"effects":[],"digest":"0"}"#,
        ],
        "line 3: malformed: sequence number 3 does not follow 1"
      ),
      ([header, "not json", firstStep], "line 2: malformed: not valid JSON"),
    ] as [([String], String)])
  func badInputExitsWithTwoAndTheReaderError(lines: [String], message: String) async throws {
    try await expectBadInput(lines: lines, message: message)
  }

  /// An app log whose embedded child action or effect names a case the child does not have.
  @Test(
    arguments: [
      (
        #"{"seq":1,"origin":"user","action":{"login":{"_0":{"frobnicate":{}}}},"#
          + #""effects":[],"digest":"0"}"#,
        "line 2: unknown action case 'login.frobnicate'"
      ),
      (
        #"{"seq":1,"origin":"user","action":{"settings":{"_0":{}}},"effects":[],"digest":"0"}"#,
        "line 2: unknown action case 'settings'"
      ),
      (
        #"{"seq":1,"origin":"user","action":{"login":{"_0":{"loginButtonTapped":{}}}},"#
          + #""effects":[{"home":{"_0":{"explode":{}}}}],"digest":"0"}"#,
        "line 2: malformed: unknown effect case 'home.explode'"
      ),
      (
        #"{"seq":1,"origin":"user","action":{"login":{"_0":{"edit":{"_0":{"field":"username","value":7}}}}},"#
          + #""effects":[],"digest":"0"}"#,
        "line 2: malformed: wrong type at 'action.login._0.edit._0.value' (expected String)"
      ),
    ])
  func anAppLogWithAnUnknownChildCaseExitsWithTwoNamingTheLine(step: String, message: String)
    async throws
  {
    let header = try String(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("app.jsonl"), encoding: .utf8
    ).split(separator: "\n")[0]
    try await expectBadInput(lines: [String(header), step], message: message)
  }

  private func expectBadInput(lines: [String], message: String) async throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("bad.jsonl", lines: lines)
    let run = try await ReplayProcess.run(["bad.jsonl"], in: folder.url)
    #expect(run.status == 2)
    #expect(run.stderr == "replay: \(message)\n")
  }

  @Test func binaryFileIsNotText() async throws {
    let folder = try TemporaryFolder()
    try Data([0x00, 0xFF, 0x10, 0x0A]).write(to: folder.file("bin.jsonl"))
    try await expectRefusal(
      ["bin.jsonl"], in: folder, saying: "line 1: binary data, not text; is this an action log?")
  }

  @Test func stepsBeforeABadLineArePrintedFirst() async throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("bad.jsonl", lines: [Self.header, Self.firstStep, "not json"])
    let run = try await ReplayProcess.run(["bad.jsonl"], in: folder.url)
    #expect(run.status == 2)
    #expect(run.stdout.hasPrefix(#"#1 user edit(field: "username", value: "d")"# + "\n"))
    #expect(!run.stdout.contains("#2"))
  }
}
