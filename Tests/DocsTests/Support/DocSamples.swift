import ActionLog
import AppFeature
import Foundation
import HTTPTestSupport
import LoginFeature
import LoginFeatureTesting
import LoginFileStores
import ReplayTool
import StateStore
import StateStoreTesting
import ToolTestSupport

/// The printed samples of the docs, made by the code that prints them (see `DocSampleTests`).
///
/// Each failure sample runs the scenario the article describes under a recording
/// ``StateStoreTesting/FailureReporter`` and returns the message the article shows.
@MainActor
enum DocSamples {
  static let producers: [String: @MainActor () async -> String] = [
    "printed-transition": printedTransition,
    "state-mismatch": stateMismatch,
    "receive-mismatch": receiveMismatch,
    "receive-timeout": receiveTimeout,
    "finish-unreceived": finishUnreceived,
    "replay-unknown-child-case": replayUnknownChildCase,
    "flight-window": flightWindow,
    // The doc comments of the sources.
    "effects-mismatch": effectsMismatch,
    "alert-release-unmatched": alertReleaseUnmatched,
    "api-release-unmatched": apiReleaseUnmatched,
    "optional-child-warning": optionalChildWarning,
    "dump-render": dumpRender,
    "line-diff": lineDiff,
    "formatted-transition": formattedTransition,
    "timed-headline": timedHeadline,
    "stored-file-errors": storedFileErrors,
    "regression-test-source": regressionTestSource,
    "action-log-errors": actionLogErrors,
    "replay-divergence": replayDivergence,
    "inputs-divergence": inputsDivergence,
    "gap-marker": gapMarker,
    "stopped-marker": stoppedMarker,
    "warning-marker": warningMarker,
    "replay-progress": replayProgress,
    "snapshot-mismatch": snapshotMismatch,
    "login-request": loginRequest,
    // Build your own feature.
    "counter-transitions": counterTransitions,
    "counter-log": counterLog,
    "counter-replay": counterReplay,
  ]

  static let credentials = Credentials(username: "demo", password: "Secr3t")

  /// Getting started: `store.printTransitions()` after the username is typed.
  static func printedTransition() async -> String {
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    var printed: [String] = []
    let printer = store.printTransitions(to: { printed.append($0) })
    store.send(.edit(.set(\.username, to: "demo")))
    printer.cancel()
    return printed.joined(separator: "\n")
  }

  /// The login form of the Writing tests scenarios with `fakes`, after Login was tapped (its
  /// request started, as the test asserts).
  private static func loginTapped(with fakes: LoginFakes) async -> TestStore<LoginReducer> {
    let store = TestStore(login: LoginState(username: "demo", password: "Secr3t"), fakes: fakes)
    await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    return store
  }

  /// Writing tests: the expected state forgets the new attempt id.
  static func stateMismatch() async -> String {
    await firstFailure {
      let store = TestStore(
        initialState: LoginState(username: "demo", password: "Secr3t"), reducer: LoginReducer())
      await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
        $0.isLoading = true
        $0.wasSubmitTried = true
      }
      await store.finish()
    }
  }

  /// Writing tests: the effect sent another failure than the one expected.
  static func receiveMismatch() async -> String {
    await firstFailure {
      let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
      let store = await loginTapped(with: fakes)
      await store.receive(.loginResponse(attempt: 1, .failure(.nilData)))
      store.skipReceivedActions()
      await store.finish()
    }
  }

  /// Writing tests: the request is held, so nothing arrives within the timeout.
  static func receiveTimeout() async -> String {
    await firstFailure {
      let fakes = LoginFakes()
      fakes.api.holdNextCall()
      let store = await loginTapped(with: fakes)
      await fakes.api.waitForHeldCall()
      await store.receive(
        .loginResponse(attempt: 1, .failure(.invalidCredentials)), timeout: .milliseconds(100))
      fakes.api.release(with: .failure(.invalidCredentials))
      store.skipReceivedActions()
      await store.finish()
    }
  }

  /// Writing tests: the alert's answer was never received.
  static func finishUnreceived() async -> String {
    await firstFailure {
      let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
      let store = await loginTapped(with: fakes)
      await store.receive(.loginResponse(attempt: 1, .failure(.invalidCredentials))) {
        $0.isLoading = false
        $0.failedAttempts = 1
      }
      await store.finish()
    }
  }

  /// Composing features: an app log whose login action names a case `LoginAction` lacks.
  static func replayUnknownChildCase() async -> String {
    do {
      let folder = try TemporaryFolder()
      let header = try String(
        contentsOf: ReplayProcess.fixtures.appendingPathComponent("app.jsonl"), encoding: .utf8
      ).split(separator: "\n")[0]
      let step =
        #"{"seq":1,"origin":"user","action":{"login":{"_0":{"frobnicate":{}}}},"#
        + #""effects":[],"digest":"0"}"#
      let log = try folder.write("bad.jsonl", lines: [String(header), step])
      return replayApp([log.path]).errors.trimmingCharacters(in: .newlines)
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// Sessions and relaunch: the opening lines of `replay FOLDER` over a flight recorder's
  /// folder whose oldest segments were rotated out (the steps' state changes left out, and the
  /// launch's date, which is the recording's, set to 2026-01-01).
  static func flightWindow() async -> String {
    do {
      let folder = try TemporaryFolder()
      let flight = folder.url.appendingPathComponent("flight")
      let store = Store(initialState: AppState(), reducer: AppReducer())
      let recorder = try store.recordFlight(
        to: flight, feature: AppReducer.actionLogFeature,
        options: FlightRecorderOptions(
          budget: 8 * 1024, segmentCount: 4,
          recording: RecordingOptions(clock: RecordingClock(TestClock()))))
      for step in 1...400 {
        store.send(.login(.edit(.set(\.username, to: step.isMultiple(of: 2) ? "demo" : "dem"))))
        // Each line written before the next is sent: the segments roll at the same steps on
        // every run (a line not yet written counts at an estimated size).
        await recorder.flush()
      }
      await recorder.close()
      let opening = replayApp([flight.path]).output.split(separator: "\n")
        .filter { $0.hasPrefix("──") || $0.hasPrefix("#") }.prefix(3)
      return opening.joined(separator: "\n")
        .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "2026-01-01T00:00:00Z")
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// `TestStore.send(_:effects:assert:)`: the expected effect has another password.
  static func effectsMismatch() async -> String {
    await firstFailure {
      let store = TestStore(
        initialState: LoginState(username: "demo", password: "Secr3t"), reducer: LoginReducer())
      await store.send(
        .loginButtonTapped,
        effects: [.authenticate(Credentials(username: "demo", password: "Secret"), attempt: 1)]
      ) {
        $0.isLoading = true
        $0.wasSubmitTried = true
        $0.attemptID = 1
      }
      store.skipReceivedActions()
    }
  }

  /// `RecordingAlertPresenter.release`: the held alert is not the one the condition asks for.
  static func alertReleaseUnmatched() async -> String {
    let presenter = RecordingAlertPresenter()
    presenter.respondToNext(.hold)
    let shown = Task { await presenter.present(Alert(title: "Offline", message: "No network")) }
    await presenter.waitForHeldAlert()
    let message = await firstFailure {
      presenter.release(.dismiss, where: { $0.title == "Couldn't sign in" })
    }
    presenter.release(.dismiss)
    _ = await shown.value
    return message
  }

  /// `StubLoginAPI.release(with:where:)`: the held call is not the one the condition asks for.
  static func apiReleaseUnmatched() async -> String {
    let api = StubLoginAPI()
    api.holdNextCall()
    let call = Task { try? await api.login(credentials) }
    await api.waitForHeldCall()
    let message = await firstFailure {
      api.release(with: .failure(.nilData), where: { $0.username == "ada" })
    }
    api.release(with: .failure(.invalidCredentials))
    _ = await call.value
    return message
  }

  /// `RuntimeWarning`: an action for the two-factor step while there is none.
  static func optionalChildWarning() async -> String {
    let warnings = Collected()
    RuntimeWarning.$reporter.withValue(.init { warnings.append($0.message) }) {
      let store = Store(initialState: LoginState(), reducer: LoginReducer())
      store.send(.twoFactor(.verifyButtonTapped))
    }
    return "[StateStore] warning: " + warnings.text
  }

  /// `Dump`: a login state.
  static func dumpRender() async -> String {
    Dump.render(LoginState(username: "demo", password: "Secr3t"))
  }

  /// `Dump.diff(_:_:context:)`: the expected state forgot `isLoading`.
  static func lineDiff() async -> String {
    let expected = LoginState(username: "demo")
    var actual = expected
    actual.isLoading = true
    return Dump.diff(Dump.render(expected), Dump.render(actual), context: 1) ?? "(no diff)"
  }

  /// `TransitionFormatter`: the login button tapped.
  static func formattedTransition() async -> String {
    let store = Store(
      initialState: LoginState(username: "demo", password: "Secr3t"), reducer: LoginReducer())
    var printed: [String] = []
    let printer = store.printTransitions(context: 1, to: { printed.append($0) })
    store.send(.loginButtonTapped)
    printer.cancel()
    return printed.joined(separator: "\n")
  }

  /// `TransitionFormatter.format(_:time:)`: the headline of a step 3.25 seconds in.
  static func timedHeadline() async -> String {
    let transition = Transition<LoginState, LoginAction, LoginEffect>(
      sequenceNumber: 7, origin: .user, action: .loginButtonTapped, effects: [],
      stateBefore: LoginState(), stateAfter: LoginState())
    let text = TransitionFormatter().format(transition, time: .milliseconds(3_250))
    return String(text.split(separator: "\n")[0])
  }

  /// `StoredFileError`: a session file that is not the store's, a lockout path that is a folder.
  static func storedFileErrors() async -> String {
    do {
      let folder = try TemporaryFolder()
      let session = try folder.write("session.json", lines: [#"{"theme":"dark"}"#])
      let lockout = folder.url.appendingPathComponent("lockout.json")
      try FileManager.default.createDirectory(at: lockout, withIntermediateDirectories: false)
      var messages: [String] = []
      do {
        try await FileSessionStore(url: session).save(
          Session(user: User(id: "1", username: "demo"), token: Secret("t0ken")))
      } catch { messages.append("\(error)") }
      do {
        _ = try await FileLockoutStore(url: lockout).load()
      } catch { messages.append("\(error)") }
      return messages.joined(separator: "\n")
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// `RegressionTestSource`: the test for a bug report's log.
  static func regressionTestSource() async -> String {
    RegressionTestSource.make(
      logPath: "Logs/bug-42.jsonl", feature: "login", featureModule: "LoginFeature",
      reducer: "LoginReducer()"
    ).trimmingCharacters(in: .newlines)
  }

  /// `ActionLogError`: an action case this build lacks, a log from a newer build.
  static func actionLogErrors() async -> String {
    [
      ActionLogError.unknownAction(line: 7, name: "frobnicate"),
      .unsupportedVersion(found: 2, supported: ActionLogFormat.version),
    ].map(\.description).joined(separator: "\n")
  }

  /// `Replayer`: the divergent fixture, whose fourth step's password was edited.
  static func replayDivergence() async -> String {
    do {
      _ = try Replayer(reducer: LoginReducer()).replay(
        ReplayProcess.fixtures.appendingPathComponent("login-divergent.jsonl"))
      return "(the replay did not diverge)"
    } catch {
      return "\(error)"
    }
  }

  /// Reducer inputs: a deck session whose second step's line lost the id it recorded.
  static func inputsDivergence() async -> String {
    do {
      let folder = try TemporaryFolder()
      let url = folder.file("deck.jsonl")
      let store = Store(initialState: Deck(), reducer: DeckReducer())
      let recorder = try store.record(to: url, feature: "deck")
      store.send(.addTapped)
      store.send(.addTapped)
      await recorder.close()
      var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        .map(String.init)
      lines[2] = lines[2].replacingOccurrences(
        of: #""ids":\[[^]]*\],"#, with: "", options: .regularExpression)
      try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
      _ = try Replayer(reducer: DeckReducer()).replay(url)
      return "(the replay did not diverge)"
    } catch {
      return "\(error)"
    }
  }

  /// The state of a counter, for the markers' samples.
  private struct Counter: Codable {
    var count: Int
  }

  /// The gap marker after 12 dropped transitions.
  static func gapMarker() async -> String {
    var line = Data()
    try? ActionLogFormat.Gap(dropped: 12, state: Counter(count: 40))
      .appendLine(to: &line, using: CanonicalJSONEncoder())
    return String(decoding: line, as: UTF8.self)
  }

  /// The stopped marker of a log that reached its 1 MiB limit.
  static func stoppedMarker() async -> String {
    var line = Data()
    try? ActionLogFormat.Stopped(reason: .maximumFileSize, limit: 1 << 20)
      .appendLine(to: &line, using: CanonicalJSONEncoder())
    return String(decoding: line, as: UTF8.self)
  }

  /// The warning marker of a flight recorder that could not delete its oldest segment.
  static func warningMarker() async -> String {
    var line = Data()
    let failure = ActionLogError.ioError(
      "cannot delete segment-000001.jsonl to keep 'flight' within its budget of 10240 bytes: "
        + "Operation not permitted")
    try? ActionLogFormat.Warning(message: failure.description)
      .appendLine(to: &line, using: CanonicalJSONEncoder())
    return String(decoding: line, as: UTF8.self)
  }

  /// `ReplayProgress`: 120,000 steps in 1.5 seconds, a fifth of the log read.
  static func replayProgress() async -> String {
    ReplayProgress.line(
      .init(steps: 120_000, bytes: 1_000_000), elapsed: .milliseconds(1_500),
      totalBytes: 5_000_000)
  }

  /// `assertSnapshot(of:named:)`: the stored snapshot is of a locked form, the state is not
  /// (the temporary folder's path shown as `/…`).
  static func snapshotMismatch() async -> String {
    do {
      let folder = try TemporaryFolder()
      let settings = SnapshotSettings(
        directory: folder.url.appendingPathComponent("__Snapshots__").path,
        environment: { _ in nil })
      let stored = URL(
        fileURLWithPath: settings.path(
          filePath: "LoginTests.swift", function: "lockout()", name: "locked"))
      try FileManager.default.createDirectory(
        at: stored.deletingLastPathComponent(), withIntermediateDirectories: true)
      try (Dump.render(LoginState(username: "demo", isLocked: true)) + "\n")
        .write(to: stored, atomically: true, encoding: .utf8)
      let message = await firstFailure {
        SnapshotSettings.$current.withValue(settings) {
          assertSnapshot(
            of: LoginState(username: "demo"), named: "locked", filePath: "LoginTests.swift",
            function: "lockout()")
        }
      }
      return message.replacingOccurrences(of: folder.url.path, with: "/…")
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// `HTTPLoginAPI`: the request a login sends, as a fake service on `/api` receives it (its
  /// headers sorted: a `URLRequest` keeps them in a dictionary).
  static func loginRequest() async -> String {
    let stub = StubService(.respond(401))
    _ = try? await stub.api().login(credentials)
    guard let request = await stub.firstRequest(), let url = request.url else {
      return "(no request was received)"
    }
    let headers = request.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    return
      (["\(request.method ?? "GET") \(url.path) HTTP/1.1"] + headers + [""]
      + [String(decoding: request.body, as: UTF8.self)]).joined(separator: "\n")
  }

  /// What `replay arguments` prints for the app feature, without colours.
  private static func replayApp(_ arguments: [String]) -> (output: String, errors: String) {
    let output = Collected()
    let errors = Collected()
    let command = ReplayCommand(features: [
      ReplayableFeature(
        name: "app", reducer: AppReducer(), module: "AppFeature",
        reducerExpression: "AppReducer()")
    ])
    _ = command.run(
      arguments,
      output: ReplayOutput(isColored: false, write: output.append, writeError: errors.append))
    return (output.text, errors.text)
  }

  /// Text written from any thread.
  private final class Collected: Sendable {
    private let parts = Guarded<[String]>([])

    func append(_ part: String) { parts.withLock { $0.append(part) } }
    var text: String { parts.withLock { $0.joined() } }
  }

  /// The first failure `body` reports, or a note that it reported none.
  private static func firstFailure(_ body: @MainActor () async -> Void) async -> String {
    let failures = FailureReporter.Recorder()
    await FailureReporter.$current.withValue(failures.reporter) {
      await body()
    }
    return failures.messages.first ?? "(no failure was reported)"
  }
}
