import ActionLog
import AppFeature
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// The HTML timeline (`replay --html`) in a real browser: headless Chromium, driven over the
/// DevTools protocol by `Tests/Fixtures/timeline_browser.py` (Python's standard library only).
///
/// A browser is not part of the toolchain, so the check runs only when asked:
/// `LOGINSTORE_BROWSER_TESTS=required swift test` — and then a missing browser is a failure,
/// not a skip. `.ci/run` installs Chromium (`apt-get install chromium`) and sets the variable.
/// The driver prints what it saw as JSON; this test judges it.
@MainActor struct TimelineBrowserTests {
  nonisolated static let variable = "LOGINSTORE_BROWSER_TESTS"
  nonisolated static var setting: String? { ProcessInfo.processInfo.environment[variable] }
  nonisolated static var isRequested: Bool { setting == "required" }

  static let driver = DemoProcess.packageRoot.appendingPathComponent(
    "Tests/Fixtures/timeline_browser.py")

  @Test func theBrowserSettingIsOneThisTestUnderstands() {
    if let setting = Self.setting, !setting.isEmpty {
      #expect(
        setting == "required",
        "\(Self.variable)=\(setting) is not understood: set it to 'required' or leave it unset")
    }
  }

  @Test(
    .enabled(
      if: isRequested,
      "the browser check of the HTML timeline runs with LOGINSTORE_BROWSER_TESTS=required"),
    .timeLimit(.minutes(5)))
  func theTimelineWorksInAHeadlessBrowser() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let file = folder.file

    // A session recorded by login-demo: a wrong (canary) password, then the right one.
    let canary = AuditChannels.password.reveal()
    try await record(
      [
        "type username demo", "type password \(canary)", "tap login", "wait", "tap alert OK",
        "type password Secr3t", "tap login", "wait", "tap logout",
      ], to: file("session.jsonl"), in: folder)
    // Two-factor: a wrong code (its alert), the resend countdown ticking 30 times, a resend.
    try await record(
      [
        "type username grace", "type password Cobol1959", "tap login", "wait",
        "type code 111111", "tap verify", "wait", "tap alert OK", "advance 40s", "tap resend",
        "wait", "type code 171717", "tap verify", "wait",
      ], to: file("twofactor.jsonl"), in: folder, droppingLaunch: false)
    // A divergence in effects: the log says the sign-in returned none.
    let login = try String(
      contentsOf: DemoProcess.packageRoot.appendingPathComponent(
        "Tests/ActionLogTests/Fixtures/login.jsonl"), encoding: .utf8)
    let authenticate =
      #""effects":[{"authenticate":{"_0":{"password":"Aaaa0a","username":"demo"},"attempt":1}}]"#
    try #require(login.contains(authenticate))
    try Data(login.replacingOccurrences(of: authenticate, with: #""effects":[]"#).utf8)
      .write(to: file("effects.jsonl"))
    let long = String(repeating: "LongName-", count: 200)
    try await record(
      ["type username \(long)", "type password Secr3t"], to: file("long.jsonl"), in: folder)
    // A flight recorder's folder of two launches: sign in, then relaunch and sign out.
    for (name, lines) in [
      ("launch1", ["type username demo", "type password Secr3t", "tap login", "wait"]),
      ("launch2", ["tap logout"]),
    ] {
      let script = try folder.write(name + ".script", lines: lines)
      let run = try await DemoProcess.run([
        "--script", script.path, "--state-dir", file("state").path, "--flight-recorder",
        file("flight").path,
      ])
      #expect(run.status == 0, "login-demo \(name): \(run.stderr)")
    }
    // Long enough that the page keeps it once, as a shared run its script joins back into
    // the screen's field and the state's line.
    let hostile = "</script><img src=x onerror=alert(1)>" + String(repeating: "x", count: 300)
    try await record(
      ["type username \(hostile)", "type password Secr3t", "tap login", "tap alert OK"],
      to: file("hostile.jsonl"), in: folder)
    for (log, page) in [
      (file("session.jsonl").path, "session.html"), (file("hostile.jsonl").path, "hostile.html"),
      (
        DemoProcess.packageRoot.appendingPathComponent(
          "Tests/ActionLogTests/Fixtures/login-divergent.jsonl"
        ).path, "divergent.html"
      ),
      (file("twofactor.jsonl").path, "twofactor.html"),
      (file("effects.jsonl").path, "effects.html"),
      (file("long.jsonl").path, "long.html"),
      (file("flight").path, "flight.html"),
    ] {
      let run = try await DemoProcess.run(["--html", file(page).path, log], tool: "replay")
      #expect(run.status == 0, "replay --html \(log): \(run.stderr)")
    }
    let session = try String(contentsOf: file("session.html"), encoding: .utf8)
    #expect(!session.contains(canary) && !session.contains("Canary"))

    let python = try #require(
      FixtureServer.python3(),
      "python3 is needed to drive the browser (Python's standard library only)")
    let output = try await DemoProcess.run(
      program: python,
      [
        Self.driver.path, "--timeout", "120", "check", "--session", file("session.html").path,
        "--divergent", file("divergent.html").path, "--hostile", file("hostile.html").path,
        "--screenshot", file("shot.png").path, "--read-steps", "2,3,7,8,9",
        "--effects-divergent", file("effects.html").path, "--two-factor",
        file("twofactor.html").path, "--two-factor-steps", "8,11,40", "--leaf-visible",
        "9:14,41:18", "--long", file("long.html").path, "--folder", file("flight.html").path,
      ], timeout: 150)
    guard output.status == 0 else {
      let message =
        output.status == 3
        ? "No browser found, and \(Self.variable)=required: install Chromium "
          + "(apt-get install chromium) or set CHROMIUM to its path.\n\(output.stderr)"
        : "The browser check failed (exit status \(output.status)):\n\(output.stderr)"
      Issue.record(Comment(rawValue: message))
      return
    }
    #expect(!output.stdout.contains(canary), "the canary reached the browser's page")
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    try judgeSession(seen)
    try judgeFilterAndSlider(seen, log: file("session.jsonl"))
    try judgeActionTab(seen, log: file("session.jsonl"))
    try judgePlay(seen)
    try judgeDivergence(seen)
    try judgeHostilePage(seen, hostile: hostile)
    let twoFactor = try #require(seen["twoFactor"] as? [String: Any])
    try TimelineBrowserJudge(log: file("twofactor.jsonl")).judge(twoFactor)
    #expect(twoFactor["twoFactorExceptions"] as? [String] == [])
    #expect(
      (seen["effectsDivergentMarks"] as? [String: Any])?["effects"] as? [[String]] == [
        ["none", "none"],
        [
          "ins",
          #"+ authenticate((password: "Aaaa0a", username: "demo"), attempt: 1)"#,
        ],
      ], "the effect only the replay returned is marked +")
    #expect(seen["effectsDivergentExceptions"] as? [String] == [])
    let noneOffset = try #require(seen["noneOffset"] as? Double, "no 'none' under Effects")
    #expect(noneOffset >= 0, "'none' starts \(-noneOffset) px outside its column")
    #expect(seen["narrowRowShows40"] as? Bool == true, "at 800 px a row is cut short")
    try judgeLongValues(seen, long: long)
    try judgeFolder(seen, flight: file("flight"))
  }

  /// A flight recorder's folder is one page: each launch marked where it begins, and the step
  /// after the mark diffed against the state its launch started from.
  private func judgeFolder(_ seen: [String: Any], flight: URL) throws {
    let replay = try FlightRecording(folder: flight).replay(with: AppReducer())
    var expected: [String] = []
    var count = 0
    while let event = try replay.next() {
      switch event {
      case .launch(let number, let segment, _):
        expected.append("\(count): launch \(number) begins in \(segment) (")
      case .rotatedOut: Issue.record("nothing was rotated out")
      case .step: count += 1
      }
    }
    #expect(expected.count == 2)
    let page = try #require(seen["folderPage"] as? [String: Any])
    #expect((page["status"] as? String)?.hasPrefix("✓ Replays cleanly: all \(count) steps") == true)
    let marks = try #require(seen["folderMarks"] as? [[Any]])
    #expect(marks.count == 2)
    for (mark, prefix) in zip(marks, expected) {
      let text = "\(mark[0] as? Int ?? -1): \(mark[1] as? String ?? "")"
      #expect(text.hasPrefix(prefix), "\(text)")
    }
    let afterLaunch = try #require(seen["folderAfterLaunch"] as? [String: Any])
    #expect(
      (afterLaunch["badges"] as? [String])?.contains { $0.contains("launch 2 begins") } == true)
    #expect(afterLaunch["headline"] as? String == "#1 user login(launched)")
    #expect(afterLaunch["actionJSON"] as? String == #"{"login":{"_0":{"launched":{}}}}"#)
    #expect(seen["folderExceptions"] as? [String] == [])
  }

  /// A long value is cut in the row and the tree, and the whole of it is one click away.
  private func judgeLongValues(_ seen: [String: Any], long: String) throws {
    let quoted = fieldLine("username", long)
    let leaf = try #require(seen["longLeaf"] as? [String: Any])
    #expect(leaf["text"] as? String == String(quoted.prefix(400)))
    #expect(leaf["more"] as? String == "… show all \(quoted.count) characters")
    let opened = try #require(seen["longLeafOpened"] as? [String: Any])
    #expect(opened["text"] as? String == quoted, "one click shows the whole value")
    let row = (seen["longRow"] as? [[String: Any]])?.first
    #expect((row?["action"] as? String)?.count == 400)
    #expect(
      row?["title"] as? String
        == #"login(edit(field: "username", value: "\#(long)"))"#)
    #expect(seen["longExceptions"] as? [String] == [])
  }

  // MARK: - What the browser must have shown

  /// ↓ five times from the first step: step 6, the right password typed after the failure.
  private func judgeSession(_ seen: [String: Any]) throws {
    let page = try #require(seen["page"] as? [String: Any])
    #expect(page["statusClass"] as? String == "status good")
    #expect((page["status"] as? String)?.hasPrefix("✓ Replays cleanly: all 10 steps") == true)
    #expect(page["images"] as? Int == 0)
    #expect(seen.step("initial")?["selected"] as? Int == 0)

    let six = try #require(seen.step("afterFiveDown"))
    #expect(six["selected"] as? Int == 5)
    #expect(
      six["headline"] as? String
        == #"#6 user login(edit(field: "password", value: "Aaaa0a"))"#)
    #expect(six["position"] as? String == "step 6 of 10")
    #expect(six["slider"] as? Int == 6)
    let diff = six["diff"] as? [String] ?? []
    #expect(diff.contains(#"−   password: "Aaaaaa*Aa*0a0a0""#), "\(diff)")
    #expect(diff.contains(#"+   password: "Aaaa0a""#), "\(diff)")
    #expect((six["state"] as? [String])?.contains(#"password: "Aaaa0a""#) == true)
    #expect((six["state"] as? [String])?.contains("failedAttempts: 1") == true)
    #expect(six["effects"] as? [String] == ["none"])
    let screen = try #require(six["screen"] as? [String: Any])
    #expect(screen["fields"] as? [[String]] == [["Username", "demo"], ["Password", "••••••"]])
    #expect(
      screen["texts"] as? [[String]] == [
        ["success", "✓ Ready to sign in"], ["warning", "Failed attempts: 1 of 5"],
      ])
    let buttons = (screen["buttons"] as? [[Any]] ?? []).map { "\($0[0]) \($0[1] as? Bool == true)" }
    // The buttons login-demo shows for the same state (LoginScreenContent draws both).
    #expect(buttons == ["Login true", "Forgot password? true"])
    #expect(screen["spinner"] as? [String] == [])
    #expect(screen["alert"] as? [String] == [])
    #expect(screen["path"] as? [String] == ["login"])

    #expect(seen.step("afterK")?["selected"] as? Int == 4)
    #expect(seen.step("afterEnd")?["selected"] as? Int == 9)
    #expect(seen.step("afterHome")?["selected"] as? Int == 0)

    // The spinner while signing in, the alert after the failure, home after the success.
    let steps = try #require(seen["steps"] as? [String: [String: Any]])
    let spinner = steps["2"]?["screen"] as? [String: Any]
    #expect(spinner?["spinner"] as? [String] == ["Signing in…"])
    let spinnerButtons = (spinner?["buttons"] as? [[Any]] ?? []).map { "\($0[0])" }
    #expect(spinnerButtons == ["Login", "Forgot password?", "Cancel"], "as login-demo shows it")
    let alert = steps["3"]?["screen"] as? [String: Any]
    #expect(alert?["alert"] as? [String] == ["Couldn't sign inIncorrect username or passwordOK"])
    let home = steps["8"]?["screen"] as? [String: Any]
    #expect(home?["path"] as? [String] == ["login › home(demo)"])
    #expect(home?["headings"] as? [String] == ["Hello Demo User"])
    #expect(
      (home?["texts"] as? [[String]])?.contains(["plain", "Free plan · 3 unread messages"]) == true)
    let loggedOut = steps["9"]?["screen"] as? [String: Any]
    #expect(loggedOut?["path"] as? [String] == ["login"])

    let shot = try #require(seen["screenshot"] as? [String: Any])
    #expect((shot["colours"] as? Int ?? 0) > 50, "the screenshot is blank: \(shot)")
    #expect((shot["nonBackgroundShare"] as? Double ?? 0) > 0.05, "the screenshot is blank")
    #expect(seen["sessionExceptions"] as? [String] == [])
  }

  /// The filter keeps the steps whose action or effects contain the text; the slider scrubs.
  private func judgeFilterAndSlider(_ seen: [String: Any], log: URL) throws {
    let replay = try Replayer(reducer: AppReducer()).replay(log, keepingSteps: true)
    let matching = replay.steps.filter { step in
      ([canonicalLine(step.transition.action)] + step.transition.effects.map(canonicalLine))
        .contains { $0.lowercased().contains("password") }
    }.map(\.sequenceNumber)
    try #require(
      matching.count > 1 && matching.count < 10, "the filter must keep some steps only")
    let filtered = try #require(seen["filtered"] as? [String: Any])
    #expect(filtered["info"] as? String == "\(matching.count) of 10 steps match")
    let rows = filtered["rows"] as? [String] ?? []
    let shown = rows.filter { $0.hasPrefix("step") }.compactMap { row -> Int? in
      guard let text = row.split(separator: "|").last, text.hasPrefix("#") else { return nil }
      return Int(text.dropFirst().prefix { $0.isNumber })
    }
    #expect(shown == matching)
    #expect(seen.step("filteredDown")?["selected"] as? Int == matching[0] - 1)
    #expect((seen["unfiltered"] as? [String: Any])?["info"] as? String == "10 steps")

    let half = try #require(seen.step("sliderHalf"))
    let selected = half["selected"] as? Int ?? -1
    #expect((3...6).contains(selected), "dragging to the middle selects a middle step")
    #expect(half["slider"] as? Int == selected + 1)
    #expect((half["headline"] as? String)?.hasPrefix("#\(selected + 1) ") == true)
    #expect(seen.step("sliderEnd")?["selected"] as? Int == 9)
  }

  /// The Action tab: step 6's action (the right password, typed) as a tree and as the JSON
  /// its log line holds, mask and all; the tab stays chosen from step to step, and a folded
  /// section stays folded.
  private func judgeActionTab(_ seen: [String: Any], log: URL) throws {
    let actions = LogLines.actions(in: try String(contentsOf: log, encoding: .utf8))
    let seen = try #require(seen["actionAndPlay"] as? [String: Any])
    func tabs(_ name: String) -> [String: Any] { seen[name] as? [String: Any] ?? [:] }
    #expect(tabs("tabsAtFirst")["selected"] as? [String] == ["state"])
    #expect(tabs("tabsAtFirst")["shown"] as? [String] == ["state"])
    let six = tabs("actionTab")
    #expect(six["selected"] as? [String] == ["action"])
    #expect(six["shown"] as? [String] == ["action"])
    #expect(six["step"] as? Int == 5)
    let passwordTyped = #"{"login":{"_0":{"edit":{"_0":{"field":"password","value":"Aaaa0a"}}}}}"#
    #expect(actions[5] == passwordTyped)
    #expect(six["raw"] as? String == passwordTyped)
    #expect(
      six["tree"] as? [String] == [
        "login: {", "_0: {", "edit: {", "_0: {", #"field: "password""#, #"value: "Aaaa0a""#,
        "}", "}", "}", "}",
      ])
    let seven = tabs("actionTabAfterDown")
    #expect(seven["selected"] as? [String] == ["action"], "the tab stays chosen")
    #expect(seven["step"] as? Int == 6)
    #expect(seven["raw"] as? String == actions[6])
    #expect(seven["raw"] as? String == #"{"login":{"_0":{"loginButtonTapped":{}}}}"#)
    #expect(
      seven["tree"] as? [String] == ["login: {", "_0: {", "loginButtonTapped: {}", "}", "}"])
    #expect(tabs("actionFolded")["tree"] as? [String] == ["login: {", "_0: {", "}"])
    #expect(tabs("actionFoldedAfterUp")["step"] as? Int == 5)
    #expect(
      tabs("actionFoldedAfterUp")["tree"] as? [String] == ["login: {", "_0: {", "}"],
      "the section folded at one step is folded at the next")
    #expect(tabs("stateTabAgain")["selected"] as? [String] == ["state"])
    #expect(tabs("stateTabAgain")["shown"] as? [String] == ["state"])
  }

  /// Play on the test's own clock: from the first step it walks to the last and stops there,
  /// one timer at a time at the chosen speed; Space, the slider and ↓ stop it. On the window's
  /// clock it shows every step in order and stops by itself.
  private func judgePlay(_ seen: [String: Any]) throws {
    let checks = try #require(seen["actionAndPlay"] as? [String: Any])
    func play(_ name: String) -> [String: Any] { checks[name] as? [String: Any] ?? [:] }
    func summary(_ state: [String: Any]) -> String {
      "\(state["step"] as? Int ?? -1) \(state["playing"] as? Bool == true ? "playing" : "stopped")"
        + " \(state["button"] as? String ?? "?") \(state["pressed"] as? String ?? "?")"
        + " \(state["bodyPlaying"] as? String ?? "?") \(state["pending"] as? [Double] ?? [-1])"
    }
    #expect(summary(play("playing")) == "0 playing ❚❚ Pause true true [250.0]")
    let walk = (checks["walk"] as? [[String: Any]] ?? []).map(summary)
    #expect(
      walk
        == (1...8).map { "\($0) playing ❚❚ Pause true true [250.0]" }
        + ["9 stopped ▶ Play false false []"],
      "four steps a second, one step a timer, stopped at the last step")
    #expect(summary(play("replaying")) == "0 playing ❚❚ Pause true true [250.0]")
    #expect(summary(play("afterSpace")) == "1 stopped ▶ Play false false []")
    #expect(summary(play("afterSpaceAgain")) == "1 playing ❚❚ Pause true true [250.0]")
    #expect(
      summary(play("afterSpaceOnButton")) == "1 stopped ▶ Play false false []",
      "Space on the focused button presses it once")
    #expect(summary(play("fasterWhilePlaying")) == "1 playing ❚❚ Pause true true [62.5]")
    let slider = play("afterSlider")
    #expect(slider["playing"] as? Bool == false, "moving the slider stops playing")
    #expect(slider["pending"] as? [Double] == [])
    let read = slider["read"] as? [String: Any] ?? [:]
    #expect(read["selected"] as? Int == slider["step"] as? Int)
    #expect((3...7).contains(slider["step"] as? Int ?? -1), "the slider's step: \(slider)")
    #expect(summary(play("afterDown")) == "2 stopped ▶ Play false false []")

    let real = try #require(seen["realClockPlay"] as? [String: Any])
    #expect(real["playing"] as? Bool == false)
    #expect(real["step"] as? Int == 9)
    #expect(real["positions"] as? [String] == (2...10).map { "step \($0) of 10" })
    #expect(real["exceptions"] as? [String] == [])
  }

  /// The divergent log: step 4 in red, both diffs side by side.
  private func judgeDivergence(_ seen: [String: Any]) throws {
    let page = try #require(seen["divergentPage"] as? [String: Any])
    #expect(page["statusClass"] as? String == "status bad")
    #expect((page["status"] as? String)?.hasPrefix("✗ Step #4 diverges from the recording") == true)
    let rows = try #require(seen["divergedRows"] as? [[String]])
    #expect(rows.count == 1)
    #expect(rows.first?[0].hasPrefix("#4") == true)
    #expect(rows.first?[1] == "rgb(253, 232, 230)", "the divergent row's background is red")
    #expect(seen.step("divergentStep")?["selected"] as? Int == 3)
    let panel = try #require(seen["divergencePanel"] as? [String: Any])
    #expect(panel["hidden"] as? Bool == false)
    let sides = panel["sides"] as? [String] ?? []
    #expect(sides.count == 2)
    #expect(sides.first?.contains("\n+ password: \"Aaaa0a\"\n") == true, "\(sides)")
    #expect(sides.last?.contains("\n+ password: \"Aaaa0\"\n") == true, "\(sides)")
    // The field that differs, marked as `replay --verify` marks it: recorded −, replayed +.
    let marks = try #require(seen["divergentMarks"] as? [String: Any])
    let fields = marks["fields"] as? [[String]] ?? []
    #expect(
      fields.filter { $0[0] != "ctx" } == [
        ["del", #"− password: "Aaaa0a""#], ["ins", #"+ password: "Aaaa0""#],
      ])
    // Step 5 differs as well: the sign-in sent the other password. Its row is marked, the
    // panel shows the field and the effects that differ, the State tab the recorded state.
    let later = try #require(seen["laterDifference"] as? [String: Any])
    #expect(later["hidden"] as? Bool == false)
    #expect(
      (later["fields"] as? [[String]] ?? []).filter { $0[0] != "ctx" } == [
        ["del", #"− password: "Aaaa0a""#], ["ins", #"+ password: "Aaaa0""#],
      ])
    let effects = (later["effects"] as? [[String]] ?? []).map { $0[1] }
    #expect(effects.contains { $0.hasPrefix("− authenticate") })
    #expect(effects.contains { $0.hasPrefix("+ authenticate") })
    #expect(
      (seen["laterBadges"] as? [String])?.contains(
        "after the divergence: the replay differs from the recording") == true)
    #expect((seen["laterState"] as? String)?.contains(#"password: "Aaaa0a""#) == true)
    // Steps 5 to 7 differ, 8 to 10 agree again; none is left unchecked.
    let checked = (seen["rowMarks"] as? [[Any]] ?? []).compactMap { row -> (String, Bool)? in
      guard let seq = row.first as? String, let differs = row[1] as? Bool,
        row[2] as? Bool == false
      else { return nil }
      return (seq, differs)
    }
    #expect(checked.count == 10, "every row is checked: \(checked)")
    #expect(checked.filter { $0.1 }.map { $0.0 } == ["#5", "#6", "#7"])
    #expect(seen["divergentExceptions"] as? [String] == [])
  }

  /// Markup in a username stays text: no image, no script, no dialog.
  private func judgeHostilePage(_ seen: [String: Any], hostile: String) throws {
    let page = try #require(seen["hostilePage"] as? [String: Any])
    #expect(page["images"] as? Int == 0)
    #expect(page["scripts"] as? Int == 2)
    #expect(page["pwned"] as? Bool == false)
    #expect(seen["hostileDialogs"] as? Int == 0)
    let screen = seen.step("hostileStep")?["screen"] as? [String: Any]
    #expect((screen?["fields"] as? [[String]])?.first == ["Username", hostile])
    // The state's line and the step's action hold it whole too, joined from the shared run.
    let step = seen.step("hostileStep")
    #expect(
      (step?["state"] as? [String])?.contains(fieldLine("username", hostile)) == true,
      "\(step?["state"] ?? "")")
    // As the log writes it: canonical JSON escapes `/`.
    #expect(
      (step?["headline"] as? String)?.contains(hostile.replacingOccurrences(of: "/", with: #"\/"#))
        == true)
    #expect(seen["hostileExceptions"] as? [String] == [])
  }

  // MARK: - Helpers

  private func record(
    _ script: [String], to log: URL, in folder: TemporaryFolder, droppingLaunch: Bool = true
  ) async throws {
    let scriptFile = try folder.write(
      log.deletingPathExtension().lastPathComponent + ".script", lines: script)
    let run = try await DemoProcess.run(["--script", scriptFile.path, "--record", log.path])
    #expect(run.status == 0, "login-demo --script \(script): \(run.stderr)")
    if droppingLaunch { try dropLaunch(from: log) }
  }

  /// Removes the demo's first two steps — the launch and its restore, which found nothing and
  /// left the state as it began — and renumbers the rest from 1, so that the steps the checks
  /// count are the ones the script typed. The log still verifies: the header's state is the
  /// state after the restore, and digests do not depend on step numbers.
  private func dropLaunch(from log: URL) throws {
    let lines = try String(contentsOf: log, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.count > 3 && lines[1].contains("\"launched\"") && lines[2].contains("\"restored\""))
    let rest = lines.dropFirst(3).map { line -> String in
      guard line.hasPrefix("{\"seq\":"), let comma = line.firstIndex(of: ","),
        let number = Int(line[line.index(line.startIndex, offsetBy: 7)..<comma])
      else { return String(line) }
      return "{\"seq\":\(number - 2)" + line[comma...]
    }
    try Data(([String(lines[0])] + rest).joined(separator: "\n").utf8).write(to: log)
  }
}

extension Dictionary where Key == String, Value == Any {
  fileprivate func step(_ name: String) -> [String: Any]? {
    self[name] as? [String: Any]
  }
}

/// The line a state's field `name` holding `value` shows as in the State tab: its canonical
/// JSON, as `CanonicalJSONText` writes it.
private func fieldLine(_ name: String, _ value: some Encodable) -> String {
  let bytes = (try? CanonicalJSONEncoder().encode(value)) ?? []
  return "\(name): " + (CanonicalJSONText.lines(bytes)?.joined(separator: "\n") ?? "")
}
