import StateStore

/// A clock that only moves when script mode says so (`wait`, `advance 30s`).
///
/// Script mode measures the demo service's latency and the lockout on this clock, so a script
/// produces the same screens on every run, however busy the machine is.
final class VirtualClock: Clock, Sendable {
  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Storage {
    var now = Instant(offset: .zero)
    var sleepers: [Sleeper] = []
    var cancelledIDs: Set<Int> = []
    var nextID = 0
  }

  private let storage = Guarded(Storage())
  private let sleepersChanged: @Sendable () -> Void

  /// Creates a clock at offset zero.
  ///
  /// - Parameter sleepersChanged: Called (on any thread) after a task starts sleeping.
  init(sleepersChanged: @escaping @Sendable () -> Void = {}) {
    self.sleepersChanged = sleepersChanged
  }

  var now: Instant { storage.withLock { $0.now } }
  var minimumResolution: Duration { .zero }

  /// How many tasks are asleep on this clock.
  var sleeperCount: Int { storage.withLock { $0.sleepers.count } }

  /// The earliest deadline of a sleeping task, if any.
  var nextDeadline: Instant? { storage.withLock { $0.sleepers.map(\.deadline).min() } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = storage.withLock { storage in
      storage.nextID += 1
      return storage.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let slept = storage.withLock { storage -> Bool in
          if storage.cancelledIDs.remove(id) != nil {
            continuation.resume(throwing: CancellationError())
            return false
          }
          if deadline <= storage.now {
            continuation.resume()
            return false
          }
          storage.sleepers.append(
            Sleeper(id: id, deadline: deadline, continuation: continuation))
          return true
        }
        if slept { sleepersChanged() }
      }
    } onCancel: {
      storage.withLock { storage in
        if let index = storage.sleepers.firstIndex(where: { $0.id == id }) {
          storage.sleepers.remove(at: index).continuation.resume(throwing: CancellationError())
        } else {
          storage.cancelledIDs.insert(id)
        }
      }
    }
  }

  /// Moves time forward by `duration` and wakes every sleeper whose deadline has come.
  func advance(by duration: Duration) {
    storage.withLock { storage in
      storage.now = storage.now.advanced(by: duration)
      let now = storage.now
      let due = storage.sleepers.filter { $0.deadline <= now }
      storage.sleepers.removeAll { $0.deadline <= now }
      for sleeper in due { sleeper.continuation.resume() }
    }
  }

  /// Moves time forward to `instant` (if it is in the future) and wakes the sleepers due.
  func advance(to instant: Instant) {
    let distance = now.duration(to: instant)
    advance(by: distance > .zero ? distance : .zero)
  }
}
