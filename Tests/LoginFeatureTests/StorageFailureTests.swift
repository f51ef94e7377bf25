import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import StateStoreTesting
import Testing

/// A failed effect is an action: every save and clear the stores refuse comes back to the
/// reducer as `storageFailed`, through the real effect handler, and the person is told what it
/// means — while what is in memory (signed in or out, a lockout) stays as it is.
@MainActor struct StorageFailureTests {
  private let readOnly = "session.json: Read-only file system"

  private func store(
    _ state: LoginState, fakes: LoginFakes, sessions: (any SessionStore)? = nil,
    lockout: (any LockoutStore)? = nil
  ) -> TestStore<LoginReducer> {
    var dependencies = fakes.dependencies
    if let sessions { dependencies.sessionStore = sessions }
    if let lockout { dependencies.lockoutStore = lockout }
    return TestStore(
      initialState: state, reducer: LoginReducer(),
      handler: LoginEffectHandler(dependencies: dependencies))
  }

  @Test func aLogoutWhoseClearFailsSignsOutAndSaysTheSessionStaysOnTheDevice() async {
    let fakes = LoginFakes(api: StubLoginAPI())
    let failing = FailingStore(reason: readOnly, session: Fixtures.session)
    let store = store(
      LoginState(username: "demo", attemptID: 1, user: Fixtures.demo), fakes: fakes,
      sessions: failing)
    await store.send(.logoutButtonTapped, effects: [.clearSession, .route(.popToRoot)]) {
      $0.user = nil
    }
    let message = LoginReducer.sessionNotClearedMessage(readOnly)
    #expect(
      message
        == "You are signed out, but this device could not forget your saved session"
        + " (session.json: Read-only file system). The next launch may sign you in again.")
    let alert = Alert(title: "Not Saved on This Device", message: message)
    await store.receive(
      .storageFailed(StorageFailure(.clearSession, reason: readOnly)), effects: [.showAlert(alert)]
    ) {
      $0.notice = message
    }
    await store.receive(.alertButtonTapped("ok"))
    await store.finish()
    #expect(store.state.user == nil)
    #expect(fakes.alertPresenter.history == [.init(alert: alert, outcome: .tapped(.ok))])
    #expect(await failing.attemptedWrites == 1)
  }

  @Test func aSessionThatCannotBeSavedSignsInAndSaysARelaunchWillAskAgain() async {
    let fakes = LoginFakes(results: [.success(Fixtures.session)])
    let reason = "session.json: No space left on device"
    let store = store(
      LoginState(username: "demo", password: "Secr3t"), fakes: fakes,
      sessions: FailingStore(reason: reason))
    await store.send(.loginButtonTapped, effects: [.authenticate(Fixtures.credentials, attempt: 1)])
    {
      $0.isLoading = true
      $0.wasSubmitTried = true
      $0.attemptID = 1
    }
    await store.receive(
      .loginResponse(attempt: 1, .success(Fixtures.session)),
      effects: [.saveSession(Fixtures.session), .route(.push(.home(Fixtures.demo)))]
    ) {
      $0.isLoading = false
      $0.user = Fixtures.demo
    }
    let message = LoginReducer.sessionNotSavedMessage(reason)
    #expect(message.hasPrefix("You are signed in, but this device could not keep your session"))
    await store.receive(
      .storageFailed(StorageFailure(.saveSession, reason: reason)),
      effects: [.showAlert(Alert(title: LoginReducer.storageAlertTitle, message: message))]
    ) {
      $0.notice = message
    }
    await store.receive(.alertButtonTapped("ok"))
    await store.finish()
    #expect(store.state.user == Fixtures.demo)
    #expect(fakes.router.commands == [.push(.home(Fixtures.demo))])
  }

  @Test func aLockoutThatCannotBeSavedStillLocksAndShowsWhy() async {
    let fakes = LoginFakes(results: [.failure(.invalidCredentials)])
    let reason = "lockout.json: No space left on device"
    let store = store(
      LoginState(username: "demo", password: "Wr0ng", failedAttempts: 4), fakes: fakes,
      lockout: FailingStore(reason: reason))
    store.exhaustivity = .off
    await store.send(.loginButtonTapped)
    await store.receive(.loginResponse(attempt: 1, .failure(.invalidCredentials)))
    await store.receive(.storageFailed(StorageFailure(.updateLockout, reason: reason))) {
      $0.notice =
        "This device could not keep the failed sign-in attempts"
        + " (lockout.json: No space left on device). They count until the app quits."
    }
    // In memory the lockout holds, whatever the disk said.
    #expect(store.state.isLocked)
    #expect(store.state.failedAttempts == 5)
    #expect(store.state.lockedFor == .seconds(30))
    store.skipInFlightEffects()
  }

  @Test func aSaveThatFailsAfterALogoutSaysNothing() {
    var state = LoginState(username: "demo")
    let effects = LoginReducer().reduce(
      into: &state, action: .storageFailed(StorageFailure(.saveSession, reason: readOnly)))
    #expect(effects == [])
    #expect(state == LoginState(username: "demo"))
  }

  @Test func anErrorThatIsNotAStorageErrorIsDescribedByItsTypeAlone() {
    struct KeychainFailure: Error, CustomStringConvertible {
      var description: String { "token=abc123" }
    }
    #expect(StorageFailure(.saveSession, error: KeychainFailure()).reason == "KeychainFailure")
    #expect(
      StorageFailure(.saveSession, error: FailingStore.Failure(description: readOnly)).reason
        == readOnly)
  }
}

/// The lockout's read-modify-write: what several processes sharing one record add up to.
struct LockoutChangeTests {
  private let now = Date(timeIntervalSince1970: 1_767_225_600)
  private func failure(_ counted: Int) -> LockoutChange {
    .failedAttempt(counted: counted, lockingAt: 5, lockFor: .seconds(30))
  }

  @Test func everyFailureOfEveryProcessCountsAndTheFifthLocks() {
    var record: LockoutRecord?
    // Three processes, each at its first and second failure, interleaved.
    for counted in [1, 1, 1, 2, 2] {
      record = failure(counted).applied(to: record, at: now, seen: nil)
    }
    #expect(record == LockoutRecord(failedAttempts: 5, lockedUntil: now + 30))
    record = failure(2).applied(to: record, at: now + 10, seen: nil)
    #expect(record == LockoutRecord(failedAttempts: 6, lockedUntil: now + 40))
  }

  @Test func theKeptCountIsNeverBelowTheOneInMemory() {
    // A store that lost its file (or was never written) still locks with the process.
    #expect(
      failure(5).applied(to: nil, at: now, seen: nil)
        == LockoutRecord(failedAttempts: 5, lockedUntil: now + 30))
    #expect(failure(3).applied(to: nil, at: now, seen: nil) == LockoutRecord(failedAttempts: 3))
  }

  @Test func aLockoutThatEndedCountsFromZero() {
    let ended = LockoutRecord(failedAttempts: 7, lockedUntil: now - 1)
    #expect(failure(1).applied(to: ended, at: now, seen: nil) == LockoutRecord(failedAttempts: 1))
    let later = LockoutRecord(failedAttempts: 5, lockedUntil: now + 600)
    #expect(
      failure(5).applied(to: later, at: now, seen: nil)
        == LockoutRecord(failedAttempts: 6, lockedUntil: now + 600))
    // A reset forgets the record this process saw, and not one it never saw.
    #expect(LockoutChange.reset.applied(to: later, at: now, seen: later) == nil)
    #expect(LockoutChange.reset.applied(to: later, at: now, seen: nil) == later)
    #expect(
      failure(1).applied(to: LockoutRecord(failedAttempts: .max), at: now, seen: nil)?
        .failedAttempts == .max)
  }
  /// Process A locked the record until 00:00:33; process B, on the same folder, failed five more
  /// times (ten attempts, until 00:00:53). A's lockout ends at 00:00:33: its reset must leave
  /// B's lockout, which A never saw; at 00:00:53 B's own reset forgets it.
  @Test func theEndOfOneProcesssLockoutLeavesAnothersLater() {
    let seenByA = LockoutRecord(failedAttempts: 5, lockedUntil: now + 33)
    let keptByB = LockoutRecord(failedAttempts: 10, lockedUntil: now + 53)
    #expect(LockoutChange.reset.applied(to: keptByB, at: now + 33, seen: seenByA) == keptByB)
    #expect(LockoutChange.reset.applied(to: keptByB, at: now + 53, seen: keptByB) == nil)
    // A lockout that has ended is forgotten by whoever resets, seen or not.
    #expect(LockoutChange.reset.applied(to: keptByB, at: now + 60, seen: seenByA) == nil)
  }

  /// A success forgets the failures this process saw, but not those another process counted
  /// since; a store that keeps whole seconds still reads back as the record kept.
  @Test func aSuccessForgetsOnlyTheFailuresItSaw() {
    let seen = LockoutRecord(failedAttempts: 2)
    #expect(LockoutChange.reset.applied(to: seen, at: now, seen: seen) == nil)
    let more = LockoutRecord(failedAttempts: 3)
    #expect(LockoutChange.reset.applied(to: more, at: now, seen: seen) == more)
    #expect(LockoutChange.reset.applied(to: nil, at: now, seen: seen) == nil)
    let kept = LockoutRecord(failedAttempts: 5, lockedUntil: now + 30.75)
    let readBack = LockoutRecord(failedAttempts: 5, lockedUntil: now + 30)
    #expect(LockoutChange.reset.applied(to: readBack, at: now + 1, seen: kept) == nil)
  }
}
