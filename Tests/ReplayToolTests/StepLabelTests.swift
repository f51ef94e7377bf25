import AppFeature
import LoginFeature
import ReplayTool
import StateStore
import Testing

/// How a row of the timeline reads an action: the path of cases as a breadcrumb, the leaf and
/// its payload without type names.
struct StepLabelTests {
  @Test(
    arguments: [
      (
        "AppAction.login(LoginAction.twoFactor(TwoFactorAction.verifyResponse(request: 1, "
          + "VerifyCodeResult.failure(LoginServiceError.incorrectCode))))",
        ["login", "twoFactor"], "verifyResponse(request: 1, failure(incorrectCode))"
      ),
      (
        "AppAction.login(LoginAction.twoFactor(TwoFactorAction.resendTimerTicked))",
        ["login", "twoFactor"], "resendTimerTicked"
      ),
      (#"LoginAction.usernameChanged("d")"#, [], #"usernameChanged("d")"#),
      ("LoginAction.loginButtonTapped", [], "loginButtonTapped"),
      // A string that looks like a type and a case stays as typed.
      (
        #"AppAction.login(LoginAction.usernameChanged("Foo.bar(\") X.y"))"#, ["login"],
        #"usernameChanged("Foo.bar(\") X.y")"#
      ),
      // Generic type names go too; a struct's name stays.
      (
        "AppEffect.login(LoginEffect.updateLockout(LockoutChange.failedAttempt(counted: 1, "
          + "lockingAt: 5, lockFor: 30 seconds)))",
        ["login"], "updateLockout(failedAttempt(counted: 1, lockingAt: 5, lockFor: 30 seconds))"
      ),
      (
        "OuterAction.wrapped(Result<Int, Error>.success(Point(x: 1)))", [],
        "wrapped(success(Point(x: 1)))"
      ),
      ("ShopEvent.cart(CartEvent.add(Item.book))", ["cart"], "add(book)"),
      // A row of a list: its address stays with its case.
      (
        "TodosAction.todos[id: 3](TodoAction.descriptionChanged(\"Milk\"))", ["todos[id: 3]"],
        "descriptionChanged(\"Milk\")"
      ),
      (
        "AppAction.lists[id: \"a.b(c\"](ListAction.rows[id: 7](RowAction.tapped))",
        ["lists[id: \"a.b(c\"]", "rows[id: 7]"], "tapped"
      ),
      ("TodosAction.todos[id: 3]", [], "todos[id: 3]"),
      ("not an action (at all)", [], "not an action (at all)"),
      ("", [], ""),
    ])
  func rowsShowTheLeafFirstAndThePathAsABreadcrumb(text: String, path: [String], leaf: String) {
    #expect(StepLabel(text) == StepLabel(path: path, leaf: leaf))
  }

  @Test func theBreadcrumbJoinsThePathWithAngleQuotes() {
    let text = Dump.renderOneLine(
      AppAction.login(.twoFactor(.resendTimerTicked)), limit: nil)
    #expect(StepLabel(text).breadcrumb == "login › twoFactor")
    #expect(StepLabel("LoginAction.launched").breadcrumb == "")
  }
}
