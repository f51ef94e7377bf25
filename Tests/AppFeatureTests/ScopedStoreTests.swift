import AppFeature
import LoginFeature
import Observation
import StateStore
import Testing

/// Handles on one child of the app store: they read the child's slice, send the child's
/// actions, and publish only when their own slice changed.
/// Keeps `value` alive to this point.
@inline(never) private func blackHole<T>(_ value: T) { _ = value }

@MainActor struct ScopedStoreTests {
  private func makeApp() -> Store<AppReducer> {
    Store(initialState: AppState(), reducer: AppReducer())
  }

  private func signedIn() -> AppState {
    AppState(
      login: LoginState(username: "demo", attemptID: 1, user: Sample.user),
      home: HomeState(user: Sample.user, isLoadingProfile: true))
  }

  @Test func aHandleReadsItsSliceAndSendsItsActionsEmbedded() {
    let app = makeApp()
    var received: [AppAction] = []
    let subscription = app.observeTransitions { received.append($0.action) }
    let login = app.scope(AppReducer.login)

    login.send(.edit(.set(\.username, to: "demo")))
    #expect(login.state.username == "demo")
    #expect(app.state.login.username == "demo")
    #expect(received == [.login(.edit(.set(\.username, to: "demo")))])
    subscription.cancel()
  }

  /// A "view" of the login feature, written once against the one handle type.
  private func typeUsername(
    _ name: String, into login: some StoreHandle<LoginState, LoginAction>
  ) -> [String] {
    var seen: [String] = []
    let subscription = login.observe { seen.append($0.username.value) }
    for index in name.indices {
      login.send(.edit(.set(\.username, to: PersonalData(String(name[...index])))))
    }
    subscription.cancel()
    return seen + [login.state.username.value]
  }

  @Test func oneLoginViewTakesALoginStoreOrTheAppsLoginSliceUnchanged() {
    let own = Store(initialState: LoginState(), reducer: LoginReducer())
    let app = makeApp()
    let slice = app.scope(AppReducer.login)
    #expect(typeUsername("demo", into: own) == ["d", "de", "dem", "demo", "demo"])
    #expect(typeUsername("demo", into: slice) == ["d", "de", "dem", "demo", "demo"])
    #expect(app.state.login.username == "demo")
  }

  @Test func releasingSomeHandlesInAnyOrderLeavesTheOthersObserving() {
    let app = makeApp()
    var calls = Array(repeating: 0, count: 20)
    var handles: [ScopedStore<LoginState, LoginAction>?] = []
    var subscriptions: [StoreSubscription?] = []
    for index in 0..<20 {
      let handle = app.scope(AppReducer.login)
      subscriptions.append(handle.observe { _ in calls[index] += 1 })
      handles.append(handle)
    }
    // Release every third handle and its subscription, last first, then a few from the front.
    let released = Set([18, 15, 12, 9, 6, 3, 0, 1])
    for index in released.sorted(by: >) {
      subscriptions[index] = nil
      handles[index] = nil
    }
    app.send(.login(.edit(.set(\.username, to: "demo"))))
    for index in 0..<20 {
      #expect(calls[index] == (released.contains(index) ? 0 : 1), "handle \(index)")
    }
    blackHole(subscriptions)
  }

  @Test func observersOfAnotherChildAreNotCalledForALoginKeystroke() {
    let app = Store(initialState: signedIn(), reducer: AppReducer())
    let login = app.scope(AppReducer.login)
    let home = app.scope(AppReducer.home)
    var loginCalls: [String] = []
    var homeCalls = 0
    let subscriptions = [
      login.observe { loginCalls.append($0.username.value) },
      home.observe { _ in homeCalls += 1 },
    ]

    login.send(.edit(.set(\.username, to: "demo2")))
    login.send(.edit(.set(\.username, to: "demo2")))  // the same text: the slice does not change
    login.send(.alertButtonTapped("ok"))  // no change at all
    #expect(loginCalls == ["demo2"])
    #expect(homeCalls == 0)

    home.send(.profileLoaded(Sample.profile))
    #expect(homeCalls == 1)
    #expect(home.state?.profile == Sample.profile)
    #expect(loginCalls == ["demo2"])
    for subscription in subscriptions { subscription.cancel() }
  }

  @Test func observationTracksTheHandlesSliceOnly() {
    let app = Store(initialState: signedIn(), reducer: AppReducer())
    let login = app.scope(AppReducer.login)
    let home = app.scope(AppReducer.home)
    let homeChanged = Guarded(0)
    let loginChanged = Guarded(0)
    withObservationTracking {
      _ = home.state
    } onChange: {
      homeChanged.withLock { $0 += 1 }
    }
    withObservationTracking {
      _ = login.state
    } onChange: {
      loginChanged.withLock { $0 += 1 }
    }

    login.send(.edit(.set(\.username, to: "x")))
    #expect(homeChanged.withLock { $0 } == 0)
    #expect(loginChanged.withLock { $0 } == 1)

    home.send(.profileLoaded(Sample.profile))
    #expect(homeChanged.withLock { $0 } == 1)
  }

  @Test func anOptionalChildsHandleFollowsItsPresence() {
    let app = Store(initialState: signedIn(), reducer: AppReducer())
    let home = app.scope(AppReducer.home)
    var presence: [Bool] = []
    let subscription = home.observe { presence.append($0 != nil) }

    app.send(.login(.logoutButtonTapped))
    #expect(home.state == nil)
    #expect(presence == [false])

    // An action for the absent child is ignored and reported, never a crash.
    let warnings = Guarded<[String]>([])
    RuntimeWarning.$reporter.withValue(
      .init { warning in warnings.withLock { $0.append(warning.message) }
      }
    ) {
      home.send(.reloadButtonTapped)
    }
    #expect(home.state == nil)
    #expect(warnings.withLock { $0.count } == 1)
    subscription.cancel()
  }

  @Test func aHandlesObserverMayReadTheAppStateAndSendMoreActions() {
    let app = makeApp()
    let login = app.scope(AppReducer.login)
    var seen: [String] = []
    let subscription = login.observe { state in
      // Reading the whole app's state and sending from inside a callback are both allowed:
      // the send is queued and reduced right after the current action.
      seen.append("\(state.username)/\(app.state.login.username)")
      if state.username == "a" { login.send(.edit(.set(\.username, to: "ab"))) }
    }
    login.send(.edit(.set(\.username, to: "a")))
    #expect(seen == ["a/a", "ab/ab"])
    #expect(app.state.login.username == "ab")
    subscription.cancel()
  }

  @Test func aHandleOnAGrandchildScopesFurther() {
    let app = makeApp()
    let login = app.scope(AppReducer.login)
    let username = login.scope(
      state: \.username,
      action: { (text: PersonalData) in
        LoginAction.edit(.set(\.username, to: text))
      })
    var seen: [PersonalData] = []
    let subscription = username.observe { seen.append($0) }
    username.send("ada")
    app.send(.login(.edit(.set(\.password, to: "Secr3t"))))
    #expect(username.state == "ada")
    #expect(app.state.login.username == "ada")
    #expect(seen == ["ada"])
    subscription.cancel()
  }

  @Test func aReleasedHandleStopsListeningAndAHandleKeepsItsStoreAlive() {
    weak var weakApp: Store<AppReducer>?
    var login: ScopedStore<LoginState, LoginAction>?
    do {
      let app = makeApp()
      weakApp = app
      login = app.scope(AppReducer.login)
    }
    #expect(weakApp != nil)
    login?.send(.edit(.set(\.username, to: "kept")))
    #expect(login?.state.username == "kept")

    weak var weakHandle: ScopedStore<LoginState, LoginAction>?
    weakHandle = login
    login = nil
    #expect(weakHandle == nil)
    #expect(weakApp == nil)
  }
}
