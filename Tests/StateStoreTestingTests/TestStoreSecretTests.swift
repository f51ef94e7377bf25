import StateStore
import StateStoreTesting
import Testing

private struct Form: Equatable, Sendable {
  var password: Secret = ""
}

private struct FormReducer: Reducer {
  enum Action: Equatable, Sendable {
    case typed(Secret)
  }

  func reduce(into state: inout Form, action: Action) -> [Never] {
    switch action {
    case .typed(let password):
      state.password = password
      return []
    }
  }
}

@MainActor
struct TestStoreSecretTests {
  @Test func aDifferenceInsideASecretIsExplainedWithoutShowingIt() async {
    let store = TestStore(initialState: Form(), reducer: FormReducer())
    await expectFailures(
      [
        """
        State after send(FormReducer.Action.typed(Secret(Aaaa0a))) differs from the expected state.

            Form(
              password: Secret(Aaaa0a)
            )

        (Both render the same: they differ inside a secret, which shows its mask only.)
        Mutate the expected state in the trailing closure to match, or fix the reducer.
        """
      ], line: #line + 2
    ) {
      await store.send(.typed("Secr3t")) { $0.password = "Abcd5x" }
    }
  }
}
