import LoginFeature
import StateStore
import Testing

/// The field actions of 0.2.0 still build, for one minor version, and make the edits that
/// replaced them.
struct DeprecatedFieldActionTests {
  @available(*, deprecated, message: "calls the deprecated field actions on purpose")
  @Test func theFieldActionsOf020AreTheEditsThatReplacedThem() {
    #expect(LoginAction.usernameChanged("ada") == .edit(.set(\.username, to: "ada")))
    #expect(LoginAction.passwordChanged("Secr3t") == .edit(.set(\.password, to: "Secr3t")))
    var state = LoginState()
    _ = LoginReducer().reduce(into: &state, action: .usernameChanged("ada"))
    _ = LoginReducer().reduce(into: &state, action: .passwordChanged("Secr3t"))
    #expect(state.username == "ada")
    #expect(state.password == "Secr3t")
  }
}
