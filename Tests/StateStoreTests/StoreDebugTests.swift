import StateStore
import Testing
import ToolTestSupport

private struct Form: Equatable, Sendable {
  var username = ""
  var password: Secret = ""
  var isLoading = false
  var attempts = 0
  var note = "none"
}

private struct FormReducer: Reducer {
  enum Action: Equatable, Sendable {
    case typed(String, Secret)
    case submitted
  }

  enum Effect: StoreEffect, Equatable {
    case submit(username: String, password: Secret)
  }

  func reduce(into state: inout Form, action: Action) -> [Effect] {
    switch action {
    case .typed(let username, let password):
      state.username = username
      state.password = password
      return []
    case .submitted:
      state.isLoading = true
      return [.submit(username: state.username, password: state.password)]
    }
  }
}

@MainActor
struct StoreDebugTests {
  @Test func printerShowsEachActionItsDiffAndItsEffectsWithSecretsMasked() {
    let store = Store(initialState: Form(), reducer: FormReducer())
    var printed: [String] = []
    let printer = store.printTransitions { printed.append($0) }
    store.send(.typed("demo", "Secr3t"))
    store.send(.submitted)
    store.send(.typed("demo", "Secr3t"))
    store.send(.typed("demo", "Secr3x"))

    #expect(
      printed == [
        """
        #1 user FormReducer.Action.typed("demo", Secret(Aaaa0a))
            Form(
          −   username: "",
          −   password: Secret(),
          +   username: "demo",
          +   password: Secret(Aaaa0a),
              isLoading: false,
              … (3 unchanged)
        """,
        """
        #2 user FormReducer.Action.submitted
              … (2 unchanged)
              password: Secret(Aaaa0a),
          −   isLoading: false,
          +   isLoading: true,
              attempts: 0,
              … (2 unchanged)
          effect: FormReducer.Effect.submit(username: "demo", password: Secret(Aaaa0a))
        """,
        """
        #3 user FormReducer.Action.typed("demo", Secret(Aaaa0a))
          (no state change)
        """,
        """
        #4 user FormReducer.Action.typed("demo", Secret(Aaaa0a))
          (the state changed inside a secret, which shows its mask only)
        """,
      ])
    #expect(!printed.joined().contains("Secr3t"))
    #expect(!printed.joined().contains("Secr3x"))
    printer.cancel()
  }

  @Test func describeWithoutContextFoldingShowsTheWholeState() {
    let transition = Transition<Form, FormReducer.Action, FormReducer.Effect>(
      sequenceNumber: 7, origin: .effect, action: .submitted, effects: [],
      stateBefore: Form(), stateAfter: Form(attempts: 1))
    #expect(
      TransitionFormatter(context: 10).format(transition) == """
        #7 effect FormReducer.Action.submitted
            Form(
              username: "",
              password: Secret(),
              isLoading: false,
          −   attempts: 0,
          +   attempts: 1,
              note: "none"
            )
        """)
  }

  @Test func aTimeShowsInTheHeadlineAsMinutesSecondsAndMilliseconds() {
    let transition = Transition<Form, FormReducer.Action, FormReducer.Effect>(
      sequenceNumber: 7, origin: .effect, action: .submitted, effects: [],
      stateBefore: Form(), stateAfter: Form())
    let formatter = TransitionFormatter()
    for (time, text) in [
      (Duration.milliseconds(3_250), "0:03.250"), (.zero, "0:00.000"),
      (.seconds(3_723) + .milliseconds(4), "1:02:03.004"), (.seconds(-5), "0:00.000"),
      (.seconds(59) + .microseconds(999_999), "0:59.999"),
    ] {
      #expect(
        formatter.format(transition, time: time).hasPrefix(
          "#7 \(text) effect FormReducer.Action.submitted\n"))
    }
    #expect(formatter.format(transition).hasPrefix("#7 effect FormReducer"))
  }
}
