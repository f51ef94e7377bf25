import ActionLog
import AppFeature
import Foundation
import LoginDemoBackend
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// Runs the built `login-demo` in script mode and compares what it prints with golden files.
///
/// Each `DemoScripts/<name>.script` is fed on stdin (not a terminal, so script mode) and its
/// stdout must equal `<name>.expected.txt` byte for byte. A script with a
/// `<name>.expected-stderr.txt` must fail with exit status 2 and that stderr; the others must
/// succeed silently on stderr. A first line `# args: ...` gives command-line arguments.
/// Re-record with `RECORD_GOLDEN=1 swift test --filter LoginDemo`.
struct LoginDemoTests {
  static let scripts = [
    "wrong-password", "lockout", "success-logout", "cancel", "email-rules",
    "unknown-command", "no-alert", "2fa-success", "2fa-wrong-codes", "2fa-expiry-resend",
    "2fa-cancel", "reset-accepted", "reset-rate-limited", "reset-failure", "reset-back",
    "hints", "reset-new-address",
  ]

  @Test(arguments: scripts)
  func scriptPrintsItsGoldenScreens(_ name: String) async throws {
    let folder = DemoProcess.scriptsFolder
    let script = folder.appendingPathComponent("\(name).script")
    let output = try await DemoProcess.run(try arguments(of: script), stdin: script)

    Golden.expect(output.stdout, matches: folder.appendingPathComponent("\(name).expected.txt"))
    let stderrFile = folder.appendingPathComponent("\(name).expected-stderr.txt")
    let expectsFailure = FileManager.default.fileExists(atPath: stderrFile.path)
    if expectsFailure || (Golden.isRecording && output.status != 0) {
      #expect(output.status == 2)
      Golden.expect(output.stderr, matches: stderrFile)
    } else {
      #expect(output.status == 0)
      #expect(output.stderr == "")
    }
  }

  @Test func everyScriptInTheFolderIsChecked() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: DemoProcess.scriptsFolder.path)
    let names = files.filter { $0.hasSuffix(".script") }.map { String($0.dropLast(7)) }
    #expect(names.sorted() == Self.scripts.sorted())
  }

  @Test func theSeedFlowsReachTheirScreens() throws {
    func golden(_ name: String) throws -> String {
      try String(
        contentsOf: DemoProcess.scriptsFolder.appendingPathComponent("\(name).expected.txt"),
        encoding: .utf8)
    }
    #expect(try golden("wrong-password").contains("│ Incorrect username or password │"))
    #expect(try golden("lockout").contains("│ Sign-in locked"))
    #expect(try golden("lockout").contains("│ Maximum number of retries exceeded"))
    #expect(try golden("success-logout").contains("   Hello Demo User\n"))
    #expect(try golden("success-logout").contains("   ⠋ Signing in…\n"))
    for name in Self.scripts {
      #expect(try !golden(name).contains("Secr3t"), "\(name) shows a password in clear")
    }
  }

  @Test func aScriptFileRunsLikeStdin() async throws {
    let script = DemoProcess.scriptsFolder.appendingPathComponent("success-logout.script")
    let fromFile = try await DemoProcess.run(["--script", script.path])
    let fromStdin = try await DemoProcess.run([], stdin: script)
    #expect(fromFile.status == 0)
    #expect(fromFile.stdout == fromStdin.stdout)
  }

  @Test func helpListsTheOptionsAndTheDemoAccounts() async throws {
    let output = try await DemoProcess.run(["--help"])
    #expect(output.status == 0)
    #expect(output.stderr == "")
    #expect(output.stdout.hasPrefix("usage: login-demo [--rules default|email|min6]"))
    #expect(DemoLoginAPI.defaultAccounts.count == 3)
    #expect(
      output.stdout.contains(
        "\n  demo              Secr3t       Demo User      (rules: default)\n"))
    #expect(
      output.stdout.contains(
        "\n  ada@example.com   Engine1843   Ada Lovelace   (rules: email, min6)\n"))
    #expect(
      output.stdout.contains(
        "\n  grace             Cobol1959    Grace Hopper   (rules: default)\n"
          + "    then the code 424242 sent to •••• 42 (171717 after a resend)\n"))
  }

  @Test(arguments: [
    (["--frob"], "unknown option '--frob' (see --help)"),
    (["--frob=1"], "unknown option '--frob' (see --help)"),
    (["--recrod", "x.jsonl"], "unknown option '--recrod'; did you mean '--record'? (see --help)"),
    (["--Latency=0"], "unknown option '--Latency'; did you mean '--latency'? (see --help)"),
    (["--stat-dir", "s"], "unknown option '--stat-dir'; did you mean '--state-dir'? (see --help)"),
    (["-r"], "unknown option '-r' (see --help)"),
    (["now"], "unexpected argument 'now' (see --help)"),
    (
      ["--rules", "strict"],
      "--rules must be one of default, email, min6, not 'strict' (see --help)"
    ),
    // A value not among the choices gets a did-you-mean, as an option does.
    (
      ["--rules", "emial"],
      "--rules must be one of default, email, min6, not 'emial'; did you mean 'email'? "
        + "(see --help)"
    ),
    (
      ["--rules=Min6"],
      "--rules must be one of default, email, min6, not 'Min6'; did you mean 'min6'? (see --help)"
    ),
    (["--rules"], "--rules needs a value (see --help)"),
    (
      ["--latency", "fast"],
      "--latency must be a whole number of milliseconds from 0 to 60000, got 'fast'"
    ),
    (
      ["--latency=-5"], "--latency must be a whole number of milliseconds from 0 to 60000, got '-5'"
    ),
    (
      ["--api", "ftp://example.com"],
      "--api must be an http:// or https:// URL, got 'ftp://example.com'"
    ),
    // A refused URL is echoed with its user info masked: the password was printed whole.
    (
      ["--api", "ftp://user:PASS@host/"],
      "--api must be an http:// or https:// URL, got 'ftp://••••@host/'"
    ),
    (
      ["--api", "user:PASS@host:80/p@q"],
      "--api must be an http:// or https:// URL, got '••••@host:80/p@q'"
    ),
    // An empty path is one usage error, worded one way, for every path option.
    (["--record", ""], "--record needs a path, not an empty one (see --help)"),
    (["--script="], "--script needs a path, not an empty one (see --help)"),
    (["--state-dir", ""], "--state-dir needs a path, not an empty one (see --help)"),
    (["--flight-recorder", ""], "--flight-recorder needs a path, not an empty one (see --help)"),
    (["--script"], "--script needs a value (see --help)"),
  ])
  func aBadCommandLineFailsWithOneLine(_ arguments: [String], _ message: String) async throws {
    let output = try await DemoProcess.run(arguments)
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(output.stderr == "login-demo: \(message)\n")
  }

  @Test func recordWritesALogThatReplaysAndVerifiesWithoutThePassword() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let script = folder.file("session.script")
    try """
    type username demo
    type password Wrong1x
    tap login
    wait
    tap alert OK
    type password Secr3t
    tap login
    wait
    tap logout
    """.write(to: script, atomically: true, encoding: .utf8)
    let log = folder.file("session.jsonl")

    let output = try await DemoProcess.run(["--record", log.path], stdin: script)
    #expect(output.status == 0)
    #expect(output.stderr == "")

    let bytes = try String(contentsOf: log, encoding: .utf8)
    #expect(!bytes.contains("Secr3t"))
    #expect(!bytes.contains("Wrong1x"))
    #expect(!bytes.contains("demo-token"))
    // The demo runs one app store: the log is the app's, login and home actions embedded.
    let result = try Replayer(reducer: AppReducer()).replay(
      log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
    #expect(result.warnings.isEmpty)
    // Replayed secrets are the recorded masks: same length and character classes.
    let user = User(id: "1", username: "demo", displayName: "Demo User")
    // The demo's sessions last 12 hours from the virtual wall clock (2026-01-01T00:00:00Z plus
    // the script's time).
    let actions = result.steps.map(\.transition.action)
    guard case .login(.loginResponse(2, .success(let recorded))) = actions.dropLast(2).last,
      let expiry = recorded.expiresAt
    else {
      Issue.record("no successful sign-in at the expected step: \(actions)")
      return
    }
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // login-demo's default --now
    #expect(expiry > start.addingTimeInterval(43_200))
    #expect(expiry < start.addingTimeInterval(43_260))
    let session = Session(user: user, token: Secret("aaaa*aaaaa*0"), expiresAt: expiry)
    #expect(
      actions == [
        .login(.launched),
        .login(.restored(LaunchRecord(), at: start)),
        .login(.edit(.set(\.username, to: "demo"))),
        .login(.edit(.set(\.password, to: Secret("Aaaaa0a")))),
        .login(.loginButtonTapped),
        .login(.loginResponse(attempt: 1, .failure(.invalidCredentials))),
        .login(.alertButtonTapped("ok")),
        .login(.edit(.set(\.password, to: Secret("Aaaa0a")))),
        .login(.loginButtonTapped),
        .login(.loginResponse(attempt: 2, .success(session))),
        .home(.profileLoaded(Profile(displayName: "Demo User", unreadMessages: 3, plan: "Free"))),
        .login(.logoutButtonTapped),
      ])
    #expect(
      result.steps.last?.transition.effects == [
        .login(.clearSession), .login(.route(.popToRoot)),
        .childDismissed(AppReducer.home.dismissal),
      ])
    #expect(result.finalState == AppState(login: LoginState(username: "demo", attemptID: 2)))
  }

  @Test func aTwoFactorSessionIsRecordedWithTheCodesMaskedAndReplaysVerified() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("2fa.jsonl")
    let script = DemoProcess.scriptsFolder.appendingPathComponent("2fa-expiry-resend.script")
    let output = try await DemoProcess.run(["--record", log.path], stdin: script)
    #expect(output.status == 0)
    #expect(output.stderr == "")

    let bytes = try String(contentsOf: log, encoding: .utf8)
    for secret in ["424242", "171717", "Cobol1959", "demo-token-3"] {
      #expect(!bytes.contains(secret), "\(secret) reached the log")
    }
    let result = try Replayer(reducer: AppReducer()).replay(
      log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
    #expect(result.warnings.isEmpty)
    let actions = result.steps.map(\.transition.action)
    #expect(actions.contains(.login(.twoFactor(.codeChanged("000000")))))
    #expect(actions.contains(.login(.twoFactor(.resendTimerTicked))))
    #expect(result.finalState.login.twoFactor == nil)
    #expect(result.finalState.login.user?.username == "grace")
    #expect(result.finalState.home?.profile?.displayName == "Grace Hopper")
  }

  // MARK: - Relaunch

  private static let relaunchFolder = DemoProcess.scriptsFolder.appendingPathComponent("Relaunch")

  /// Runs `script` from `Relaunch/` with `--state-dir folder` and the extra arguments.
  private func launch(
    _ script: String, state folder: URL, _ more: [String] = []
  ) async throws -> DemoProcess.Output {
    let url = Self.relaunchFolder.appendingPathComponent("\(script).script")
    let output = try await DemoProcess.run(["--state-dir", folder.path] + more, stdin: url)
    #expect(output.status == 0, "\(script): \(output.stderr)")
    #expect(output.stderr == "")
    return output
  }

  @Test func aSignedInUserRelaunchesStraightToTheHomeScreen() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    _ = try await launch("sign-in", state: folder.url)
    let attributes = try FileManager.default.attributesOfItem(
      atPath: folder.file("session.json").path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let relaunch = try await launch("relaunch", state: folder.url)
    Golden.expect(
      relaunch.stdout, matches: Self.relaunchFolder.appendingPathComponent("home.expected.txt"))

    // Thirteen hours later the session has expired: the form, the username, the notice.
    let later = try await launch("relaunch", state: folder.url, ["--now", "2026-01-01T13:00:00Z"])
    Golden.expect(
      later.stdout, matches: Self.relaunchFolder.appendingPathComponent("expired.expected.txt"))
    #expect(
      !FileManager.default.fileExists(atPath: folder.file("session.json").path))
  }

  @Test func aLockoutHoldsAcrossARelaunchUntilItsDeadline() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    _ = try await launch("five-failures", state: folder.url)
    // The fifth failure came about 3 s in: the deadline is 30 s after it. Relaunched 13 s in,
    // about 20 s remain.
    let relaunch = try await launch(
      "still-locked", state: folder.url, ["--now", "2026-01-01T00:00:13Z"])
    Golden.expect(
      relaunch.stdout,
      matches: Self.relaunchFolder.appendingPathComponent("still-locked.expected.txt"))
    #expect(
      !FileManager.default.fileExists(atPath: folder.file("lockout.json").path))
  }

  @Test func aCorruptStateFileShowsTheFormWithANoticeAndIsLeftAsItIs() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let session = folder.file("session.json")
    try Data("{\"format\":\"loginstore.session\",\"version\":1,\"body\":{\"tok".utf8).write(
      to: session)
    let log = folder.file("launch.jsonl")
    let relaunch = try await launch("relaunch", state: folder.url, ["--record", log.path])
    Golden.expect(
      relaunch.stdout, matches: Self.relaunchFolder.appendingPathComponent("corrupt.expected.txt"))
    // It may not be the app's file: it is left byte for byte.
    #expect(
      try Data(contentsOf: session)
        == Data("{\"format\":\"loginstore.session\",\"version\":1,\"body\":{\"tok".utf8))
    // The problem arrived as an action: it is in the log, and it replays.
    let result = try Replayer(reducer: AppReducer()).replay(
      log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
    let record = LaunchRecord(sessionProblem: "session.json: not valid JSON")
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    #expect(
      result.steps.map(\.transition.action) == [
        .login(.launched), .login(.restored(record, at: start)),
      ])
    #expect(result.steps.last?.transition.effects == [])
  }

  @Test func aFlightRecorderFolderReplaysAcrossLaunches() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let state = folder.file("state")
    // Made here: the launches then have nothing to say on standard error.
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
    let flight = folder.file("flight")
    _ = try await launch("sign-in", state: state, ["--flight-recorder", flight.path])
    _ = try await launch("relaunch", state: state, ["--flight-recorder", flight.path])

    let timeline = try await DemoProcess.run([flight.path], tool: "replay")
    #expect(timeline.status == 0)
    #expect(timeline.stdout.hasPrefix("── launch 1 begins in segment-000001.jsonl ("))
    // Said once, in the timeline: not again on standard error.
    #expect(timeline.stdout.components(separatedBy: "launch 1 begins").count == 2)
    #expect(!timeline.stderr.contains("launch"), "\(timeline.stderr)")
    #expect(timeline.stdout.contains("── launch 2 begins in segment-000002.jsonl ("))
    #expect(!timeline.stdout.contains("Secr3t"))
    let verify = try await DemoProcess.run(["--verify", flight.path], tool: "replay")
    #expect(verify.status == 0)
    #expect(
      verify.stdout
        == "verified 9 steps in 2 segments: every state and effect matches the recording\n")
    let final = try await DemoProcess.run(["--state", flight.path], tool: "replay")
    #expect(final.stdout.contains("home: {") && final.stdout.contains("user: {"))
    let until = try await DemoProcess.run(["--until", "4", "--state", flight.path], tool: "replay")
    #expect(until.status == 0)
    #expect(until.stdout.contains(#"password: "Aaaa0a""#))
    let test = try await DemoProcess.run(["--emit-test", flight.path], tool: "replay")
    #expect(test.status == 0)
    #expect(test.stdout.contains("try FlightRecording(folder: folder)"))
    #expect(test.stdout.contains(#".appendingPathComponent("flight")"#))

    // The oldest segment gone: the window starts later and says so.
    try FileManager.default.removeItem(at: flight.appendingPathComponent("segment-000001.jsonl"))
    let rest = try await DemoProcess.run([flight.path], tool: "replay")
    #expect(rest.status == 0)
    #expect(rest.stdout.hasPrefix("── launch 1 begins in segment-000002.jsonl ("))
  }

  /// A file that is not an action log but bears a segment's name (9 MiB, over the default
  /// 8 MiB budget) was deleted by a short launch, without a word. It is left byte for byte,
  /// named once on standard error, and the launch ends as any other (status 0).
  @Test func aFlightRecorderLeavesAForeignFileWithASegmentsNameAndSaysSo() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let state = folder.file("state")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
    let flight = folder.file("flight")
    try FileManager.default.createDirectory(at: flight, withIntermediateDirectories: false)
    let foreign = flight.appendingPathComponent("segment-000001.jsonl")
    let bytes = Data(repeating: UInt8(ascii: "x"), count: 9 * 1_024 * 1_024)
    try bytes.write(to: foreign)

    let output = try await DemoProcess.run(
      ["--state-dir", state.path, "--flight-recorder", flight.path],
      stdin: Self.relaunchFolder.appendingPathComponent("sign-in.script"))
    #expect(output.status == 0)
    #expect(
      output.stderr
        == "login-demo: warning: segment-000001.jsonl in 'flight' does not begin with an action "
        + "log's header: not a segment this recorder wrote, so it is left as it is and not "
        + "counted in the budget\n")
    #expect(try Data(contentsOf: foreign) == bytes)
    let recorded = flight.appendingPathComponent("segment-000002.jsonl")
    #expect(FileManager.default.fileExists(atPath: recorded.path))
  }

  /// `--flight-recorder` fails after `--record` has started: the action log is closed before
  /// the demo exits, not left empty.
  @Test func aFlightRecorderThatCannotStartClosesTheActionLogFirst() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("launch.jsonl")
    let notAFolder = folder.file("flight")
    try Data().write(to: notAFolder)
    let output = try await DemoProcess.run([
      "--record", log.path, "--flight-recorder", notAFolder.path,
    ])
    #expect(output.status == 1)
    #expect(
      output.stderr
        == "login-demo: cannot record to the folder '\(notAFolder.path)': I/O error: 'flight' is "
        + "not a folder\n")
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.last == #"{"kind":"closed"}"#)
    let result = try Replayer(reducer: AppReducer()).replay(
      log, options: ActionLogReadOptions(expectedFeature: "app"))
    #expect(result.warnings.isEmpty)
    #expect(result.finalState == AppState())
  }

  /// Every option `--help` lists, mistyped (its last two letters swapped), is suggested: the
  /// suggestions and the help cannot drift apart.
  @Test func everyOptionTheHelpListsIsSuggestedForATypo() async throws {
    let help = try await DemoProcess.run(["--help"]).stdout
    let options = HelpOptions.listed(in: help)
    #expect(options.count == 9, "\(options)")
    for option in options {
      let typo = HelpOptions.typo(of: option)
      let output = try await DemoProcess.run([typo])
      #expect(output.status == 2)
      #expect(
        output.stderr
          == "login-demo: unknown option '\(typo)'; did you mean '\(option)'? (see --help)\n")
    }
  }

  /// A path that names a file is a bad command line, as `--help` says of those (exit status 2).
  @Test func aStateFolderThatIsAFileIsAClearError() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let file = folder.file("not-a-folder")
    try Data().write(to: file)
    let output = try await DemoProcess.run(["--state-dir", file.path])
    #expect(output.status == 2)
    #expect(output.stderr == "login-demo: --state-dir '\(file.path)' is not a folder\n")
    let inside = try await DemoProcess.run(["--state-dir", file.path + "/state"])
    #expect(inside.status == 2)
    #expect(
      inside.stderr
        == "login-demo: --state-dir '\(file.path)/state': '\(file.path)' is not a folder\n")
  }

  /// A missing state folder is made (0700) and standard error says so, once: the next launch
  /// finds it.
  @Test func aMissingStateFolderIsCreatedAndSaidOnce() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let state = folder.file("state")
    let first = try await DemoProcess.run(["--state-dir", state.path])
    #expect(first.status == 0)
    #expect(first.stderr == "login-demo: created state folder '\(state.path)'\n")
    let attributes = try FileManager.default.attributesOfItem(atPath: state.path)
    #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    let second = try await DemoProcess.run(["--state-dir", state.path])
    #expect(second.status == 0)
    #expect(second.stderr == "")
  }

  /// Only the last folder of the path is made: a mistyped parent is a bad command line that
  /// names it, and no folder appears.
  @Test func aStateFolderWhoseParentIsMissingIsAUsageErrorThatNamesIt() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let state = folder.file("missing/dir/state")
    let output = try await DemoProcess.run(["--state-dir", state.path])
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(
      output.stderr
        == "login-demo: --state-dir '\(state.path)': the folder '\(folder.file("missing/dir").path)' "
        + "does not exist\n")
    #expect(!FileManager.default.fileExists(atPath: folder.file("missing").path))
  }

  /// A path whose folder does not exist is a bad command line, the same in every option: the
  /// whole path named, status 2, and nothing made (issue 49 §2).
  @Test(arguments: [
    ["--record", "/nonexistent/dir/x.jsonl"], ["--flight-recorder", "/nonexistent/dir/rec"],
    ["--state-dir", "/nonexistent/dir/state"],
  ])
  func aPathWhoseFolderIsMissingIsABadCommandLineInEveryOption(_ arguments: [String]) async throws {
    let output = try await DemoProcess.run(arguments)
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(
      output.stderr
        == "login-demo: \(arguments[0]) '\(arguments[1])': the folder '/nonexistent/dir' does not "
        + "exist\n")
    #expect(!FileManager.default.fileExists(atPath: "/nonexistent"))
  }

  @Test func apiSignsInAgainstARealHTTPServer() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let script = folder.file("api.script")
    try "type username demo\ntype password Secr3t\ntap login\nwait\n"
      .write(to: script, atomically: true, encoding: .utf8)

    let output = try await DemoProcess.run(
      ["--api", server.baseURL.absoluteString], stdin: script)
    #expect(output.status == 0)
    #expect(output.stderr == "")
    let lastScreen = output.stdout.components(separatedBy: "── after line 4: wait ──").last ?? ""
    #expect(lastScreen.contains("Hello Demo User"))
    #expect(await server.waitForRequest(from: "demo"))
  }

  /// With `--api`, a command after one that started a request reaches the app while the
  /// request is in flight, as a key does on the full screen: `tap cancel` after `tap login`,
  /// and `tap back` after `tap send`, against a server that never answers. Each used to wait
  /// for the request to end (the timeout's alert), then fail: "an alert is showing".
  @Test(arguments: [
    (
      "type username silent\ntype password Secr3t\ntap login\ntap cancel\n",
      "── after line 4: tap cancel ──", "[ Login ]\n"
    ),
    (
      "tap forgot\ntype email silent@example.com\ntap send\ntap back\n",
      "── after line 4: tap back ──", "[ Forgot password? ]\n"
    ),
  ])
  func aRequestToAServerThatDoesNotAnswerCanBeLeftAtOnce(
    script text: String, header: String, shown: String
  ) async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let script = folder.file("api.script")
    try text.write(to: script, atomically: true, encoding: .utf8)

    let output = try await DemoProcess.run(
      ["--api", server.baseURL.absoluteString], stdin: script)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stderr == "")
    // The request was in flight while its screen printed, and the next command left it.
    let lines = output.stdout.components(separatedBy: header)
    #expect(lines.first?.contains("⠋ ") == true, "\(output.stdout)")
    let last = lines.count == 2 ? lines[1] : ""
    #expect(last.contains(shown), "\(output.stdout)")
    #expect(!last.contains("⠋ ") && !last.contains("┌"), "\(output.stdout)")
  }

  /// `wait` still waits for the real service's answer.
  @Test func waitWaitsForTheAnswerOfTheRealService() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let script = folder.file("api.script")
    try "tap forgot\ntype email ada@example.com\ntap send\nwait\n"
      .write(to: script, atomically: true, encoding: .utf8)
    let output = try await DemoProcess.run(
      ["--api", server.baseURL.absoluteString], stdin: script)
    #expect(output.status == 0, "\(output.stderr)")
    let last = output.stdout.components(separatedBy: "── after line 4: wait ──").last ?? ""
    #expect(last.contains("✓ If an account exists for a••••@example.com"), "\(output.stdout)")
  }

  /// A path the command line names that is not there is an input error (status 2), as a
  /// missing folder is.
  @Test func aMissingScriptFileFailsWithStatusTwo() async throws {
    let output = try await DemoProcess.run(["--script", "/nonexistent/demo.script"])
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(
      output.stderr
        == "login-demo: cannot read script '/nonexistent/demo.script': No such file or directory\n"
    )
  }

  /// The `# args: ...` line at the top of a script, split on spaces.
  private func arguments(of script: URL) throws -> [String] {
    let text = try String(contentsOf: script, encoding: .utf8)
    guard let first = text.split(separator: "\n").first, first.hasPrefix("# args: ") else {
      return []
    }
    return first.dropFirst("# args: ".count).split(separator: " ").map(String.init)
  }
}
