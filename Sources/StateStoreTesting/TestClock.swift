import StateStore

/// A clock whose time moves only when a test says so: ``StateStore/ManualClock`` under its
/// testing name.
///
/// It is the same type the app-side ``StateStore/ManualClock`` is, so a fake that takes a
/// manual clock takes a test clock too. What a ``TestStore`` adds: its effects run under a
/// monitor, and when `advance` wakes one of them it returns only once that effect has run up to
/// its next suspension, so an action it sends is ready to ``TestStore/receive(_:timeout:assert:fileID:filePath:line:column:)``.
///
/// Inject it where the feature would use a `ContinuousClock`, then drive time from the test:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: .init(), reducer: Lockout(), handler: Handler(clock: clock))
/// await store.send(.locked)
/// await clock.advance(by: .seconds(30))
/// await store.receive(.cooldownEnded) { $0.isLocked = false }
/// ```
///
/// The guarantees (deadline order, woken tasks resumed before `advance` returns, cancellation)
/// are ``StateStore/ManualClock``'s.
public typealias TestClock = ManualClock
