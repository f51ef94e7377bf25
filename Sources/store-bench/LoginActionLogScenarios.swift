import ActionLog
import Foundation
import LoginFeature
import StateStore

/// Dependencies that do nothing, so only the store and the recorder are measured.
private struct NoLoginAPI: LoginAPI {
  func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    throw .cancelled
  }
  func requestPasswordReset(email: String) async throws(LoginServiceError) -> PasswordResetAnswer {
    throw .cancelled
  }
}

@MainActor private final class NoRouter: Router {
  func perform(_ command: RouteCommand) {}
}

@MainActor private final class NoAlerts: AlertPresenter {
  func present(_ alert: Alert) async -> AlertButton? { nil }
}

/// Recording overhead of login keystrokes, and replay of a realistic 1,000,000-transition login
/// log with verification against plain decoding.
@MainActor
func loginActionLogScenarios(quick: Bool, folder: URL) async -> [BenchmarkResult] {
  var results = await loginRecordingScenarios(ops: quick ? 2_000 : 1_000_000, folder: folder)
  results += await loginReplayScenarios(transitions: quick ? 1_000 : 1_000_000, folder: folder)
  return results
}

/// Keystrokes into a `Store(login:dependencies:)` with and without a recorder.
@MainActor
func loginRecordingScenarios(ops: Int, folder: URL) async -> [BenchmarkResult] {
  let dependencies = LoginDependencies(
    api: NoLoginAPI(), router: NoRouter(), alertPresenter: NoAlerts(),
    sessionStore: InMemorySessionStore())
  let keystrokes = (1...10).map { String("ada.lovelace".prefix($0)) }
  return await recordingScenarios(
    prefix: "record login", subject: "login keystroke", feature: LoginReducer.actionLogFeature,
    ops: ops, url: folder.appendingPathComponent("login-record.jsonl"),
    makeStore: { Store(login: LoginState(), dependencies: dependencies) },
    action: { .edit(.set(\.username, to: PersonalData(keystrokes[$0 % keystrokes.count]))) })
}

/// Sends a realistic login mix: typing, login taps, failed and successful responses, alerts,
/// lockouts and logouts — every action kind and every effect kind.
@MainActor
func sendLoginMix(
  _ transitions: Int, to store: Store<LoginReducer>, flush: @escaping () async -> Void
)
  async
{
  let user = User(id: "7", username: "ada.lovelace", displayName: "Ada Lovelace")
  let session = Session(user: user, token: "tok-0123456789abcdef")
  var sender = CappedSender(store, limit: transitions, flush: flush)
  var cycle = 0
  func send(_ action: LoginAction) async { await sender.send(action) }
  while !sender.isDone {
    cycle += 1
    for length in 1...6 {
      await send(
        .edit(.set(\.username, to: PersonalData(String("ada.lovelace".prefix(length * 2))))))
    }
    for length in 1...6 {
      await send(.edit(.set(\.password, to: Secret(String("Pa55word!xyz".prefix(length * 2))))))
    }
    await send(.loginButtonTapped)
    let attempt = store.state.attemptID
    if cycle % 7 == 0 {
      await send(.loginResponse(attempt: attempt, .success(session)))
      await send(.logoutButtonTapped)
    } else if cycle % 11 == 0 {
      await send(.cancelButtonTapped)
      await send(.loginResponse(attempt: attempt, .failure(.cancelled)))
    } else {
      let error: LoginServiceError = cycle % 5 == 3 ? .timeout : .invalidCredentials
      await send(.loginResponse(attempt: attempt, .failure(error)))
      await send(.alertButtonTapped("ok"))
      if store.state.isLocked { await send(.lockoutEnded) }
    }
  }
}

/// Replays an N-transition login log with verification, against decoding the same lines with a
/// plain `JSONDecoder` (read in the same 64 KiB chunks).
@MainActor
private func loginReplayScenarios(transitions: Int, folder: URL) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("login-replay.jsonl")
  let store = Store(initialState: LoginState(), reducer: LoginReducer())
  let recorder = benchSetUp("record to \(url.path)") {
    try store.record(to: url, feature: LoginReducer.actionLogFeature)
  }
  await sendLoginMix(transitions, to: store) { await recorder.flush() }
  await recorder.close()
  if recorder.droppedTransitionCount > 0 {
    FileHandleOutput.standardError(
      "store-bench: the login log dropped \(recorder.droppedTransitionCount) transitions")
  }

  return replayComparison(
    prefix: "replay login", floorName: "JSONDecoder, same login lines", url: url,
    transitions: transitions, reducer: LoginReducer(),
    lineType: RecordedTransition<LoginState, LoginAction, LoginEffect>.self)
}
