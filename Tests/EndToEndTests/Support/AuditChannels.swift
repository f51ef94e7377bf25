import ActionLog
import Foundation
import LoginFeature
import LoginFeatureTesting
import LoginHTTPClient
import StateStore
import StateStoreTesting
import Testing

/// The output channels of the secret audit (`SecretAuditTests`), each adding what it printed,
/// wrote or reported to a ``LeakAudit``.
@MainActor
enum AuditChannels {
  /// The canary password: valid under the default rules (an uppercase letter and a digit).
  static let password: Secret = "Canary-Pw-7f3e9"
  /// The canary token the fake services sign in with.
  static let token: Secret = "tok-Canary-5150"

  static let passwordMask = "Secret(Aaaaaa*Aa*0a0a0)"
  static let tokenMask = "Secret(aaa*Aaaaaa*0000)"
  /// The masks as the log tools show them: a secret's canonical JSON is its mask, a string.
  static let passwordMaskInLog = "Aaaaaa*Aa*0a0a0"
  static let tokenMaskInLog = "aaa*Aaaaaa*0000"
  static let passwordJSON = "\"Aaaaaa*Aa*0a0a0\""
  static let tokenJSON = "\"aaa*Aaaaaa*0000\""
  /// How `login-demo` draws the canary password: one dot per character.
  static let passwordDots = String(repeating: "•", count: 15)

  static let user = User(
    id: "7", username: "auditor", displayName: "Audit User", email: "audit@example.com")
  static let session = Session(user: user, token: token)
  static let credentials = Credentials(username: "auditor", password: password)

  static func makeAudit() -> LeakAudit {
    LeakAudit(canaries: ["password": password, "token": token])
  }

  // MARK: - Values

  /// Dumps, descriptions, reflection, Swift's `dump`, printing and JSON of every value that
  /// carries a canary.
  static func values(into audit: LeakAudit) throws {
    let state = LoginState(
      username: "auditor", password: password, failedAttempts: 1, attemptID: 2, user: user)
    let actions: [LoginAction] = [
      .edit(.set(\.password, to: password)), .loginResponse(attempt: 2, .success(session)),
    ]
    let effects: [LoginEffect] = [.authenticate(credentials, attempt: 2), .saveSession(session)]
    let result = LoginResult.success(session)
    let values: [(name: String, value: Any)] = [
      ("state", state), ("masked state", try PersonalData.masking(in: state)),
      ("passwordChanged", actions[0]), ("loginResponse", actions[1]),
      ("authenticate", effects[0]), ("saveSession", effects[1]), ("actions", actions),
      ("effects", effects), ("session", session), ("credentials", credentials),
      ("result", result), ("password", password), ("token", token),
      ("optional token", Optional(token) as Any), ("secrets", [password: token]),
    ]
    func each(_ channel: String, _ render: (Any) -> String) {
      let text = values.map { "\($0.name): \(render($0.value))" }.joined(separator: "\n")
      audit.record(channel, text, showing: [passwordMask, tokenMask])
    }
    each("Dump.render") { Dump.render($0) }
    each("String(describing:)") { String(describing: $0) }
    each("String(reflecting:)") { String(reflecting: $0) }
    each("interpolation") { "\($0)" }
    each("dump(_:to:)") { value in
      var text = ""
      dump(value, to: &text)
      return text
    }
    each("debugPrint(_:to:)") { value in
      var text = ""
      debugPrint(value, to: &text)
      return text
    }
    each("print(_:to:)") { value in
      var text = ""
      print(value, to: &text)
      return text
    }
    each("Mirror") { mirrorText(of: $0) }
    audit.record(
      "Dump.diff", Dump.diff(of: LoginState(), and: state, context: 100) ?? "",
      showing: [passwordMask])
    audit.record(
      "validation messages",
      [CredentialRules.default, .email, .minimumLength(20)].flatMap {
        LoginState(rules: $0, username: "a", password: password).validationMessages
      }.joined(separator: "\n"))

    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    func json(_ value: some Encodable) -> String {
      (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "<failed>"
    }
    audit.record(
      "JSONEncoder",
      [
        json(state), json(actions), json(effects), json(session), json(credentials),
        json(result), json(password), json(token),
      ].joined(separator: "\n"), showing: [passwordJSON, tokenJSON])
    let plist = PropertyListEncoder()
    plist.outputFormat = .xml
    audit.record(
      "PropertyListEncoder",
      (try? plist.encode(actions)).map { String(decoding: $0, as: UTF8.self) } ?? "<failed>",
      showing: ["Aaaaaa*Aa*0a0a0", "aaa*Aaaaaa*0000"])
  }

  /// Every child and grandchild `Mirror` shows, with its label and description.
  static func mirrorText(of value: Any, depth: Int = 0) -> String {
    guard depth < 10 else { return "" }
    let pad = String(repeating: "  ", count: depth)
    return Mirror(reflecting: value).children.map { child in
      pad + (child.label ?? "-") + " = " + String(describing: child.value) + "\n"
        + mirrorText(of: child.value, depth: depth + 1)
    }.joined()
  }

  // MARK: - A store session

  /// A real `Store` on fakes — fail once, sign in, log out — watched by the debug printer,
  /// `TransitionFormatter` and the action-log recorder.
  ///
  /// - Returns: The action log it recorded.
  static func storeSession(into audit: LeakAudit, folder: URL) async throws -> URL {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials), .success(session)])
    // The initial state holds the password too, so the log's header and the first diff do.
    let store = Store(
      login: LoginState(username: "auditor", password: password), dependencies: fakes.dependencies)
    let printed = TextLines()
    let described = TextLines()
    let printer = store.printTransitions { printed.lines.append($0) }
    let describer = store.observeTransitions {
      described.lines.append(TransitionFormatter(context: 100).format($0))
    }
    let log = folder.appendingPathComponent("store-session.jsonl")
    let recorder = try store.record(
      to: log, feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 2))

    store.send(.edit(.set(\.password, to: Secret(String(password.reveal().prefix(1))))))
    store.send(.edit(.set(\.password, to: password)))
    await store.send(.loginButtonTapped).finish()
    await store.send(.loginButtonTapped).finish()
    await store.send(.logoutButtonTapped).finish()
    await recorder.close()
    printer.cancel()
    describer.cancel()

    #expect(store.state == LoginState(username: "auditor", attemptID: 2))
    #expect(printed.lines.count == 8)
    #expect(fakes.api.requests == [credentials, credentials])
    audit.record(
      "Store.printTransitions", printed.lines.joined(separator: "\n"),
      showing: [passwordMask, tokenMask])
    audit.record(
      "TransitionFormatter", described.lines.joined(separator: "\n"),
      showing: [passwordMask, tokenMask]
    )
    audit.record(
      "StubLoginAPI requests", Dump.render(fakes.api.requests), showing: [passwordMask])
    audit.record(
      "action log", try String(contentsOf: log, encoding: .utf8),
      showing: [
        passwordJSON, tokenJSON,
      ])
    return log
  }

  // MARK: - replay

  /// `replay` on `log`: the timeline, `--state`, `--until N` (the step that typed the
  /// password), `--verify` and `--emit-test`. The channel is named `--until 2` either way.
  static func replay(
    _ log: URL, into audit: LeakAudit, label: String, timelineMasks: [String],
    passwordStep: Int = 2
  ) async throws {
    let runs: [(name: String, arguments: [String], masks: [String])] = [
      ("timeline", [], timelineMasks), ("--state", ["--state"], []),
      ("--until 2", ["--until", "\(passwordStep)"], [passwordMaskInLog]),
      ("--verify", ["--verify"], []),
      ("--emit-test", ["--emit-test"], []),
    ]
    for run in runs {
      let output = try await DemoProcess.run(run.arguments + [log.path], tool: "replay")
      #expect(output.status == 0, "replay \(run.name) on the \(label) log failed")
      audit.record(
        "replay (\(label)) \(run.name)", output.stdout + output.stderr, showing: run.masks)
    }
    // The HTML timeline: what it prints and the whole page it writes.
    let page = log.deletingLastPathComponent()
      .appendingPathComponent(log.deletingPathExtension().lastPathComponent + "-timeline.html")
    let output = try await DemoProcess.run(["--html", page.path, log.path], tool: "replay")
    #expect(output.status == 0, "replay --html on the \(label) log failed")
    audit.record(
      "replay (\(label)) --html",
      output.stdout + output.stderr + (try String(contentsOf: page, encoding: .utf8)),
      showing: timelineMasks)
  }

  // MARK: - TestStore, stories, snapshots, failures

  /// A story of a whole flow, snapshots written to `folder`, and the failure messages of
  /// deliberately wrong expectations, captured instead of failing the test.
  static func testStores(into audit: LeakAudit, folder: URL) async {
    let snapshots = folder.appendingPathComponent("snapshots")
    let settings = SnapshotSettings(directory: snapshots.path, environment: { _ in nil })
    let flowFailures = FailureReporter.Recorder()
    let mistakes = FailureReporter.Recorder()
    let stories = await SnapshotSettings.$current.withValue(settings) {
      let stories = await FailureReporter.$current.withValue(flowFailures.reporter) {
        await storyOfAWholeFlow()
      }
      await FailureReporter.$current.withValue(mistakes.reporter) {
        await wrongExpectations()
      }
      return stories
    }

    audit.record("storyText", stories.brief, showing: [passwordMask, tokenMask])
    audit.record("storyText(context: 100)", stories.full, showing: [passwordMask, tokenMask])
    #expect(flowFailures.messages.count == 1)
    #expect(flowFailures.messages.first?.hasPrefix("No snapshot was stored for") == true)
    for headline in [
      "State after send(LoginAction.edit(set(password: \(passwordMask)))) differs",
      "Effects returned by send(LoginAction.loginButtonTapped) differ",
      "returned 2 effects that the test did not assert",
      "Received an action that differs from the expected one.",
      "Received since the last send:",
      "StubLoginAPI got call 1, api.login(",
      "Snapshot \"aWholeSessionLeaksNeitherSecretOnAnyChannel.state\" differs",
    ] {
      #expect(mistakes.messages.contains { $0.contains(headline) }, "no failure says: \(headline)")
    }
    audit.record(
      "TestStore failure messages",
      (flowFailures.messages + mistakes.messages).joined(separator: "\n---\n"),
      showing: [passwordMask, tokenMask])

    let files = FileManager.default.enumerator(at: snapshots, includingPropertiesForKeys: nil)
    var found: [String] = []
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "txt" else { continue }
      let name = file.deletingPathExtension().pathExtension
      found.append(name)
      audit.record(
        "snapshot file \(name)", (try? String(contentsOf: file, encoding: .utf8)) ?? "",
        showing: [passwordMask])
    }
    #expect(found.sorted() == ["state", "story"])
  }

  private static func storyOfAWholeFlow(
    function: String = #function
  ) async -> (brief: String, full: String) {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials), .success(session)])
    let store = TestStore(login: LoginState(), fakes: fakes)
    await store.send(.edit(.set(\.username, to: "auditor"))) {
      $0.username = "auditor"
      $0.isUsernameEdited = true
    }
    await store.send(.edit(.set(\.password, to: password))) {
      $0.password = password
      $0.isPasswordEdited = true
    }
    await store.send(.loginButtonTapped) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(.loginResponse(attempt: 1, .failure(.invalidCredentials))) {
      $0.isLoading = false
      $0.failedAttempts = 1
    }
    await store.receive(.alertButtonTapped("ok"))
    await store.send(.loginButtonTapped) {
      $0.isLoading = true
      $0.attemptID = 2
    }
    await store.receive(.loginResponse(attempt: 2, .success(session))) {
      $0.isLoading = false
      $0.failedAttempts = 0
      $0.user = user
    }
    await store.send(.logoutButtonTapped) { $0 = LoginState(username: "auditor", attemptID: 2) }
    await store.finish()
    store.assertStory(named: "story", function: "aWholeSessionLeaksNeitherSecretOnAnyChannel")
    return (store.storyText(), store.storyText(context: 100))
  }

  private static func wrongExpectations() async {
    let testName = "aWholeSessionLeaksNeitherSecretOnAnyChannel"
    let state = LoginState(username: "auditor", password: password, user: user)
    assertSnapshot(of: state, named: "state", function: testName)
    var changed = state
    changed.password = "Other-Pw-1"
    assertSnapshot(of: changed, named: "state", function: testName)

    // Effects as data: a wrong state, a wrong password of the same shape, wrong effects, and
    // effects left unasserted.
    let data = TestStore(initialState: LoginState(username: "auditor"), reducer: LoginReducer())
    await data.send(.edit(.set(\.password, to: password))) { $0.password = "Wrong-Pw-1" }
    await data.send(.edit(.set(\.password, to: password))) { $0.password = "Xxxxxx-Xx-0x0x0" }
    await data.send(
      .loginButtonTapped,
      effects: [.authenticate(Credentials(username: "auditor", password: "Wrong-Pw-1"), attempt: 1)]
    ) {
      $0.isLoading = true
      $0.attemptID = 1
    }
    await data.send(.loginResponse(attempt: 1, .success(session)))
    await data.send(.logoutButtonTapped)
    await data.finish()

    // Effects that run: a received session that differs, then an action that never comes.
    let running = TestStore(
      login: LoginState(username: "auditor", password: password),
      fakes: LoginFakes(results: [.success(session)]))
    await running.send(.loginButtonTapped) {
      $0.isLoading = true
      $0.attemptID = 1
    }
    let other = Session(user: user, token: "tok-Other-0000")
    await running.receive(.loginResponse(attempt: 1, .success(other)))
    await running.receive(.lockoutEnded, timeout: .milliseconds(100))
    await running.finish()

    // A stub called more often than scripted reports the credentials it got.
    let overrun = TestStore(
      login: LoginState(username: "auditor", password: password), fakes: LoginFakes(results: []))
    overrun.exhaustivity = .off
    await overrun.send(.loginButtonTapped)
    await overrun.finish()
  }

  // MARK: - login-demo

  /// `login-demo` in script mode typing the canary password (the demo service rejects it),
  /// and against the fixture server's `echo` user, which signs in with the canary token as
  /// its token; both with `--record`, and `replay` on the first log.
  static func loginDemo(into audit: LeakAudit, folder: URL, server: FixtureServer) async throws {
    let script = folder.appendingPathComponent("canary.script")
    try Data(
      """
      type username auditor
      type password \(password.reveal())
      tap login
      wait
      tap alert OK

      """.utf8
    ).write(to: script)
    let log = folder.appendingPathComponent("demo.jsonl")
    let output = try await DemoProcess.run(["--record", log.path], stdin: script)
    #expect(output.status == 0)
    #expect(output.stderr == "")
    #expect(output.stdout.contains("│ Incorrect username or password │"))
    audit.record("login-demo stdout+stderr", output.stdout + output.stderr, showing: [passwordDots])
    audit.record(
      "login-demo --record file", try String(contentsOf: log, encoding: .utf8),
      showing: [passwordJSON])
    // The demo's log begins with the launch and its restore: the password is typed at step 4.
    try await replay(
      log, into: audit, label: "login-demo", timelineMasks: [passwordMaskInLog], passwordStep: 4)

    let echoScript = folder.appendingPathComponent("echo.script")
    try Data(
      """
      type username echo-audit
      type password \(token.reveal())
      tap login
      wait
      tap logout

      """.utf8
    ).write(to: echoScript)
    let echoLog = folder.appendingPathComponent("echo.jsonl")
    let echo = try await DemoProcess.run(
      ["--api", server.baseURL.absoluteString, "--record", echoLog.path], stdin: echoScript)
    #expect(echo.status == 0)
    #expect(echo.stderr == "")
    #expect(echo.stdout.contains("Hello echo-audit"))
    audit.record(
      "login-demo --api stdout+stderr", echo.stdout + echo.stderr,
      showing: [passwordDots])
    audit.record(
      "login-demo --api --record file", try String(contentsOf: echoLog, encoding: .utf8),
      showing: [tokenJSON, "\"saveSession\""])
  }

  // MARK: - HTTP

  /// `HTTPLoginAPI` against the fixture server with the canary password for every scripted
  /// failure, a silent server (1 s timeout; the others a patient one) and a closed port; the `echo` user's session,
  /// whose token is the canary token; and the server's own log.
  static func http(into audit: LeakAudit, server: FixtureServer) async throws {
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    // Only the silent server's case waits for its deadline; a busy machine may take longer than
    // a second for the others, so they get the patient one.
    let silent = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(1))
    let closed = try ClosedPort()
    let refused = HTTPLoginAPI(
      baseURL: URL(string: "http://127.0.0.1:\(closed.port)")!,
      timeout: FixtureServer.patientTimeout)
    let cases: [(username: String, api: HTTPLoginAPI, expected: LoginServiceError)] = [
      ("status500", api, .wrongStatusCode(500)), ("garbage", api, .decodingFailed),
      ("empty", api, .nilData), ("huge", api, .decodingFailed),
      ("forbidden", api, .invalidCredentials), ("demo", api, .invalidCredentials),
      ("nobody", api, .invalidCredentials), ("silent", silent, .timeout),
      ("demo", refused, .transport("connection refused at 127.0.0.1:\(closed.port)")),
    ]
    var texts: [String] = []
    for testCase in cases {
      let credentials = Credentials(username: PersonalData(testCase.username), password: password)
      let error: LoginServiceError
      do {
        _ = try await testCase.api.login(credentials)
        Issue.record("\(testCase.username) signed in with the canary password")
        continue
      } catch let thrown {
        error = thrown
      }
      #expect(error == testCase.expected, "\(testCase.username)")
      var dumped = ""
      dump(error, to: &dumped)
      texts.append(
        [
          testCase.username, error.message, String(describing: error), String(reflecting: error),
          "\(error)", Dump.render(error), dumped, error.localizedDescription,
          Dump.render(LoginResult.failure(error)),
        ].joined(separator: "\n"))
    }
    audit.record("HTTPLoginAPI errors", texts.joined(separator: "\n\n"))

    let echoed = try await api.loginResult("echo-audit", token.reveal()).get()
    #expect(echoed.token == token)
    audit.record(
      "HTTPLoginAPI session",
      [Dump.render(echoed), String(describing: echoed), "\(echoed.token)"].joined(separator: "\n"),
      showing: [tokenMask])

    for username in ["status500", "garbage", "empty", "huge", "forbidden", "demo", "nobody"] {
      #expect(await server.waitForRequest(from: username))
    }
    for username in ["silent", "echo-audit"] {
      #expect(await server.waitForRequest(from: username))
    }
    audit.record("fixture server stdout", server.printedLines.joined(separator: "\n"))
  }
}

/// Lines collected by a main-actor callback.
@MainActor
final class TextLines {
  var lines: [String] = []
}
