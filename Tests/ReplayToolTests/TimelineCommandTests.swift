import ActionLog
import AppFeature
import Foundation
import LoginFeature
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// `replay --html OUT LOG`, run as a person runs it: the built executable on the fixture logs
/// and on logs recorded here, and the page read back.
@MainActor struct TimelineCommandTests {
  static let fixtures = ReplayProcess.fixtures

  @Test func aCleanLogGetsAPageThatSaysItReplaysCleanly() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "login.html", log], in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 0,
          stdout: "wrote 'login.html': 10 steps; every state and effect matches the recording\n",
          stderr: ""))
    #expect(try folder.names() == ["login.html"], "no temporary file is left behind")
    #expect(try Self.permissions(folder.file("login.html")) == 0o600, "as private as its log")

    let page = try TimelinePageData(contentsOf: folder.file("login.html"))
    #expect(page.json["featureName"] as? String == "login")
    #expect(page.json["createdAt"] as? String == "2026-11-25T01:54:55Z")
    #expect(page.json["logCheckpointInterval"] as? Int == 4)
    #expect(page.stepCount == 10)
    #expect(page.sequenceNumbers == Array(1...10))
    // Two answers of the login service; the alert's OK is the person's tap (origin user).
    #expect(page.origins.filter { $0 == "effect" }.count == 2)
    #expect(page.verify["status"] as? String == "clean")
    #expect(page.end["type"] as? String == "end")
    #expect(page.action(0) == #"edit(field: "username", value: "d")"#)
    #expect(
      page.effects(4) == [#"authenticate((password: "Aaaa0a", username: "demo"), attempt: 1)"#])
    #expect(page.facts.first?.first == "Rules")
    #expect(page.facts.first?.last?.hasPrefix("default (username 2 to 10 characters") == true)
    // Nothing to fetch: no URL, no external script, style, font or image.
    #expect(!page.html.contains("://"))
    #expect(!page.html.contains("src="))
    #expect(!page.html.contains("@import"))
    #expect(
      page.html.contains(#"content="default-src 'none'; script-src 'sha256-"#),
      "the page forbids every fetch and every script but its own")
  }

  @Test func everyStateOnThePageIsTheReplayedState() async throws {
    let folder = try TemporaryFolder()
    let long = folder.file("long.jsonl")
    try await Recordings.appMix(1_234, to: long)
    let logs: [(URL, Feature)] = [
      (Self.fixtures.appendingPathComponent("login.jsonl"), .login),
      (Self.fixtures.appendingPathComponent("app.jsonl"), .app),
      (long, .app),
    ]
    for (log, feature) in logs {
      let run = try await ReplayProcess.run(["--html", "page.html", log.path], in: folder.url)
      #expect(run.status == 0, "\(run)")
      let page = try TimelinePageData(contentsOf: folder.file("page.html"))
      let replayed = try Self.replayedStates(of: log, as: feature)
      #expect(page.stepCount == replayed.steps.count)
      #expect(page.initialLines == replayed.initial)
      for (index, expected) in replayed.steps.enumerated() {
        guard page.stateLines(after: index) == expected else {
          let diff = Dump.diff(
            expected.joined(separator: "\n"),
            page.stateLines(after: index).joined(separator: "\n"))
          let message =
            "\(log.lastPathComponent): the page's state after step \(index + 1) differs:\n"
            + (diff ?? "")
          Issue.record(Comment(rawValue: message))
          break
        }
      }
      try FileManager.default.removeItem(at: folder.file("page.html"))
    }
  }

  @Test func theLoginScreenShowsFieldsHintsSpinnerAlertAndRoutes() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    #expect(
      try await ReplayProcess.run(["--html", "login.html", log], in: folder.url).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("login.html"))
    #expect(
      page.initialScreen?.summary == [
        // No hint before the person has touched a field.
        "title LoginStore demo", "path login", "field Username=", "secure Password=0",
        "button Login false", "button Forgot password? true",
      ])
    // #1: the username was edited, so its hint shows; the password's wait for the password.
    #expect(
      page.screen(after: 0)?.summary == [
        "title LoginStore demo", "path login", "field Username=d", "secure Password=0",
        "text[error] ✗ Username must be 2 to 10 characters", "button Login false",
        "button Forgot password? true",
      ])
    // #5: the request is in flight; it can be cancelled, "Forgot password?" waits for it.
    #expect(
      page.screen(after: 4)?.summary == [
        "title LoginStore demo", "path login", "field Username=demo", "secure Password=6",
        "text[success] ✓ Ready to sign in", "button Login false",
        "button Forgot password? false", "spinner Signing in…", "button Cancel true",
      ])
    // #6: the answer is a failure and its alert shows; #7: its button dismissed it.
    #expect(
      page.screen(after: 5)?.summary.last
        == "alert Couldn't sign in: Incorrect username or password OK")
    #expect(page.screen(after: 6)?.summary.contains { $0.hasPrefix("alert") } == false)
    #expect(
      page.screen(after: 6)?.summary.contains("text[warning] Failed attempts: 1 of 5") == true)
    // #10: signed in — the route effect pushed the home screen.
    #expect(
      page.screen(after: 9)?.summary == [
        "title LoginStore demo", "path login › home(demo)", "heading Hello Demo User",
        "text[dim] Signed in as demo", "button Logout true",
      ])
  }

  /// The screen shows the alerts the last step that presented any presented: a new one
  /// replaces one left showing, and alerts never pile up (each would grow every later screen).
  @Test func alertsShownWithoutATapReplaceEachOtherInsteadOfPilingUp() async throws {
    let folder = try TemporaryFolder()
    let failure = LoginAction.loginResponse(attempt: 1, .failure(.invalidCredentials))
    try await Recordings.login(
      [
        .edit(.set(\.username, to: "demo")), .edit(.set(\.password, to: Secret("Secr3t"))),
        .loginButtonTapped, failure,
        .loginButtonTapped, .loginResponse(attempt: 2, .failure(.invalidCredentials)),
        .alertButtonTapped("ok"),
      ], to: folder.file("alerts.jsonl"))
    let run = try await ReplayProcess.run(["--html", "a.html", "alerts.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let page = try TimelinePageData(contentsOf: folder.file("a.html"))
    func alerts(after index: Int) -> [String] {
      page.screen(after: index)?.summary.filter { $0.hasPrefix("alert") } ?? []
    }
    #expect(alerts(after: 3) == ["alert Couldn't sign in: Incorrect username or password OK"])
    #expect(alerts(after: 5) == ["alert Couldn't sign in: Incorrect username or password OK"])
    #expect(alerts(after: 6) == [], "one tap dismisses what shows")
  }

  /// "Forgot password?" shows the password-reset step instead of the form: the email as the
  /// state holds it, its validation, the button's title and whether it is enabled, the
  /// confirmation and the wait before "Send again"; a failure's alert shows and is dismissed;
  /// Back brings the form back.
  @Test func thePasswordResetStepShowsItsFieldButtonConfirmationAndWait() async throws {
    let folder = try TemporaryFolder()
    let failure = PasswordResetResult.failure(.wrongStatusCode(500))
    try await Recordings.login(
      [
        .forgotPasswordTapped, .passwordReset(.edit(.set(\.email, to: "ada@"))),
        .passwordReset(.edit(.set(\.email, to: "ada@example.com"))),
        .passwordReset(.sendButtonTapped), .passwordReset(.sendResponse(request: 1, failure)),
        .passwordReset(.alertButtonTapped("ok")), .passwordReset(.sendButtonTapped),
        .passwordReset(.sendResponse(request: 2, .success(.accepted))),
        .passwordReset(.resendTimerTicked), .passwordReset(.backButtonTapped),
      ], to: folder.file("reset.jsonl"))
    let run = try await ReplayProcess.run(["--html", "r.html", "reset.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let page = try TimelinePageData(contentsOf: folder.file("r.html"))
    let top = ["title LoginStore demo", "path login", "heading Reset your password"]
    #expect(
      page.screen(after: 0)?.summary
        == top + [
          "field Email=", "button Send link false", "button Back true",
        ])
    #expect(
      page.screen(after: 1)?.summary
        == top + [
          "field Email=ada@", "text[error] ✗ Email is not valid", "button Send link false",
          "button Back true",
        ])
    #expect(
      page.screen(after: 3)?.summary
        == top + [
          "field Email=ada@example.com", "button Send link false", "button Back true",
          "spinner Sending the link…",
        ])
    let alert = page.screen(after: 4)?.summary.last ?? ""
    #expect(alert.hasPrefix("alert Couldn't send the link: The server could not "), "\(alert)")
    #expect(page.screen(after: 5)?.summary.contains { $0.hasPrefix("alert") } == false)
    #expect(
      page.screen(after: 8)?.summary
        == top + [
          "field Email=ada@example.com",
          "text[success] ✓ If an account exists for a••••@example.com, a reset link is on its way.",
          "text[warning] You can send again in 59 seconds.", "button Send again false",
          "button Back true",
        ])
    #expect(page.screen(after: 9)?.summary.contains("heading Reset your password") == false)
    #expect(page.screen(after: 9)?.summary.contains("button Login false") == true)
  }

  @Test func theAppScreenFollowsTheHomeScreenAndItsProfile() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("app.jsonl").path
    #expect(
      try await ReplayProcess.run(["--html", "app.html", log], in: folder.url).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("app.html"))
    // The demo's log begins with the launch and its restore: the sign-in is step 10.
    #expect(
      page.screen(after: 9)?.summary == [
        "title LoginStore demo", "path login › home(demo)", "heading Hello Demo User",
        "text[dim] Signed in as demo", "spinner Loading your profile…", "button Logout true",
      ])
    #expect(
      page.screen(after: 10)?.summary.contains("text[plain] Free plan · 3 unread messages")
        == true)
    #expect(page.screen(after: 11)?.summary.contains("path login") == true)
  }

  @Test func aDivergenceIsMarkedWithBothDiffsAndTheReplayGoesOn() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login-divergent.jsonl").path
    let plain = try await ReplayProcess.run(["--html", "plain.html", log], in: folder.url)
    #expect(
      plain
        == ToolRun(
          status: 0, stdout: "wrote 'plain.html': 10 steps; step 4 diverges from the recording\n",
          stderr: ""))
    let verified = try await ReplayProcess.run(
      ["--html", "v.html", "--verify", log], in: folder.url)
    #expect(
      verified
        == ToolRun(
          status: 1, stdout: "wrote 'v.html': 10 steps; step 4 diverges from the recording\n",
          stderr: #"replay: step 4 (edit(field: "password", value: "Aaaa0")): the replayed "#
            + "state differs from the recorded state\n"))

    let page = try TimelinePageData(contentsOf: folder.file("v.html"))
    #expect(page.stepCount == 10, "the steps after the divergence are on the page too")
    #expect(page.verify["status"] as? String == "diverged")
    #expect(page.verify["index"] as? Int == 3)
    #expect(page.verify["number"] as? Int == 4)
    #expect(
      page.verify["cause"] as? String == "the replayed state differs from the recorded state")
    let recorded = try #require(page.verify["recorded"] as? [String: Any])
    let replayed = try #require(page.verify["replayed"] as? [String: Any])
    #expect((recorded["diff"] as? [String])?.contains(#"+ password: "Aaaa0a""#) == true)
    #expect((replayed["diff"] as? [String])?.contains(#"+ password: "Aaaa0""#) == true)
    // From the divergent step on, the State tab shows what the log records; the replayed
    // state is on the replayed side.
    #expect(page.stateLines(after: 3).contains(#"password: "Aaaa0a""#))
    // The field that differs, recorded − and replayed +, as `replay --verify` prints it.
    // Only the changed lines are marked; the rest is counted.
    #expect(
      (page.verify["fieldDiff"] as? [String])?.filter { !$0.hasPrefix("  ") } == [
        #"− password: "Aaaa0a""#, #"+ password: "Aaaa0""#,
      ])
  }

  /// A divergence the log has no checkpoint for: other effects (the digest matched, so the
  /// recorded state is the replayed one), or, in a log recorded before steps had patches,
  /// another digest (the recorded state is unknown).
  @Test(
    arguments: [
      (
        "login.jsonl",
        #""effects":[{"authenticate":{"_0":{"password":"Aaaa0a","username":"demo"},"attempt":1}}]"#,
        #""effects":[]"#, 4, "the reducer returned other effects than recorded", true
      ),
      (
        "login-before-patches.jsonl",
        #""digest":"7b9347d7fadc8294""#, #""digest":"0000000000000000""#, 1,
        "the replayed state's digest 7b9347d7fadc8294 differs from the recorded 0000000000000000 "
          + "(no checkpoint at this step to diff against)", false
      ),
    ])
  func aDivergenceWithoutACheckpointSaysWhatTheLogHolds(
    fixture: String, recorded: String, changed: String, index: Int, reason: String,
    hasState: Bool
  ) async throws {
    let folder = try TemporaryFolder()
    let text = try String(
      contentsOf: Self.fixtures.appendingPathComponent(fixture), encoding: .utf8)
    try #require(text.contains(recorded))
    try Data(text.replacingOccurrences(of: recorded, with: changed).utf8)
      .write(to: folder.file("d.jsonl"))
    let run = try await ReplayProcess.run(["--html", "d.html", "d.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let page = try TimelinePageData(contentsOf: folder.file("d.html"))
    #expect(page.stepCount == 10)
    #expect(page.verify["index"] as? Int == index)
    #expect(page.verify["cause"] as? String == reason)
    let recordedSide = try #require(page.verify["recorded"] as? [String: Any])
    let replayedSide = try #require(page.verify["replayed"] as? [String: Any])
    #expect(recordedSide["hasState"] as? Bool == hasState)
    #expect(replayedSide["hasState"] as? Bool == true)
    if hasState {
      // Marked as `replay --verify` marks them: + for what only the replay returned.
      #expect(page.verify["recordedEffects"] as? [String] == [])
      #expect(
        page.verify["replayedEffects"] as? [String] == [
          #"+ authenticate((password: "Aaaa0a", username: "demo"), attempt: 1)"#
        ])
      #expect(page.verify["fieldDiff"] == nil, "the same state: no field differs")
      #expect((recordedSide["diff"] as? [String]) == (replayedSide["diff"] as? [String]))
    } else {
      #expect(recordedSide["diff"] as? [String] == [])
      #expect((recordedSide["note"] as? String)?.contains("only this step's digest") == true)
    }
  }

  /// A step between checkpoints whose replayed state differs: its patch rebuilds the recorded
  /// state, so the page shows the fields that differ, the secret as its mask.
  @Test func aDivergenceBetweenCheckpointsShowsTheRecordedState() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login-divergent-step3.jsonl").path
    let run = try await ReplayProcess.run(["--html", "d.html", log], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let page = try TimelinePageData(contentsOf: folder.file("d.html"))
    #expect(page.verify["index"] as? Int == 2)
    #expect(page.verify["cause"] as? String == "the replayed state differs from the recorded state")
    let recordedSide = try #require(page.verify["recorded"] as? [String: Any])
    #expect(recordedSide["hasState"] as? Bool == true)
    #expect((recordedSide["note"] as? String)?.contains("its patch applied") == true)
    #expect((recordedSide["diff"] as? [String])?.contains(#"+ password: "A""#) == true)
    #expect(
      (page.verify["fieldDiff"] as? [String])?.filter { !$0.hasPrefix("  ") } == [
        #"− password: "A""#, #"+ password: "Aa""#,
      ])
  }

  /// The login fixture with one recorded action changed: step 2 typed `dem0` where the
  /// recording says `demo`, so the replay differs from the recording at every later step.
  private static func loginTypedDifferently(_ name: String) throws -> [String] {
    let lines = try String(
      contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    var changed = lines
    changed[2] = lines[2].replacingOccurrences(
      of: #""field":"username","value":"demo"}"#, with: #""field":"username","value":"dem0"}"#)
    #expect(changed[2] != lines[2], "the fixture's step 2 no longer types demo")
    return changed
  }

  /// After the first divergence the page shows what the log records — the state its patches
  /// rebuild and the recorded effects — and checks every later step's replay against it: the
  /// fields and effects that differ are on the page, recorded − and replayed +.
  @Test func stepsAfterADivergenceShowTheRecordedStateAndWhatTheReplayChanges() async throws {
    let folder = try TemporaryFolder()
    try folder.write("typo.jsonl", lines: try Self.loginTypedDifferently("login.jsonl"))
    let run = try await ReplayProcess.run(["--html", "t.html", "typo.jsonl"], in: folder.url)
    #expect(run.stdout == "wrote 't.html': 10 steps; step 2 diverges from the recording\n")
    let page = try TimelinePageData(contentsOf: folder.file("t.html"))
    #expect(page.verify["index"] as? Int == 1)
    #expect(page.steps["recording"] as? String == "vxxxxxxxxx")
    // Every later step shows the recorded username, and says what the replay has instead.
    for index in 1..<10 {
      #expect(page.stateLines(after: index).contains(#"username: "demo""#), "step \(index)")
    }
    let differences = page.recordingDifferences
    #expect(differences.keys.sorted() == Array(2...9))
    #expect(
      differences[3]?.fields.filter { !$0.hasPrefix("  ") } == [
        #"− username: "demo""#, #"+ username: "dem0""#,
      ])
    // The sign-in sends what was typed: the effects differ too, and the page shows the
    // recorded one among the step's effects.
    #expect(
      differences[4]?.recordedEffects == [
        #"− authenticate((password: "Aaaa0a", username: "demo"), attempt: 1)"#
      ])
    #expect(
      differences[4]?.replayedEffects == [
        #"+ authenticate((password: "Aaaa0a", username: "dem0"), attempt: 1)"#
      ])
    #expect(page.effects(4).first?.contains(#"username: "demo""#) == true)
    #expect(differences.values.allSatisfy { $0.note == nil }, "\(differences.values.map(\.note))")
  }

  /// A patch edited so that it no longer rebuilds the state its step's digest names is a
  /// malformed line, named where it is read: the page holds the steps before it, and the run
  /// says which line and which field (it used to render on and note it at a later step).
  @Test func aPatchThatDoesNotRebuildItsDigestStopsThePageAtItsLine() async throws {
    let folder = try TemporaryFolder()
    var lines = try Self.loginTypedDifferently("login.jsonl")
    lines[2] = lines[2].replacingOccurrences(
      of: #"{"at":["username"],"value":"demo"}"#, with: #"{"at":["username"],"value":"dem0"}"#)
    try folder.write("edited.jsonl", lines: lines)
    let run = try await ReplayProcess.run(["--html", "e.html", "edited.jsonl"], in: folder.url)
    #expect(run.status == 2, "\(run)")
    #expect(run.stdout == "wrote 'e.html': 1 step before the bad input\n")
    #expect(
      run.stderr
        == "replay: line 3: malformed: the state its 'patch' rebuilds does not have the digest "
        + "its 'digest' records (one of the two was changed)\n")
  }

  /// Where the replay agrees with the recording again after a divergence, the page says so;
  /// nothing is listed as differing.
  @Test func stepsAfterADivergenceThatAgreeAgainAreMarkedAsAgreeing() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login-divergent-step3.jsonl").path
    _ = try await ReplayProcess.run(["--html", "d.html", log], in: folder.url)
    let page = try TimelinePageData(contentsOf: folder.file("d.html"))
    #expect(page.steps["recording"] as? String == "vvxsssssss")
    #expect(page.recordingDifferences.isEmpty)
    // The divergent step's own state is the recorded one (its diff is in `verify`).
    #expect(page.stateLines(after: 2).contains(#"password: "A""#))
  }

  /// A log recorded before steps had patches holds states at its checkpoints only: between
  /// them the page still knows, by digest, that the replay differs, and says it cannot show the
  /// recorded state there.
  @Test func aLogWithoutPatchesIsCheckedByDigestAfterADivergence() async throws {
    let folder = try TemporaryFolder()
    try folder.write(
      "old.jsonl", lines: try Self.loginTypedDifferently("login-before-patches.jsonl"))
    _ = try await ReplayProcess.run(["--html", "o.html", "old.jsonl"], in: folder.url)
    let page = try TimelinePageData(contentsOf: folder.file("o.html"))
    #expect(page.steps["recording"] as? String == "vxxxxxxxxx")
    let differences = page.recordingDifferences
    // Steps 4 and 8 are checkpoints: their recorded states are known.
    for index in [3, 7] {
      #expect(differences[index]?.fields.contains(#"− username: "demo""#) == true)
      #expect(differences[index]?.note == nil)
    }
    for index in [2, 5, 6, 8, 9] {
      #expect(differences[index]?.fields == [], "step \(index)")
      #expect(
        differences[index]?.note?.contains("recorded before steps had patches") == true,
        "step \(index)")
    }
  }

  /// Long values: each step types another 10 KB username, which the action, its JSON, its
  /// label, the state's line and the screen's field all hold. The page keeps each once and
  /// stays smaller than its log (it was 3× the log, 5× in the issue's larger run); every text
  /// still reads whole.
  @Test func aPageOfLongValuesIsSmallerThanItsLog() async throws {
    let folder = try TemporaryFolder()
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(
      to: folder.file("long.jsonl"), feature: LoginReducer.actionLogFeature)
    let names = (0..<40).map { index in
      String(repeating: String(UnicodeScalar(UInt8(97 + index % 26))), count: 10_000)
        + String(index)
    }
    for name in names { store.send(.edit(.set(\.username, to: PersonalData(name)))) }
    await recorder.close()
    let run = try await ReplayProcess.run(
      ["--html", "long.html", "long.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let log = try Data(contentsOf: folder.file("long.jsonl")).count
    let page = try Data(contentsOf: folder.file("long.html")).count
    #expect(page <= log, "a page of \(page) bytes for a log of \(log)")
    let data = try TimelinePageData(contentsOf: folder.file("long.html"))
    #expect(data.runs.count >= names.count)
    for (index, name) in names.enumerated() {
      #expect(data.stateLines(after: index).contains(Self.fieldLine("username", name)))
      #expect(data.action(index).contains(name))
    }
    let field = data.screen(after: names.count - 1)?.first { $0["k"] as? String == "field" }
    #expect(
      field.map { "\($0)" }?.contains(names[names.count - 1]) == true,
      "\(String(describing: field).prefix(200))")
  }

  @Test func aTruncatedLogShowsItsStepsAndTheWarning() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login-truncated.jsonl").path
    let run = try await ReplayProcess.run(["--html", "t.html", log], in: folder.url)
    #expect(run.status == 0)
    #expect(
      run.stderr
        == "replay: warning: line 11: the last line is incomplete (the app stopped mid-write); "
        + "everything before it was replayed\n")
    let page = try TimelinePageData(contentsOf: folder.file("t.html"))
    #expect(page.stepCount == 9)
    #expect(page.warnings.map { $0["type"] as? String } == ["truncated"])
  }

  @Test func aBadLineGetsThePageOfEverythingBeforeItAndExitStatusTwo() async throws {
    let folder = try TemporaryFolder()
    let lines = try String(
      contentsOf: Self.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    try folder.write("bad.jsonl", lines: Array(lines[0...2]) + ["not json"] + Array(lines[3...]))
    let run = try await ReplayProcess.run(["--html", "bad.html", "bad.jsonl"], in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "wrote 'bad.html': 2 steps before the bad input\n",
          stderr: "replay: line 4: malformed: not valid JSON\n"))
    let page = try TimelinePageData(contentsOf: folder.file("bad.html"))
    #expect(page.stepCount == 2)
    #expect(page.end["type"] as? String == "error")
    #expect(page.end["message"] as? String == "line 4: malformed: not valid JSON")
  }

  /// Rows carry the time since the start and the gap to the step before; a log recorded
  /// before steps had times still gets its page, without them.
  @Test func stepsShowTheirTimesAndOlderLogsWithoutTimesStillOpen() async throws {
    let folder = try TemporaryFolder()
    let text = try String(
      contentsOf: Self.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8)
    let timeless = text.replacing(/"time":[0-9]+,/, with: "")
    #expect(timeless != text)
    try Data(timeless.utf8).write(to: folder.file("old.jsonl"))
    for name in ["old", "new"] {
      let log =
        name == "old" ? "old.jsonl" : Self.fixtures.appendingPathComponent("login.jsonl").path
      let run = try await ReplayProcess.run(["--html", "\(name).html", log], in: folder.url)
      #expect(run.status == 0, "\(run)")
    }
    let old = try TimelinePageData(contentsOf: folder.file("old.html"))
    #expect(old.stepCount == 10)
    #expect(old.steps["clock"] == nil && old.steps["since"] == nil)
    let new = try TimelinePageData(contentsOf: folder.file("new.html"))
    let replay = try Replayer(reducer: LoginReducer()).replay(
      Self.fixtures.appendingPathComponent("login.jsonl"), keepingSteps: true)
    #expect(
      new.steps["clock"] as? [String]
        == replay.steps.map { TransitionFormatter.clock($0.time ?? .zero) })
    let since = (new.steps["since"] as? [Int] ?? []).map { $0 < 0 ? nil : new.strings[$0] }
    let expected = replay.steps.indices.map { index in
      index == 0 ? nil : (replay.steps[index].time! - replay.steps[index - 1].time!).inWords
    }
    #expect(since == expected)
  }

  /// A log larger than a page can hold is refused before anything is read or written, with
  /// its size and the limit in bytes: one byte over the limit does not read as the limit.
  @Test(arguments: [(64 << 20) + 1, 65 << 20])
  func aLogTooLargeForAPageIsRefusedNamingTheLimit(size: Int) async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("big.jsonl")
    #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
    let handle = try FileHandle(forWritingTo: log)
    try handle.truncate(atOffset: UInt64(size))  // sparse: nothing is written
    try handle.close()
    let run = try await ReplayProcess.run(["--html", "big.html", "big.jsonl"], in: folder.url)
    let words = size == (64 << 20) + 1 ? "67,108,865" : "68,157,440"
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "",
          stderr: "replay: 'big.jsonl' is \(words) bytes, over the 64 MiB (67,108,864 bytes) a "
            + "timeline page takes; larger pages are more than a browser opens: replay it as "
            + "text instead (replay FILE, or --until N)\n"))
    #expect(try folder.names() == ["big.jsonl"], "no page is written")
  }

  @Test func aLogOfExactlyTheLimitIsNotRefusedForItsSize() async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("limit.jsonl")
    #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
    let handle = try FileHandle(forWritingTo: log)
    try handle.truncate(atOffset: 64 << 20)  // zeros: read, and refused as not text
    try handle.close()
    let run = try await ReplayProcess.run(["--html", "l.html", "limit.jsonl"], in: folder.url)
    #expect(run.status == 2)
    #expect(!run.stderr.contains("a timeline page takes"), "\(run.stderr)")
  }

  @Test func aLogWhoseHeaderCannotBeReadGetsNoPage() async throws {
    let folder = try TemporaryFolder()
    try folder.write("empty.jsonl", lines: [])
    let run = try await ReplayProcess.run(["--html", "e.html", "empty.jsonl"], in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "",
          stderr: "replay: the file is empty: an action log starts with a header line\n"))
    #expect(try folder.names() == ["empty.jsonl"])
  }

  @Test func aFlightRecordersFolderIsOnePageWithItsLaunchesAndRotatedOutStartMarked()
    async throws
  {
    let folder = try TemporaryFolder()
    let flight = folder.file("flight")
    // Launch 1 rolls its oldest segments out of a small budget; launch 2 is short.
    for (launch, count) in [(1, 300), (2, 3)] {
      let store = Store(initialState: LoginState(), reducer: LoginReducer())
      let recorder = try store.recordFlight(
        to: flight, feature: LoginReducer.actionLogFeature,
        options: FlightRecorderOptions(
          budget: 16_384, segmentCount: 4, recording: RecordingOptions(checkpointInterval: 50)))
      for index in 0..<count { store.send(.edit(.set(\.username, to: "user\(launch)-\(index)"))) }
      await recorder.close()
    }
    let recording = try FlightRecording(folder: flight)
    let replay = recording.replay(with: LoginReducer())
    var states: [LoginState] = []
    var events: [String] = []
    while let event = try replay.next() {
      switch event {
      case .rotatedOut(let steps): events.append("⋯ \(steps) steps rotated out")
      case .launch(let number, let segment, _):
        events.append("\(states.count): launch \(number) begins in \(segment)")
      case .step(let step): states.append(step.transition.stateAfter)
      }
    }
    try #require(events.first?.hasPrefix("⋯ ") == true, "the window must start mid-launch")
    try #require(events.count == 3 && states.count > 4, "\(events), \(states.count) steps")

    let run = try await ReplayProcess.run(["--html", "f.html", "flight"], in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 0,
          stdout: "wrote 'f.html': \(states.count) steps in \(recording.segments.count) segments; "
            + "every state and effect matches the recording\n", stderr: ""))
    let page = try TimelinePageData(contentsOf: folder.file("f.html"))
    try #require(page.stepCount == states.count)
    for index in [0, states.count - 4, states.count - 3, states.count - 1] {
      #expect(page.stateLines(after: index) == Self.lines(of: states[index]))
    }
    let marks = page.gaps.map { "\($0["before"] as? Int ?? -1): \($0["text"] as? String ?? "")" }
    #expect(marks.count == 2)
    let (rotated, first) = (events[0], events[1].split(separator: " ", maxSplits: 1)[1])
    #expect(
      marks.first?.hasPrefix("0: \(rotated) before the window the folder keeps · \(first) (")
        == true, "\(marks)")
    let second = events[2]
    #expect(second.hasPrefix("\(states.count - 3): launch 2 begins in "))
    #expect(marks.last?.hasPrefix(second + " (") == true, "\(marks)")
    #expect(page.gaps.allSatisfy { $0["mark"] as? String == "launch" })
    #expect(page.verify["status"] as? String == "clean")
  }

  /// A log of the first canonical form (durations as two words of attoseconds) gives the same
  /// verified page as the same session in the current form.
  @Test func aLogOfTheFirstCanonicalFormGivesTheSamePage() async throws {
    let folder = try TemporaryFolder()
    var pages: [TimelinePageData] = []
    for name in ["login.jsonl", "login-canonical-v1.jsonl"] {
      let run = try await ReplayProcess.run(
        [
          "--html", folder.file(name + ".html").path,
          Self.fixtures.appendingPathComponent(name).path,
        ])
      #expect(run.status == 0, "\(run)")
      pages.append(try TimelinePageData(contentsOf: folder.file(name + ".html")))
    }
    #expect(pages[0].verify["status"] as? String == "clean")
    #expect(pages[1].verify["status"] as? String == "clean")
    #expect(pages[1].sequenceNumbers == pages[0].sequenceNumbers)
    #expect(pages[1].strings == pages[0].strings)
    #expect(pages[1].stepCount == 10)
  }

  @Test func gapsAndAStoppedRecordingAreShownWhereTheyHappened() async throws {
    let folder = try TemporaryFolder()
    let header = try String(
      contentsOf: Self.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8
    ).split(separator: "\n")[0]
    let resumed = LoginState(username: "resumed", failedAttempts: 2, attemptID: 3)
    var after = resumed
    after.username = "resumed!"
    after.isUsernameEdited = true
    var typed = LoginState(username: "d")
    typed.isUsernameEdited = true
    // The header's canonical form: durations as seconds.
    let resumedJSON = String(decoding: try CanonicalJSONEncoder().encode(resumed), as: UTF8.self)
    try folder.write(
      "gap.jsonl",
      lines: [
        String(header),
        #"{"seq":1,"origin":"user","action":{"edit":{"_0":{"field":"username","value":"d"}}},"effects":[],"#
          + #""digest":"\#(try StateDigest.of(typed))"}"#,
        #"{"kind":"gap","dropped":3,"state":\#(resumedJSON)}"#,
        #"{"seq":5,"origin":"user","action":{"edit":{"_0":{"field":"username","value":"resumed!"}}},"#
          + #""effects":[],"digest":"\#(try StateDigest.of(after))"}"#,
        #"{"kind":"stopped","reason":"maximumFileSize","limit":4096}"#,
      ])
    let run = try await ReplayProcess.run(["--html", "gap.html", "gap.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    #expect(run.stderr.contains("replay: warning: line 3: 3 transitions were dropped"))
    #expect(
      run.stderr.contains("replay: warning: line 5: recording stopped here: the file reached"))
    let page = try TimelinePageData(contentsOf: folder.file("gap.html"))
    #expect(page.sequenceNumbers == [1, 5])
    #expect(page.gaps.count == 1)
    #expect(page.gaps.first?["before"] as? Int == 1)
    #expect(page.gaps.first?["line"] as? Int == 3)
    #expect(page.gaps.first?["count"] as? Int == 3)
    let gapState = page.gaps.first.map(page.lines(ofGap:)) ?? []
    #expect(gapState == Self.lines(of: resumed))
    #expect(page.warnings.map { $0["type"] as? String } == ["dropped", "stopped"])
    #expect(page.verify["status"] as? String == "clean")
    // The screen starts again from the resumed state.
    #expect(
      page.screen(after: 1)?.summary.contains("text[warning] Failed attempts: 2 of 5") == true)
  }

  @Test func textFromTheLogCannotBreakOutOfThePage() async throws {
    let folder = try TemporaryFolder()
    let hostile = "</script><img src=x onerror=alert(1)>\u{2028}<!--<script>&amp;\u{202E}"
    let password = "Canary-Pw-7f"
    try await Recordings.login(
      [
        .edit(.set(\.username, to: PersonalData(hostile))),
        .edit(.set(\.password, to: Secret(password))),
        .loginButtonTapped,
      ],
      to: folder.file("hostile.jsonl"))
    let run = try await ReplayProcess.run(["--html", "h.html", "hostile.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    let page = try TimelinePageData(contentsOf: folder.file("h.html"))
    let html = page.html.lowercased()
    #expect(!html.contains("<img"))
    #expect(html.components(separatedBy: "<script").count - 1 == 2)
    #expect(html.components(separatedBy: "</script").count - 1 == 2)
    #expect(!html.contains("<!--"))
    #expect(!html.contains("&amp;amp;"))
    #expect(!page.html.contains("\u{2028}") && !page.html.contains("\u{202E}"))
    // The text arrives whole: in the screen as typed, in the state as its canonical JSON.
    #expect(page.screen(after: 0)?.summary.contains("field Username=\(hostile)") == true)
    #expect(page.stateLines(after: 0).contains(Self.fieldLine("username", hostile)))
    // The secret appears only as its mask.
    #expect(!page.html.contains(password))
    #expect(!page.html.contains("Pw-7f") && !page.html.contains("Canary"))
    #expect(page.stateLines(after: 1).contains(Self.fieldLine("password", Secret(password))))
  }

  // MARK: - The output path

  @Test(
    arguments: [
      (["--html"], "--html needs an output path: the page to write (see replay --help)"),
      (["--html=", "login.jsonl"], "--html needs a path, not an empty one (see replay --help)"),
      (
        ["--html", "--verify", "login.jsonl"],
        "--html needs an output path: the page to write (see replay --help)"
      ),
      (["--html", "out.html"], "missing FILE: the action log to replay (see replay --help)"),
      (
        ["--html", "out.html", "--until", "3", "login.jsonl"],
        "--html cannot be combined with --emit-test, --until or --state"
      ),
      (
        ["--html", "out.html", "--state", "login.jsonl"],
        "--html cannot be combined with --emit-test, --until or --state"
      ),
      (
        ["--emit-test", "--html", "out.html", "login.jsonl"],
        "--html cannot be combined with --emit-test, --until or --state"
      ),
      (
        ["--follow", "--until", "3", "login.jsonl"],
        "--follow cannot be combined with --html, --emit-test, --until or --state"
      ),
      (["--follow=yes", "login.jsonl"], "--follow takes no value (see replay --help)"),
    ] as [([String], String)])
  func badUsageIsOneLineAndExitStatusTwo(arguments: [String], message: String) async throws {
    let run = try await ReplayProcess.run(arguments)
    #expect(run == ToolRun(status: 2, stdout: "", stderr: "replay: \(message)\n"))
    #expect(
      !FileManager.default.fileExists(atPath: Self.fixtures.appendingPathComponent("out.html").path)
    )
  }

  @Test func aSymbolicLinkIsRefusedAndNothingIsWrittenThroughIt() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("link.html").path, withDestinationPath: folder.file("target.html").path)
    let run = try await ReplayProcess.run(
      ["--html", "link.html", Self.fixtures.appendingPathComponent("login.jsonl").path],
      in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "",
          stderr: "replay: 'link.html' is a symbolic link; refusing to write through it\n"))
    #expect(try folder.names() == ["link.html"])
  }

  @Test func anExistingFileThatIsNotAPageIsLeftAlone() async throws {
    let folder = try TemporaryFolder()
    try folder.write("notes.txt", lines: ["my notes"])
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "notes.txt", log], in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "",
          stderr: "replay: 'notes.txt' exists and is not an HTML page; refusing to overwrite it\n"))
    #expect(try String(contentsOf: folder.file("notes.txt"), encoding: .utf8) == "my notes\n")
    // Not the log either: swapping the two paths loses nothing.
    try FileManager.default.copyItem(atPath: log, toPath: folder.file("log.jsonl").path)
    let swapped = try await ReplayProcess.run(
      ["--html", "log.jsonl", "out.html"], in: folder.url)
    #expect(swapped.status == 2)
    #expect(
      try Data(contentsOf: folder.file("log.jsonl")) == Data(contentsOf: URL(fileURLWithPath: log)))
    #expect(try folder.names() == ["log.jsonl", "notes.txt"])
  }

  @Test func anExistingPageOrEmptyFileIsReplacedWhole() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    try folder.write("old.html", lines: ["<!DOCTYPE html>", "<p>an old page</p>"])
    try folder.write("empty.html", lines: [])
    try Data().write(to: folder.file("empty.html"))
    for name in ["old.html", "empty.html"] {
      try FileManager.default.setAttributes(
        [.posixPermissions: 0o644], ofItemAtPath: folder.file(name).path)
      #expect(try await ReplayProcess.run(["--html", name, log], in: folder.url).status == 0)
      #expect(try Self.permissions(folder.file(name)) == 0o600, "a replaced page is private too")
      let page = try TimelinePageData(contentsOf: folder.file(name))
      #expect(page.stepCount == 10)
      #expect(!page.html.contains("an old page"))
    }
    #expect(try folder.names() == ["empty.html", "old.html"])
  }

  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aPageThatFillsTheDiskMidwayLeavesTheOldPageAndNoTemporary() async throws {
    let disk = try Mount.smallDisk(bytes: 32 * 1024)
    let old = "<!DOCTYPE html>\n<p>an old page</p>\n"
    try Data(old.utf8).write(to: disk.url.appendingPathComponent("old.html"))
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "old.html", log], in: disk.url)
    #expect(
      run
        == ToolRun(
          status: 1, stdout: "",
          stderr: "replay: write error: 'old.html': No space left on device\n"))
    let kept = try String(contentsOf: disk.url.appendingPathComponent("old.html"), encoding: .utf8)
    #expect(kept == old)
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.url.path) == ["old.html"])
  }

  @Test(
    arguments: [
      ("nowhere/out.html", "--html 'nowhere/out.html': the folder 'nowhere' does not exist"),
      ("file.txt/out.html", "--html 'file.txt/out.html': 'file.txt' is not a folder"),
      (".", "'.' is a directory"),
    ])
  func anUnwritablePathIsRefusedBeforeReplaying(path: String, message: String) async throws {
    let folder = try TemporaryFolder()
    try folder.write("file.txt", lines: ["x"])
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", path, log], in: folder.url)
    #expect(run == ToolRun(status: 2, stdout: "", stderr: "replay: \(message)\n"))
    #expect(try folder.names() == ["file.txt"])
  }

  @Test func anOutputPathIsQuotedWithItsControlCharactersShown() async throws {
    let folder = try TemporaryFolder()
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(
      ["--html", "we\u{1B}[31mird\u{202E}.html", log], in: folder.url)
    #expect(run.status == 0)
    #expect(
      run.stdout
        == "wrote 'we\\u{1B}[31mird\\u{202E}.html': 10 steps; every state and effect matches "
        + "the recording\n")
    #expect(try folder.names() == ["we\u{1B}[31mird\u{202E}.html"])
  }

  @Test func aWriteErrorIsReportedWithExitStatusOne() async throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"), "this system has /dev/full")
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "/dev/full", log])
    #expect(
      run
        == ToolRun(
          status: 1, stdout: "",
          stderr: "replay: write error: '/dev/full': No space left on device\n"))
  }

  @Test func aDeviceGetsThePageWrittenStraightToIt() async throws {
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "/dev/null", log])
    #expect(
      run
        == ToolRun(
          status: 0,
          stdout: "wrote '/dev/null': 10 steps; every state and effect matches the recording\n",
          stderr: ""))
  }

  @Test func aPipeWithNoReaderIsRefusedAtOnceInsteadOfWaitedOn() async throws {
    let folder = try TemporaryFolder()
    try #require(mkfifo(folder.file("page").path, 0o600) == 0)
    let log = Self.fixtures.appendingPathComponent("login.jsonl").path
    let run = try await ReplayProcess.run(["--html", "page", log], in: folder.url)
    #expect(
      run
        == ToolRun(
          status: 2, stdout: "",
          stderr: "replay: 'page' is a pipe with no reader; start what reads it first\n"))
  }

  @Test func aPipeWithAReaderGetsAPageLargerThanItsBufferWhole() async throws {
    let folder = try TemporaryFolder()
    let fifo = folder.file("page")
    try #require(mkfifo(fifo.path, 0o600) == 0)
    let log = folder.file("long.jsonl")
    try await Recordings.appMix(600, to: log)
    // The reader is there first. A write end of the test's own keeps the pipe from reading as
    // ended before replay has opened it; it is closed once replay has exited.
    let reader = open(fifo.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    try #require(reader >= 0)
    let keeper = open(fifo.path, O_WRONLY | O_CLOEXEC)
    try #require(keeper >= 0 && fcntl(reader, F_SETFL, 0) == 0)
    async let received = Self.readToEnd(reader)
    let run = try await ReplayProcess.run(["--html", "page", "long.jsonl"], in: folder.url)
    close(keeper)
    let bytes = await received
    close(reader)
    #expect(run.status == 0, "\(run)")
    #expect(bytes.count > 65_536, "more than a pipe holds at once")
    try bytes.write(to: folder.file("received.html"))
    #expect(try TimelinePageData(contentsOf: folder.file("received.html")).stepCount == 600)
  }

  // MARK: - Helpers

  /// The file's permission bits.
  static func permissions(_ url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  /// The line a state's field `name` holding `value` shows as on the page.
  static func fieldLine(_ name: String, _ value: some Encodable) -> String {
    "\(name): " + lines(of: value).joined(separator: "\n")
  }

  /// What the page shows of a state: its canonical JSON as fields, one per line.
  static func lines(of value: some Encodable) -> [String] {
    let bytes = (try? CanonicalJSONEncoder().encode(value)) ?? []
    return (CanonicalJSONText.lines(bytes)?.joined(separator: "\n") ?? "").split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
  }

  /// Reads `descriptor` to its end on a thread of its own.
  nonisolated static func readToEnd(_ descriptor: Int32) async -> Data {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count > 0 {
            data.append(contentsOf: buffer[..<count])
          } else if count < 0, errno == EINTR {
            continue
          } else {
            break
          }
        }
        continuation.resume(returning: data)
      }
    }
  }

  enum Feature { case login, app }

  /// The initial state and the state after every step, as a verified replay computes them.
  static func replayedStates(of log: URL, as feature: Feature) throws -> (
    initial: [String], steps: [[String]]
  ) {
    switch feature {
    case .login:
      let result = try Replayer(reducer: LoginReducer()).replay(log, keepingSteps: true)
      return (
        lines(of: result.header.initialState),
        result.steps.map { lines(of: $0.transition.stateAfter) }
      )
    case .app:
      let result = try Replayer(reducer: AppReducer()).replay(log, keepingSteps: true)
      return (
        lines(of: result.header.initialState),
        result.steps.map { lines(of: $0.transition.stateAfter) }
      )
    }
  }
}
