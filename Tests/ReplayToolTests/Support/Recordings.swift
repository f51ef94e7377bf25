import ActionLog
import AppFeature
import Foundation
import LoginFeature
import StateStore

/// Action logs recorded in the test, through a real store and recorder.
@MainActor
enum Recordings {
  /// Records `actions` into a login log at `url`.
  static func login(
    _ actions: [LoginAction], to url: URL, checkpointInterval: Int = 4,
    initialState: LoginState = LoginState()
  ) async throws {
    let store = Store(initialState: initialState, reducer: LoginReducer())
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: checkpointInterval))
    for action in actions { store.send(action) }
    await recorder.close()
  }

  /// Records an app log of `count` steps at `url`: typing, failed and successful sign-ins,
  /// alerts, profiles, logouts.
  static func appMix(_ count: Int, to url: URL) async throws {
    let store = Store(initialState: AppState(), reducer: AppReducer())
    let recorder = try store.record(
      to: url, feature: AppReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 50))
    var sent = 0
    var cycle = 0
    func send(_ action: AppAction) async {
      guard sent < count else { return }
      store.send(action)
      sent += 1
      if sent % 500 == 0 { await recorder.flush() }
    }
    while sent < count {
      cycle += 1
      let name = "user\(cycle % 13)"
      for length in 1...name.count {
        await send(.login(.edit(.set(\.username, to: PersonalData(String(name.prefix(length)))))))
      }
      for length in 1...6 {
        await send(.login(.edit(.set(\.password, to: Secret(String("Pa55wd".prefix(length)))))))
      }
      await send(.login(.loginButtonTapped))
      let attempt = store.state.login.attemptID
      if cycle % 3 == 0 {
        let user = User(id: "\(cycle)", username: PersonalData(name), displayName: "User \(cycle)")
        await send(
          .login(
            .loginResponse(
              attempt: attempt, .success(Session(user: user, token: Secret("tok-\(cycle)"))))
          ))
        if store.state.home != nil {
          await send(
            .home(.profileLoaded(Profile(displayName: "U", unreadMessages: 2, plan: "Free"))))
          await send(.login(.logoutButtonTapped))
        }
      } else {
        await send(.login(.loginResponse(attempt: attempt, .failure(.invalidCredentials))))
        await send(.login(.alertButtonTapped("ok")))
        if store.state.login.isLocked { await send(.login(.lockoutEnded)) }
      }
    }
    await recorder.close()
  }
}
