import Foundation
import LoginFeature
import LoginFeatureTesting
import LoginFileStores
import StateStore
import Testing
import ToolTestSupport

/// Two app processes on one state folder, each with its own effect handler and the file store:
/// the end of one's lockout, or its success, never erases a lockout the other kept.
@MainActor struct LockoutAcrossProcessesTests {
  private let start = Date(timeIntervalSince1970: 1_767_225_600)

  /// One process: a handler on the shared file, at a wall-clock time the test moves.
  @MainActor private final class Process {
    let handler: LoginEffectHandler
    let sent = SentActions()
    private let time: Guarded<Date>

    init(file: URL, at start: Date) {
      let time = Guarded(start)
      let fakes = LoginFakes()
      self.time = time
      handler = LoginEffectHandler(
        dependencies: LoginDependencies(
          api: fakes.api, router: fakes.router, alertPresenter: fakes.alertPresenter,
          sessionStore: fakes.sessionStore, clock: fakes.clock,
          lockoutStore: FileLockoutStore(url: file), now: { time.withLock { $0 } }))
    }

    func at(_ date: Date) -> Process {
      time.withLock { $0 = date }
      return self
    }

    func launch() async { await handler.handle(.restoreLaunch, send: sent.send) }

    func failFiveTimes() async {
      for counted in 1...5 {
        await handler.handle(
          .updateLockout(.failedAttempt(counted: counted, lockingAt: 5, lockFor: .seconds(30))),
          send: sent.send)
      }
    }

    func reset() async { await handler.handle(.updateLockout(.reset), send: sent.send) }
  }

  @Test func theEndOfOneLockoutLeavesTheLockoutAnotherProcessKept() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("lockout.json")
    let store = FileLockoutStore(url: file)
    let a = Process(file: file, at: start)
    await a.launch()
    await a.failFiveTimes()
    #expect(try await store.load() == LockoutRecord(failedAttempts: 5, lockedUntil: start + 30))

    // B launches 20 s later, sees A's lockout, and fails five more times.
    let b = Process(file: file, at: start + 20)
    await b.launch()
    await b.failFiveTimes()
    let bs = LockoutRecord(failedAttempts: 10, lockedUntil: start + 50)
    #expect(try await store.load() == bs)

    // A's lockout ends at 00:00:30 and A resets: B's lockout stays, and a launch at 00:00:45
    // is still locked.
    await a.at(start + 30).reset()
    #expect(try await store.load() == bs)
    let c = Process(file: file, at: start + 45)
    await c.launch()
    guard case .restored(let record, _) = try #require(c.sent.actions.first) else {
      Issue.record("the launch sent \(c.sent.actions)")
      return
    }
    #expect(record.lockout == bs)

    // B's own lockout ends: its reset forgets the record it kept.
    await b.at(start + 50).reset()
    #expect(try await store.load() == nil)
    // Each sent its launch's restore, and nothing else: no storage failure.
    #expect(a.sent.actions.count == 1 && b.sent.actions.count == 1, "\(a.sent.actions)")
  }

  @Test func aSuccessForgetsTheFailuresItSawButNotThoseCountedSince() async throws {
    let folder = try TemporaryFolder()
    let file = folder.file("lockout.json")
    let store = FileLockoutStore(url: file)
    let a = Process(file: file, at: start)
    let b = Process(file: file, at: start)
    await a.handler.handle(
      .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
      send: a.sent.send)
    await a.reset()
    #expect(try await store.load() == nil, "a success forgets what its process counted")

    await a.handler.handle(
      .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
      send: a.sent.send)
    await b.handler.handle(
      .updateLockout(.failedAttempt(counted: 1, lockingAt: 5, lockFor: .seconds(30))),
      send: b.sent.send)
    await a.reset()
    #expect(try await store.load() == LockoutRecord(failedAttempts: 2), "B's failure stays")
    #expect(a.sent.actions.isEmpty && b.sent.actions.isEmpty, "no storage failure")
  }
}
