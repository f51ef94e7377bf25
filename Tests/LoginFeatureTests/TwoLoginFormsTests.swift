import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// Two instances of the login feature side by side in one store: each runs in a namespace of
/// its own, so cancelling one form's request never touches the other's.
struct TwoForms: Reducer {
  struct State: Equatable, Sendable {
    var primary = LoginState()
    var secondary = LoginState()
  }

  enum Action: Equatable, Sendable {
    case primary(LoginAction)
    case secondary(LoginAction)
  }

  enum Effect: StoreEffect, Equatable {
    case primary(LoginEffect)
    case secondary(LoginEffect)

    var cancellation: EffectCancellation {
      switch self {
      case .primary(let effect): TwoForms.primary.cancellation(of: effect)
      case .secondary(let effect): TwoForms.secondary.cancellation(of: effect)
      }
    }
  }

  static let primary = ChildFeature(
    "primary", state: \State.primary,
    action: CaseKey(embed: Action.primary) { if case .primary(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.primary) { if case .primary(let e) = $0 { e } else { nil } })
  static let secondary = ChildFeature(
    "secondary", state: \State.secondary,
    action: CaseKey(embed: Action.secondary) { if case .secondary(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.secondary) { if case .secondary(let e) = $0 { e } else { nil } })

  let body = Scope(TwoForms.primary) { LoginReducer() }
    .combined(with: Scope(TwoForms.secondary) { LoginReducer() })

  func reduce(into state: inout State, action: Action) -> [Effect] {
    body.reduce(into: &state, action: action)
  }
}

@MainActor struct TwoLoginFormsTests {
  /// A non-exhaustive test store of the two forms, each on its own fakes.
  static func store(primary: LoginFakes, secondary: LoginFakes) -> TestStore<TwoForms> {
    let handler = LoginEffectHandler(dependencies: primary.dependencies)
      .lifted(into: TwoForms.primary)
      .combined(
        with: LoginEffectHandler(dependencies: secondary.dependencies)
          .lifted(into: TwoForms.secondary))
    let store = TestStore(initialState: TwoForms.State(), reducer: TwoForms(), handler: handler)
    store.exhaustivity = .off
    return store
  }

  @Test func cancellingOneFormsRequestLeavesTheOtherRunning() async {
    let primary = LoginFakes()
    let secondary = LoginFakes()
    let store = Self.store(primary: primary, secondary: secondary)

    let credentials = Credentials(username: "demo", password: "Secr3t")
    for form in [TwoForms.Action.primary, TwoForms.Action.secondary] {
      await store.send(form(.edit(.set(\.username, to: "demo"))))
      await store.send(form(.edit(.set(\.password, to: "Secr3t"))))
    }
    primary.api.holdNextCall()
    secondary.api.holdNextCall()
    await store.send(.primary(.loginButtonTapped))
    await store.send(.secondary(.loginButtonTapped))
    #expect(await primary.api.waitForHeldCall() == credentials)
    #expect(await secondary.api.waitForHeldCall() == credentials)

    // Both forms use the group "login.authenticate"; only the secondary's is cancelled.
    await store.send(
      .secondary(.cancelButtonTapped), effects: [.secondary(.cancelAuthentication)]
    ) {
      $0.secondary.isLoading = false
    }
    #expect(primary.api.heldCallCount == 1)
    let session = Session(user: User(id: "1", username: "demo"), token: "t0k3n-1")
    primary.api.release(with: .success(session))
    await store.receive(
      .primary(.loginResponse(attempt: 1, .success(session))),
      effects: [.primary(.saveSession(session)), .primary(.route(.push(.home(session.user))))]
    ) {
      $0.primary.isLoading = false
      $0.primary.user = session.user
    }
    await store.finish()
    #expect(store.state.secondary.user == nil)
    #expect(store.state.secondary.isLoading == false)
    #expect(primary.router.commands == [.push(.home(session.user))])
    #expect(secondary.router.commands == [])
  }

  @Test func aLaterRequestsAnswerMayArriveFirst() async {
    // One service for both forms: its calls are answered in the opposite order.
    let api = StubLoginAPI()
    let primary = LoginFakes(api: api)
    let secondary = LoginFakes(api: api)
    let store = Self.store(primary: primary, secondary: secondary)

    let demo = Credentials(username: "demo", password: "Secr3t")
    let ada = Credentials(username: "ada", password: "Engine1843")
    await store.send(.primary(.edit(.set(\.username, to: demo.username))))
    await store.send(.primary(.edit(.set(\.password, to: demo.password))))
    await store.send(.secondary(.edit(.set(\.username, to: ada.username))))
    await store.send(.secondary(.edit(.set(\.password, to: ada.password))))
    api.holdNextCall()
    api.holdNextCall()
    await store.send(.primary(.loginButtonTapped))
    await store.send(.secondary(.loginButtonTapped))
    await api.waitForHeldCall(where: { $0 == ada })
    #expect(api.heldRequests == [demo, ada])

    let adaSession = Session(user: User(id: "2", username: "ada"), token: "t0k3n-2")
    api.release(with: .success(adaSession), where: { $0 == ada })
    await store.receive(.secondary(.loginResponse(attempt: 1, .success(adaSession)))) {
      $0.secondary.isLoading = false
      $0.secondary.user = adaSession.user
    }
    #expect(store.state.primary.isLoading == true)

    api.release(with: .failure(.invalidCredentials))
    await store.receive(.primary(.loginResponse(attempt: 1, .failure(.invalidCredentials)))) {
      $0.primary.isLoading = false
      $0.primary.failedAttempts = 1
    }
    await store.finish()
    #expect(store.state.primary.user == nil)
    #expect(primary.router.commands == [])
    #expect(secondary.router.commands == [.push(.home(adaSession.user))])
    #expect(primary.alertPresenter.alerts.map(\.title) == ["Couldn't sign in"])
  }
}
