import LoginFeature
import StateStore

/// A person typing a username and a password into the login form: one action per keystroke.
@MainActor
func loginKeystrokeScenarios(ops: Int) -> [BenchmarkResult] {
  var results = storeSendScenarios(
    group: "login", feature: "login keystroke", reducer: LoginReducer(),
    initialState: LoginState(), actions: loginKeystrokes(), ops: ops, targets: [0: "≤ 300 ns"])
  results.append(fieldEditScenario(ops: ops))
  return results
}

/// Building the action of one keystroke: the field edit `set(\.username, to:)`, the name of
/// its field looked up among the state's declared fields. Against the floor of the login
/// reducer's keystroke, which it feeds.
@MainActor
func fieldEditScenario(ops: Int) -> BenchmarkResult {
  let names = (0..<16).map { PersonalData("ada.lovelace".prefix($0 % 12 + 1).description) }
  let time = measure(ops: ops) { count in
    var built = 0
    for index in 0..<count {
      let edit = makeUsernameEdit(names[index & 15])
      built &+= edit.field.utf8.count
    }
    blackHole(built)
  }
  return BenchmarkResult(
    group: "login", scenario: "FieldEdit.set, login username", ops: ops, nanoseconds: time,
    floor: "FieldEdit.set, login username", floorNanosecondsPerOp: time / Double(ops),
    peakRSSMiB: peakRSSMiB(), target: "≤ 100 ns")
}

/// Out of line, as a view's keystroke handler builds it.
@inline(never)
func makeUsernameEdit(_ name: PersonalData) -> FieldEdit<LoginState> {
  .set(\.username, to: name)
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
