import StateStore

/// Calls to a fake that wait until the test answers them, in any order.
///
/// A fake holds a call to let a test look at the screen while the call is in flight (the
/// spinner, a second request racing the first), then answers it. Every fake of this package
/// that holds calls keeps them here, and so can a fake of your own:
///
/// ```swift
/// final class HeldProfileAPI: ProfileAPI {
///   let held = HeldCalls<String, Profile>()   // the user's id, and the profile it answers
///   func profile(for id: String) async throws -> Profile {
///     guard let profile = await held.hold(id) else { throw CancellationError() }
///     return profile
///   }
/// }
///
/// let first = Task { try await api.profile(for: "1") }
/// let second = Task { try await api.profile(for: "2") }
/// await api.held.waitForCall { $0 == "2" }
/// await api.held.waitForCall { $0 == "1" }
/// api.held.release(ada, where: { $0 == "2" })   // the later call answers first
/// api.held.release(grace)
/// ```
///
/// Waiting is woken by the calls themselves, never by polling; the timeout (real time) only
/// bounds a wait for a call that never comes. Conditions run while the calls are locked: keep
/// them to reading the request.
public final class HeldCalls<Request: Sendable, Answer: Sendable>: Sendable {
  private struct Call {
    let id: Int
    let request: Request
    let continuation: CheckedContinuation<Answer?, Never>
  }

  private struct Waiter {
    let id: Int
    let matches: @Sendable (Request) -> Bool
    let wait: BoundedWait<Request?>
  }

  private struct State {
    var calls: [Call] = []
    var waiters: [Waiter] = []
    var nextID = 0

    mutating func makeID() -> Int {
      nextID += 1
      return nextID
    }
  }

  private let state = Guarded(State())

  /// Creates an empty set of held calls.
  public init() {}

  /// The requests of the calls held right now, oldest first.
  public var requests: [Request] { state.withLock { $0.calls.map(\.request) } }

  /// How many calls are held right now.
  public var count: Int { state.withLock { $0.calls.count } }

  /// Holds a call with `request` until ``release(_:where:)`` answers it.
  ///
  /// The fake calls this from the method it fakes and returns (or throws) the answer.
  ///
  /// - Parameters:
  ///   - request: What the call asked for; tests wait for it and pick it by it.
  ///   - honoringCancellation: When `true` (the default), cancelling the calling task ends the
  ///     call at once with `nil`, as a real client gives up. When `false` the call waits for
  ///     its answer even after cancellation — the way to simulate an answer that arrives after
  ///     the user cancelled.
  /// - Returns: The answer, or `nil` when the call ended because its task was cancelled.
  public func hold(_ request: Request, honoringCancellation: Bool = true) async -> Answer? {
    let id = state.withLock { $0.makeID() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Answer?, Never>) in
        let woken = state.withLock { state -> [Waiter]? in
          // The cancellation handler may have run before the call was registered.
          if honoringCancellation, Task.isCancelled { return nil }
          state.calls.append(Call(id: id, request: request, continuation: continuation))
          var woken: [Waiter] = []
          state.waiters.removeAll { waiter in
            guard waiter.matches(request) else { return false }
            woken.append(waiter)
            return true
          }
          return woken
        }
        guard let woken else {
          continuation.resume(returning: nil)
          return
        }
        for waiter in woken { waiter.wait.end(request) }
      }
    } onCancel: {
      guard honoringCancellation else { return }
      take { $0.id == id }?.continuation.resume(returning: nil)
    }
  }

  /// Waits until a call whose request meets `condition` is held, and returns that request.
  ///
  /// Returns at once when such a call is held already (the oldest of them).
  ///
  /// - Parameters:
  ///   - timeout: How long to wait at most, in real time; a minute by default (it
  ///     only bounds how long a failing test waits: a passing one returns as soon as the call
  ///     is held, and on a machine busy with other tests a task took more than ten seconds to
  ///     make its call).
  ///   - condition: Which call to wait for; any call by default.
  /// - Returns: The held call's request, or `nil` when the wait timed out.
  @discardableResult
  public func waitForCall(
    timeout: Duration = .seconds(60),
    where condition: @escaping @Sendable (Request) -> Bool = { _ in true }
  ) async -> Request? {
    let id = state.withLock { $0.makeID() }
    return await BoundedWait.first(
      timeout: timeout, timedOut: nil,
      onTimeout: { [state] in state.withLock { $0.waiters.removeAll { $0.id == id } } },
      start: { wait in
        let held = state.withLock { state -> Request? in
          if let call = state.calls.first(where: { condition($0.request) }) {
            return call.request
          }
          state.waiters.append(Waiter(id: id, matches: condition, wait: wait))
          return nil
        }
        if let held { wait.end(held) }
      })
  }

  /// Answers the oldest held call whose request meets `condition` with `answer`.
  ///
  /// - Parameters:
  ///   - answer: What the call returns.
  ///   - condition: Which call to answer; the oldest by default.
  /// - Returns: The answered call's request, or `nil` when no held call meets `condition`.
  @discardableResult
  public func release(
    _ answer: Answer,
    where condition: (Request) -> Bool = { _ in true }
  ) -> Request? {
    release(where: condition) { _ in answer }
  }

  /// Answers the oldest held call whose request meets `condition` with the answer `answer`
  /// makes for it.
  ///
  /// `answer` runs after the call has been taken out, outside the lock, so it may report a
  /// test failure.
  ///
  /// - Parameters:
  ///   - condition: Which call to answer.
  ///   - answer: Makes the answer from the call's request.
  /// - Returns: The answered call's request, or `nil` when no held call meets `condition`.
  @discardableResult
  public func release(
    where condition: (Request) -> Bool,
    with answer: (Request) -> Answer
  ) -> Request? {
    guard let call = take(where: { condition($0.request) }) else { return nil }
    call.continuation.resume(returning: answer(call.request))
    return call.request
  }

  private func take(where matches: (Call) -> Bool) -> Call? {
    state.withLock { state -> Call? in
      guard let index = state.calls.firstIndex(where: matches) else { return nil }
      return state.calls.remove(at: index)
    }
  }
}
