import LoginDemoBackend
import LoginFeature
import StateStore
import StateStoreTesting
import Testing

// The README's two code examples, compiled and run so they never rot. Keep them in step with
// README.md (the README shows them without these comments).

// MARK: - Embedding (README: "A host in 20 lines")

@MainActor final class ConsoleRouter: Router {
  var log: [String] = []
  func perform(_ command: RouteCommand) {
    log.append("route: \(command)")
    if let waiter, log.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  // Not in the README, whose router prints: lets the test wait for a route.
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  /// The log once it holds `count` routes.
  func log(count: Int) async -> [String] {
    if log.count < count {
      await withCheckedContinuation { waiter = (count, $0) }
    }
    return log
  }
}

@MainActor final class ConsoleAlerts: AlertPresenter {
  func present(_ alert: Alert) async -> AlertButton? { alert.buttons.first }
}

// Returns the store as well, so that the test can keep it alive while its effects run on.
@MainActor func signInDemo(router: ConsoleRouter) async -> (String, Store<LoginReducer>) {
  let store = Store(
    login: LoginState(),
    dependencies: LoginDependencies(
      api: DemoLoginAPI(latency: .milliseconds(50)), router: router,
      alertPresenter: ConsoleAlerts(), sessionStore: InMemorySessionStore()))
  var spinner: [Bool] = []
  let subscription = store.observe { spinner.append($0.isLoading) }
  store.send(.edit(.set(\.username, to: "demo")))
  store.send(.edit(.set(\.password, to: "Secr3t")))
  store.send(.loginButtonTapped)
  await store.state(where: { !$0.isLoading })
  subscription.cancel()
  return ("Hello \(store.state.user?.displayName ?? "nobody"), spinner: \(spinner)", store)
}

// MARK: - Testing (README: "A test in 20 lines")

@MainActor @Test func wrongPasswordShowsAnError() async {
  let store = TestStore(initialState: LoginState(), reducer: LoginReducer())
  await store.send(.edit(.set(\.username, to: "demo"))) { $0.username = "demo" }
  await store.send(.edit(.set(\.password, to: "Wr0ng"))) { $0.password = "Wr0ng" }
  let credentials = Credentials(username: "demo", password: "Wr0ng")
  await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
    $0.isLoading = true
    $0.attemptID = 1
  }
  let alert = Alert(title: "Error", message: "Incorrect username or password")
  let failure = LockoutChange.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))
  await store.send(
    .loginResponse(attempt: 1, .failure(.invalidCredentials)),
    effects: [.showAlert(alert), .updateLockout(failure)]
  ) {
    $0.isLoading = false
    $0.failedAttempts = 1
  }
}

@MainActor @Test(.timeLimit(.minutes(1))) func theEmbeddingExampleSignsIn() async {
  let router = ConsoleRouter()
  let (greeting, store) = await signInDemo(router: router)
  // The answer is in: the user is signed in and the spinner is gone.
  #expect(greeting == "Hello Demo User, spinner: [false, false, true, false]")
  // The route is an effect of that answer: it runs on while the store lives, and may still be
  // on its way when `state(where:)` returns. Wait for it with the store kept alive.
  let demo = User(id: "1", username: "demo", displayName: "Demo User")
  let routes = await router.log(count: 1)
  #expect(routes == ["route: \(RouteCommand.push(.home(demo)))"])
  withExtendedLifetime(store) {}
}
