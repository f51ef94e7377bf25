import ActionLog
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// A password-reset session through `Store(login:dependencies:)`, recorded with the usernames
/// masked and replayed with every digest, checkpoint and effect verified.
@MainActor
struct PasswordResetActionLogTests {
  /// Opens the step, types an address, sends it (the service fails, the alert is acknowledged)
  /// and goes back: 7 steps.
  private func record(to url: URL, options: RecordingOptions) async throws {
    let fakes = LoginFakes()
    fakes.api.enqueuePasswordResets(.failure(.wrongStatusCode(500)))
    let store = Store(login: LoginState(), dependencies: fakes.dependencies)
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature, options: options)
    store.send(.forgotPasswordTapped)
    store.send(.passwordReset(.edit(.set(\.email, to: "a"))))
    store.send(.passwordReset(.edit(.set(\.email, to: "ada@example.com"))))
    await store.send(.passwordReset(.sendButtonTapped)).finish()
    store.send(.passwordReset(.backButtonTapped))
    await recorder.close()
    #expect(fakes.api.passwordResetEmails == ["ada@example.com"])
  }

  @Test func theAddressNeverReachesAMaskedLogAndTheLogStillVerifies() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("reset.jsonl")
    try await record(
      to: url, options: RecordingOptions(checkpointInterval: 3, masksPersonalData: true))
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(!text.contains("ada"))
    #expect(!text.contains("example"))
    #expect(text.contains(#""email":"aaa@aaaaaaa.aaa""#))

    let result = try Replayer(reducer: LoginReducer()).replay(
      url, keepingSteps: true,
      options: ActionLogReadOptions(expectedFeature: LoginReducer.actionLogFeature))
    #expect(result.warnings.isEmpty)
    #expect(result.stepCount == 7)
    #expect(result.finalState == LoginState())
    let sent = result.steps.first { $0.transition.action == .passwordReset(.sendButtonTapped) }
    #expect(
      sent?.transition.effects
        == [.passwordReset(.requestReset(email: "aaa@aaaaaaa.aaa", request: 1))])
    #expect(
      result.steps.last?.transition.effects
        == [.childDismissed(LoginReducer.passwordReset.dismissal)])
  }

  @Test func theAddressIsInClearByDefault() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("clear.jsonl")
    try await record(to: url, options: RecordingOptions())
    let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    #expect(text.contains(#""email":"ada@example.com""#))
    #expect(try Replayer(reducer: LoginReducer()).replay(url).stepCount == 7)
  }
}
