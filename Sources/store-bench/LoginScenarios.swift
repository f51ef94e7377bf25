import LoginFeature
import StateStore

/// A person typing a username and a password into the login form: one action per keystroke.
@MainActor
func loginKeystrokeScenarios(ops: Int) -> [BenchmarkResult] {
  let username = "ada.lovelace"
  let password = "Engine1843x"
  let keystrokes: [LoginAction] =
    (1...username.count).map { .usernameChanged(String(username.prefix($0))) }
    + (1...password.count).map { .passwordChanged(Secret(String(password.prefix($0)))) }
  return storeSendScenarios(
    group: "login", feature: "login keystroke", reducer: LoginReducer(),
    initialState: LoginState(), actions: keystrokes, ops: ops, targets: [0: "≤ 300 ns"])
}
