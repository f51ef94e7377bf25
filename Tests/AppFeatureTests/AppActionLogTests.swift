import ActionLog
import AppFeature
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing
import ToolTestSupport

/// A real app session — a failed sign-in, a sign-in, the profile, a logout — recorded from the
/// app store, then replayed and verified with the app reducer; secrets masked at every level.
@MainActor struct AppActionLogTests {
  @Test func aSessionRecordedWithUsernamesMaskedHoldsNoNameOrEmailAnywhere() async throws {
    // Every place personal data travels in a session: the typed username, the user the service
    // returns (display name, email), the profile the home screen loads, the logout. A value
    // that a feature forgets to redact shows up in these bytes.
    let user = User(
      id: "u-7", username: "zqxjk", displayName: "Ada Lovelace", email: "ada.lovelace@example.org")
    let session = Session(user: user, token: "tok-Canary-42")
    let fakes = LoginFakes(results: [.success(session)])
    let store = Store(
      app: AppState(),
      dependencies: AppDependencies(
        login: fakes.dependencies, profiles: DemoProfileAPI(delay: .zero, clock: fakes.clock)))
    let folder = try TemporaryFolder()
    let url = folder.file("masked.jsonl")
    let recorder = try store.record(
      to: url, feature: AppReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 2, masksPersonalData: true))

    store.send(.login(.edit(.set(\.username, to: "zqxjk"))))
    store.send(.login(.edit(.set(\.password, to: "Secr3t"))))
    await store.send(.login(.loginButtonTapped)).finish()
    #expect(store.state.home?.profile?.displayName == "Ada Lovelace")
    store.send(.login(.logoutButtonTapped))
    await recorder.close()

    let bytes = try String(contentsOf: url, encoding: .utf8)
    #expect(bytes.contains("profileLoaded"), "the session did not reach the profile")
    // A Bool, not the bytes, in the expectation: a failure must not print what leaked.
    for personal in ["zqxjk", "Ada", "Lovelace", "ada.lovelace", "example.org", "tok-Canary"] {
      let leaked = bytes.contains(personal)
      #expect(!leaked, "'\(personal)' is in the recorded bytes")
    }
  }

  @Test func aRecordedAppSessionReplaysAndVerifiesWithTheSecretsMasked() async throws {
    let password = "Canary7Pw"
    let token = Secret("tok-Canary-99")
    let session = Session(user: Sample.user, token: token)
    let fakes = LoginFakes(results: [.failure(.invalidCredentials), .success(session)])
    let store = Store(
      app: AppState(),
      dependencies: AppDependencies(
        login: fakes.dependencies, profiles: DemoProfileAPI(delay: .zero, clock: fakes.clock)))
    var recorded: [AppAction] = []
    let subscription = store.observeTransitions { recorded.append($0.action) }
    let folder = try TemporaryFolder()
    let url = folder.file("app.jsonl")
    let recorder = try store.record(
      to: url, feature: AppReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 4))

    store.send(.login(.edit(.set(\.username, to: "demo"))))
    store.send(.login(.edit(.set(\.password, to: "Wrong1x"))))
    await store.send(.login(.loginButtonTapped)).finish()
    store.send(.login(.edit(.set(\.password, to: Secret(password)))))
    await store.send(.login(.loginButtonTapped)).finish()
    store.send(.login(.logoutButtonTapped))
    await recorder.close()
    subscription.cancel()

    let bytes = try String(contentsOf: url, encoding: .utf8)
    #expect(!bytes.contains(password))
    #expect(!bytes.contains(token.reveal()))
    #expect(!bytes.contains("Wrong1x"))

    let result = try Replayer(reducer: AppReducer()).replay(
      url, keepingSteps: true,
      options: ActionLogReadOptions(expectedFeature: AppReducer.actionLogFeature))
    #expect(result.warnings.isEmpty)
    #expect(result.stepCount == recorded.count)
    #expect(result.steps.map { Dump.render($0.transition.action) } == recorded.map(Dump.render))
    #expect(result.steps.contains { $0.transition.action == .home(.profileLoaded(Sample.profile)) })
    #expect(
      result.steps.contains {
        $0.transition.effects.contains(.childDismissed(AppReducer.home.dismissal))
      })
    #expect(result.finalState == AppState(login: LoginState(username: "demo", attemptID: 2)))
    for step in result.steps {
      let text = TransitionFormatter(context: 100).format(step.transition)
      #expect(!text.contains(password) && !text.contains(token.reveal()))
    }
  }
}
