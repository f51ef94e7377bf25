import ActionLog
import AppFeature
import Foundation
import LoginFeature
import LoginFeatureTesting
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

  /// Writing tests: the expected state forgets the new attempt id.
  static func stateMismatch() async -> String {
    await firstFailure {
      let store = TestStore(
        initialState: LoginState(username: "demo", password: "Secr3t"), reducer: LoginReducer())
      await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
        $0.isLoading = true
      }
      await store.finish()
    }
  }

  /// Writing tests: the effect sent another failure than the one expected.
  static func receiveMismatch() async -> String {
    await firstFailure {
      let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
      let store = TestStore(login: LoginState(username: "demo", password: "Secr3t"), fakes: fakes)
      await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
        $0.isLoading = true
        $0.attemptID = 1
      }
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
      let store = TestStore(login: LoginState(username: "demo", password: "Secr3t"), fakes: fakes)
      await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
        $0.isLoading = true
        $0.attemptID = 1
      }
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
      let store = TestStore(login: LoginState(username: "demo", password: "Secr3t"), fakes: fakes)
      await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
        $0.isLoading = true
        $0.attemptID = 1
      }
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
      let errors = Collected()
      let command = ReplayCommand(features: [
        ReplayableFeature(
          name: "app", reducer: AppReducer(), module: "AppFeature",
          reducerExpression: "AppReducer()")
      ])
      _ = command.run(
        [log.path],
        output: ReplayOutput(isColored: false, write: { _ in }, writeError: errors.append))
      return errors.text.trimmingCharacters(in: .newlines)
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
      let output = Collected()
      let command = ReplayCommand(features: [
        ReplayableFeature(
          name: "app", reducer: AppReducer(), module: "AppFeature",
          reducerExpression: "AppReducer()")
      ])
      _ = command.run(
        [flight.path],
        output: ReplayOutput(isColored: false, write: output.append, writeError: output.append))
      let opening = output.text.split(separator: "\n")
        .filter { $0.hasPrefix("──") || $0.hasPrefix("#") }.prefix(3)
      return opening.joined(separator: "\n")
        .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "2026-01-01T00:00:00Z")
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// Text written from any thread.
  private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [String] = []

    func append(_ part: String) { lock.withLock { parts.append(part) } }
    var text: String { lock.withLock { parts.joined() } }
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
