import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

/// Login stores on `HTTPLoginAPI` against the fixture server: from typing to the home route.
@MainActor struct HTTPLoginEndToEndTests {
  static let demoUser = User(
    id: "1", username: "demo", displayName: "Demo User", email: "demo@example.com")

  @Test func typingAndTappingLoginLeadsToTheHomeRoute() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let harness = LoginHarness(
      api: HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout))
    let store = harness.store
    var actions: [LoginAction] = []
    let subscription = store.observeTransitions { actions.append($0.action) }
    defer { subscription.cancel() }

    store.send(.edit(.set(\.username, to: "demo")))
    #expect(store.state.isLoginButtonEnabled == false)
    store.send(.edit(.set(\.password, to: "Secr3t")))
    #expect(store.state.isLoginButtonEnabled == true)
    let login = store.send(.loginButtonTapped)
    #expect(store.state.isLoading == true)
    #expect(await login.finish(within: .seconds(60)), "effects still running after a minute")

    let session = Session(user: Self.demoUser, token: "fixture-token-demo")
    #expect(
      actions == [
        .edit(.set(\.username, to: "demo")), .edit(.set(\.password, to: "Secr3t")),
        .loginButtonTapped,
        .loginResponse(attempt: 1, .success(session)),
      ])
    var signedIn = LoginState(
      username: "demo", password: "Secr3t", attemptID: 1, user: Self.demoUser)
    signedIn.isUsernameEdited = true
    signedIn.isPasswordEdited = true
    signedIn.wasSubmitTried = true
    #expect(store.state == signedIn)
    #expect(harness.router.commands == [.push(.home(Self.demoUser))])
    #expect(harness.alerts.alerts == [])
    #expect(await harness.sessions.load() == session)
  }

  @Test func cancellingMidRequestShowsNoAlertAndStopsTheSpinner() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let harness = LoginHarness(
      api: HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout),
      state: LoginState(username: "silent", password: "Secr3t"))

    let login = harness.store.send(.loginButtonTapped)
    #expect(await server.waitForRequest(from: "silent"))
    #expect(harness.store.state.isLoading == true)
    let cancel = harness.store.send(.cancelButtonTapped)
    #expect(harness.store.state.isLoading == false)
    #expect(await login.finish(within: .seconds(60)), "effects still running after a minute")
    #expect(await cancel.finish(within: .seconds(60)), "effects still running after a minute")

    var cancelled = LoginState(username: "silent", password: "Secr3t", attemptID: 1)
    cancelled.wasSubmitTried = true
    #expect(harness.store.state == cancelled)
    #expect(harness.alerts.alerts == [])
    #expect(harness.router.commands == [])
    #expect(harness.store.runningEffectCount == 0)
  }

  @Test func concurrentLoginsFromSeveralStoresGetTheirOwnAnswers() async throws {
    let server = try await FixtureServer.start()
    defer { server.stop() }
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout)
    let demo = LoginHarness(api: api, state: LoginState(username: "demo", password: "Secr3t"))
    let wrong = LoginHarness(api: api, state: LoginState(username: "demo", password: "Wr0ng"))
    let broken = LoginHarness(
      api: api, state: LoginState(username: "status500", password: "Secr3t"))
    let ada = LoginHarness(
      api: HTTPLoginAPI(baseURL: server.baseURL, timeout: FixtureServer.patientTimeout),
      state: LoginState(rules: .email, username: "ada@example.com", password: "Engine1843"))
    let harnesses = [demo, wrong, broken, ada]

    let logins = harnesses.map { $0.store.send(.loginButtonTapped) }
    #expect(harnesses.allSatisfy { $0.store.state.isLoading })
    for login in logins { await login.finish() }

    let adaUser = User(
      id: "ada@example.com", username: "ada@example.com", displayName: "Ada Lovelace")
    #expect(demo.router.commands == [.push(.home(Self.demoUser))])
    #expect(ada.router.commands == [.push(.home(adaUser))])
    #expect(
      wrong.alerts.alerts == [
        Alert(title: "Couldn't sign in", message: "Incorrect username or password")
      ])
    #expect(wrong.store.state.failedAttempts == 1)
    #expect(
      broken.alerts.alerts == [
        Alert(
          title: "Couldn't sign in",
          message: "The server could not handle the request. Please try again later.")
      ])
    #expect(demo.alerts.alerts == [] && ada.alerts.alerts == [])
    #expect(wrong.router.commands == [] && broken.router.commands == [])
    #expect(harnesses.allSatisfy { !$0.store.state.isLoading })
  }
}
