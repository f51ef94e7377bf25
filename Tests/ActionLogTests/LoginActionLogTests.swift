import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// A real login session through `Store(login:dependencies:)`, recorded and replayed.
@MainActor
struct LoginActionLogTests {
  /// Records the fail-once-then-succeed session and keeps every transition the store made.
  func record(
    to url: URL, password: String = "Secr3t", token: String = "demo-token-42",
    options: RecordingOptions = RecordingOptions(checkpointInterval: 3)
  ) async throws -> [Transition<LoginState, LoginAction, LoginEffect>] {
    let store = LoginSessions.failOnceThenSucceed(token: token)
    var transitions: [Transition<LoginState, LoginAction, LoginEffect>] = []
    let subscription = store.observeTransitions { transitions.append($0) }
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature, options: options)
    await LoginSessions.typeFailOnceThenSucceed(into: store, password: password)
    await recorder.close()
    subscription.cancel()
    return transitions
  }

  @Test func replayGivesTheRecordedStatesActionsAndEffectsAtEveryStep() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("round-trip.jsonl")
    let recorded = try await record(to: url)
    let result = try Replayer(reducer: LoginReducer()).replay(
      url, keepingSteps: true,
      options: ActionLogReadOptions(expectedFeature: LoginReducer.actionLogFeature))
    #expect(result.warnings.isEmpty)
    #expect(result.stepCount == 10)
    #expect(result.steps.map(\.transition.origin) == recorded.map(\.origin))
    #expect(result.steps.map(\.sequenceNumber) == Array(1...10))
    // The log holds masks, so compare the renderings, which show secrets as masks too.
    for (step, original) in zip(result.steps, recorded) {
      #expect(Dump.render(step.transition.stateBefore) == Dump.render(original.stateBefore))
      #expect(Dump.render(step.transition.stateAfter) == Dump.render(original.stateAfter))
      #expect(Dump.render(step.transition.action) == Dump.render(original.action))
      #expect(Dump.render(step.transition.effects) == Dump.render(original.effects))
      #expect(step.transition.effects == step.recordedEffects)
    }
    #expect(result.finalState.user == LoginSessions.user)
    #expect(result.finalState.password.reveal() == "Aaaa0a0")
  }

  @Test func secretCanaryAppearsNowhereInTheFileNorInTheReplayOutput() async throws {
    let password = "Canary-7f3e-Pw"
    let token = "tok-Canary-99"
    let folder = try TemporaryFolder()
    let url = folder.file("canary.jsonl")
    let recorded = try await record(to: url, password: password, token: token)
    // The secrets really flowed: through the form, the request, the response and the save.
    #expect(
      recorded.last?.effects.first
        == .saveSession(Session(user: LoginSessions.user, token: Secret(token))))
    #expect(recorded.contains { $0.action == .edit(.set(\.password, to: Secret(password))) })

    let bytes = try Data(contentsOf: url)
    for canary in [password, token, password + "1", "Canary"] {
      #expect(bytes.range(of: Data(canary.utf8)) == nil, "\(canary) leaked into the log")
    }
    #expect(bytes.range(of: Data(#""token":"aaa*Aaaaaa*00""#.utf8)) != nil)

    for arguments in [
      ["canary.jsonl"], ["--state", "canary.jsonl"], ["--verify", "canary.jsonl"],
    ] {
      let run = try await ReplayProcess.run(arguments, in: folder.url)
      #expect(run.status == 0)
      #expect(!run.stdout.contains("Canary") && !run.stderr.contains("Canary"))
    }
    let timeline = try await ReplayProcess.run(["canary.jsonl"], in: folder.url).stdout
    // The masks, as the log holds them (a secret's canonical JSON is its mask).
    #expect(timeline.contains(#"token: "aaa*Aaaaaa*00""#))
    #expect(timeline.contains(#"edit(field: "password", value: "Aaaaaa*0a0a*Aa")"#))
  }

  @Test func maskedUsernamesNeverReachTheFileAndTheLogStillVerifies() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("masked.jsonl")
    _ = try await record(to: url, options: RecordingOptions(masksPersonalData: true))
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(!text.contains("demo"))
    #expect(!text.contains("Demo User"))
    #expect(text.contains(#""username":"aaaa""#))
    #expect(text.contains(#""displayName":"Aaaa Aaaa""#))

    let result = try Replayer(reducer: LoginReducer()).replay(url)
    #expect(result.stepCount == 10)
    #expect(result.finalState.username == "aaaa")
    #expect(result.finalState.user == User(id: "42", username: "aaaa", displayName: "Aaaa Aaaa"))
  }

  @Test func usernamesAreInClearByDefault() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("clear.jsonl")
    _ = try await record(to: url)
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(text.contains(#""username":"demo""#))
    #expect(text.contains(#""feature":"login""#))
  }
}
