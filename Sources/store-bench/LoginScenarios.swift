import LoginFeature
import StateStore

/// A person typing a username and a password into the login form: one action per keystroke.
@MainActor
func loginKeystrokeScenarios(ops: Int) -> [BenchmarkResult] {
  storeSendScenarios(
    group: "login", feature: "login keystroke", reducer: LoginReducer(),
    initialState: LoginState(), actions: loginKeystrokes(), ops: ops, targets: [0: "≤ 300 ns"])
}

/// Typing `ada.lovelace` and `Engine1843x`, one action per keystroke: the input of the login
/// store's and the app store's keystroke scenarios alike.
func loginKeystrokes() -> [LoginAction] {
  let username = "ada.lovelace"
  let password = "Engine1843x"
  let typing: [LoginAction] = (1...username.count).map {
    .edit(.set(\.username, to: PersonalData(String(username.prefix($0)))))
  }
  return typing
    + (1...password.count).map { .edit(.set(\.password, to: Secret(String(password.prefix($0))))) }
}
