import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// The timeline's mock screen shows what `login-demo` shows for the same state: both draw the
/// elements `LoginScreenContent` decides (the demo's goldens are in EndToEndTests/DemoScripts).
@MainActor struct TimelineMockScreenTests {
  /// Records `actions` with a manual clock, `gaps[i]` passing before `actions[i]`.
  private static func page(
    _ actions: [(wait: Duration, action: LoginAction)], in folder: TemporaryFolder
  ) async throws -> TimelinePageData {
    let clock = ManualClock()
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.record(
      to: folder.file("log.jsonl"), feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(clock: RecordingClock(clock)))
    for (wait, action) in actions {
      await clock.advance(by: wait)
      store.send(action)
    }
    await recorder.close()
    let run = try await ReplayProcess.run(["--html", "p.html", "log.jsonl"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    return try TimelinePageData(contentsOf: folder.file("p.html"))
  }

  private static let credentials: [(wait: Duration, action: LoginAction)] = [
    (.zero, .edit(.set(\.username, to: "demo"))),
    (.zero, .edit(.set(\.password, to: Secret("Secr3t")))),
  ]

  @Test func theFormHasTheForgotPasswordButton() async throws {
    let page = try await Self.page(Self.credentials, in: TemporaryFolder())
    #expect(page.initialScreen?.summary.contains("button Forgot password? true") == true)
    #expect(page.screen(after: 1)?.summary.contains("button Forgot password? true") == true)
  }

  @Test func signingInShowsACancelButtonUnderTheSpinner() async throws {
    let page = try await Self.page(
      Self.credentials + [(.zero, .loginButtonTapped)], in: TemporaryFolder())
    #expect(
      page.screen(after: 2)?.summary.suffix(3) == [
        "button Forgot password? false", "spinner Signing in…", "button Cancel true",
      ])
  }

  /// The lockout reads the time left on the step times, as the demo's countdown on its clock,
  /// and the form says nothing is ready while it is locked; a tap on Login says why nothing
  /// happens.
  @Test func aLockedFormShowsTheTimeLeftAndNotReady() async throws {
    var actions = Self.credentials
    for attempt in 1...5 {
      actions += [
        (.seconds(1), .loginButtonTapped),
        (.zero, .loginResponse(attempt: attempt, .failure(.invalidCredentials))),
      ]
    }
    actions += [
      (.seconds(12), .loginButtonTapped), (.seconds(1), .edit(.set(\.username, to: "dem"))),
    ]
    let page = try await Self.page(actions, in: TemporaryFolder())
    let locked = try #require(page.screen(after: 11)?.summary)
    #expect(locked.contains("text[warning] Locked after 5 failed attempts. Try again in 30 s"))
    #expect(!locked.contains("text[success] ✓ Ready to sign in"))
    let tapped = try #require(page.screen(after: 12)?.summary)
    #expect(tapped.contains("text[warning] Locked after 5 failed attempts. Try again in 18 s"))
    #expect(
      tapped.contains(
        "text[warning] The form is locked after too many failed attempts; wait for the countdown."
      ))
    #expect(!tapped.contains("text[success] ✓ Ready to sign in"))
    let edited = try #require(page.screen(after: 13)?.summary)
    #expect(edited.contains("text[warning] Locked after 5 failed attempts. Try again in 17 s"))
    #expect(
      !edited.contains { $0.hasPrefix("text[warning] The form is locked") },
      "until the next action: \(edited)")
  }

  /// The code step says how many attempts are left and how long the code stays valid.
  @Test func theCodeStepShowsTheAttemptsLeftAndTheValidity() async throws {
    let challenge = Challenge(id: "c1", destination: "•••• 42")
    let wrong = LoginAction.twoFactor(.verifyResponse(request: 1, .failure(.incorrectCode)))
    let page = try await Self.page(
      Self.credentials + [
        (.zero, .loginButtonTapped), (.zero, .loginResponse(attempt: 1, .challenge(challenge))),
        (.zero, .twoFactor(.codeChanged(Secret("123456")))),
        (.zero, .twoFactor(.verifyButtonTapped)), (.zero, wrong),
      ], in: TemporaryFolder())
    let step = try #require(page.screen(after: 3)?.summary)
    #expect(step.contains("text[dim] The code is valid for 5 minutes."), "\(step)")
    let after = try #require(page.screen(after: 6)?.summary)
    #expect(
      after.contains("text[warning] Incorrect codes: 1 (2 attempts left)"), "\(after)")
    #expect(!after.contains { $0.contains("123456") }, "the code never shows in the page")
  }
}
