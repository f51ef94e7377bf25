import Foundation
import LoginFeature
import LoginFeatureTesting
import LoginFileStores
import StateStore
import StateStoreTesting
import Testing
import ToolTestSupport

/// What survives a relaunch, through an exhaustive `TestStore` on the fakes: the launch action,
/// the restore effect, the answer with the stores' content and the wall-clock time, and what
/// the form shows after it.
@MainActor struct RelaunchTests {
  private let start = LoginFakes.defaultWallClockStart
  private func session(expiringIn seconds: TimeInterval) -> Session {
    Session(user: Fixtures.demo, token: "demo-token-1", expiresAt: start + seconds)
  }

  /// Sends `.launched` and receives the restore of `record`.
  private func launch(
    _ store: TestStore<LoginReducer>, finding record: LaunchRecord,
    effects: [LoginEffect], assert update: @escaping (inout LoginState) -> Void
  ) async {
    await store.send(.launched, effects: [.restoreLaunch]) { $0.isRestoring = true }
    await store.receive(.restored(record, at: start), effects: effects) {
      $0.isRestoring = false
      update(&$0)
    }
  }

  @Test func aValidSessionGoesStraightHomeWithoutAnimation() async {
    let saved = session(expiringIn: 3_600)
    let fakes = LoginFakes(api: StubLoginAPI(), sessionStore: InMemorySessionStore(session: saved))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await launch(
      store, finding: LaunchRecord(session: saved),
      effects: [.route(.restore(.home(Fixtures.demo)))]
    ) { $0.user = Fixtures.demo }
    await store.finish()
    #expect(fakes.router.commands == [.restore(.home(Fixtures.demo))])
    #expect(await fakes.sessionStore.load() == saved)
  }

  /// One rule for the username after a logout: the form keeps the username of the account that
  /// signed out, after a restored session as after a sign-in in the same launch (see
  /// `LoginStoryTests`), where it used to come back empty.
  @Test func aLogoutFromARestoredSessionKeepsItsUsername() async {
    let saved = session(expiringIn: 3_600)
    let fakes = LoginFakes(api: StubLoginAPI(), sessionStore: InMemorySessionStore(session: saved))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await launch(
      store, finding: LaunchRecord(session: saved),
      effects: [.route(.restore(.home(Fixtures.demo)))]
    ) { $0.user = Fixtures.demo }
    await store.send(.logoutButtonTapped, effects: [.clearSession, .route(.popToRoot)]) {
      $0.user = nil
      $0.username = "demo"
    }
    #expect(store.state.visibleValidationMessages == [])
    await store.finish()
    #expect(fakes.router.commands == [.restore(.home(Fixtures.demo)), .popToRoot])
    #expect(await fakes.sessionStore.load() == nil)
  }

  @Test func whileRestoringTheFormCannotBeUsed() async {
    var state = LoginState(username: "demo", password: "Secr3t")
    _ = LoginReducer().reduce(into: &state, action: .launched)
    #expect(state.isRestoring)
    #expect(state.isLoginButtonEnabled == false)
    #expect(LoginReducer().reduce(into: &state, action: .loginButtonTapped) == [])
    #expect(LoginReducer().reduce(into: &state, action: .launched) == [])
  }

  @Test func anExpiredSessionShowsTheFormWithTheUsernameAndANotice() async {
    let saved = session(expiringIn: -1)
    let fakes = LoginFakes(api: StubLoginAPI(), sessionStore: InMemorySessionStore(session: saved))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await launch(store, finding: LaunchRecord(session: saved), effects: [.clearSession]) {
      $0.username = "demo"
      $0.notice = "Your session has expired. Please sign in again."
    }
    await store.finish()
    #expect(await fakes.sessionStore.load() == nil)
    #expect(fakes.router.commands == [])
  }

  @Test func anUnreadableStoreShowsTheFormAndTheErrorArrivesAsAnAction() async {
    let fakes = LoginFakes(api: StubLoginAPI())
    var dependencies = fakes.dependencies
    dependencies.sessionStore = FailingStore(
      reason: "session.json: not valid JSON", failsReads: true)
    let store = TestStore(
      initialState: LoginState(), reducer: LoginReducer(),
      handler: LoginEffectHandler(dependencies: dependencies))
    // The file may not be the app's: it is named in the notice and left as it is.
    await launch(
      store, finding: LaunchRecord(sessionProblem: "session.json: not valid JSON"),
      effects: []
    ) {
      $0.notice =
        "The saved session could not be read (session.json: not valid JSON) and was left as it"
        + " is. Please sign in."
    }
    await store.finish()
    #expect(store.state.user == nil)
  }

  @Test func aLockoutHoldsAcrossALaunchForTheTimeThatRemains() async {
    let record = LockoutRecord(failedAttempts: 5, lockedUntil: start + 20)
    let fakes = LoginFakes(api: StubLoginAPI(), lockoutStore: InMemoryLockoutStore(record: record))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await launch(
      store, finding: LaunchRecord(lockout: record), effects: [.startLockoutTimer(.seconds(20))]
    ) {
      $0.isLocked = true
      $0.failedAttempts = 5
      $0.lockedFor = .seconds(20)
    }
    #expect(await fakes.clock.waitForSleepers(1))
    await fakes.clock.advance(by: .seconds(19))
    #expect(store.state.isLocked)
    await fakes.clock.advance(by: .seconds(1))
    await store.receive(.lockoutEnded, effects: [.updateLockout(.reset)]) {
      $0.isLocked = false
      $0.failedAttempts = 0
      $0.lockedFor = nil
    }
    await store.finish()
    #expect(await fakes.lockoutStore.load() == nil)
  }

  @Test func aLaunchAfterTheDeadlineShowsTheFormUnlocked() async {
    let record = LockoutRecord(failedAttempts: 5, lockedUntil: start - 1)
    let fakes = LoginFakes(api: StubLoginAPI(), lockoutStore: InMemoryLockoutStore(record: record))
    let store = TestStore(login: LoginState(), fakes: fakes)
    await launch(
      store, finding: LaunchRecord(lockout: record),
      effects: [.updateLockout(.reset)]
    ) { _ in }
    await store.finish()
    #expect(await fakes.lockoutStore.load() == nil)
  }

  @Test func aClockSetBackLocksForAtMostOneLockout() {
    var state = LoginState(isRestoring: true)
    // The deadline is a year away: the device's clock was moved back after the lock.
    let record = LaunchRecord(
      lockout: LockoutRecord(failedAttempts: 5, lockedUntil: start + 365 * 86_400))
    let effects = LoginReducer().reduce(into: &state, action: .restored(record, at: start))
    #expect(effects == [.startLockoutTimer(.seconds(30))])
    #expect(state.lockedFor == .seconds(30))
  }

  @Test func failedAttemptsBelowTheLimitCarryOver() async {
    let record = LockoutRecord(failedAttempts: 3)
    var state = LoginState(isRestoring: true)
    let effects = LoginReducer().reduce(
      into: &state, action: .restored(LaunchRecord(lockout: record), at: start))
    #expect(effects == [])
    #expect(state.failedAttempts == 3)
    #expect(state.isLocked == false)
    // A hostile record cannot lock without a deadline, nor go negative.
    for attempts in [99, -4] {
      var hostile = LoginState(isRestoring: true)
      _ = LoginReducer().reduce(
        into: &hostile,
        action: .restored(LaunchRecord(lockout: LockoutRecord(failedAttempts: attempts)), at: start)
      )
      #expect((0...4).contains(hostile.failedAttempts))
      #expect(hostile.isLocked == false)
    }
  }

  @Test func theFifthFailureSavesTheDeadlineOnTheWallClockForTheNextLaunch() async {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
    let store = TestStore(
      login: LoginState(username: "demo", password: "Wr0ng", failedAttempts: 4), fakes: fakes)
    store.exhaustivity = .off
    await fakes.clock.advance(by: .seconds(7))
    await store.send(.loginButtonTapped)
    await store.receive(.loginResponse(attempt: 1, .failure(.invalidCredentials)))
    await store.receive(.alertButtonTapped("ok"))
    await store.finish(timeout: .seconds(1))
    #expect(
      await fakes.lockoutStore.load()
        == LockoutRecord(failedAttempts: 5, lockedUntil: start + 37))
    store.skipInFlightEffects()
  }
}
