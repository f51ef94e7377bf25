import Foundation

/// A clock that only moves when a test calls `advance(by:)`.
final class ManualClock: Clock, @unchecked Sendable {
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

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var cancelledIDs: Set<Int> = []
  private var nextID = 0

  var now: Instant { lock.withLock { current } }
  var minimumResolution: Duration { .zero }

  /// How many tasks are asleep on this clock.
  var sleeperCount: Int { lock.withLock { sleepers.count } }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        lock.withLock {
          if cancelledIDs.remove(id) != nil {
            continuation.resume(throwing: CancellationError())
          } else if deadline <= current {
            continuation.resume()
          } else {
            sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          }
        }
      }
    } onCancel: {
      lock.withLock {
        if let index = sleepers.firstIndex(where: { $0.id == id }) {
          sleepers.remove(at: index).continuation.resume(throwing: CancellationError())
        } else {
          cancelledIDs.insert(id)
        }
      }
    }
  }

  /// Moves time forward and wakes every sleeper whose deadline has come.
  func advance(by duration: Duration) {
    lock.withLock {
      current = current.advanced(by: duration)
      let due = sleepers.filter { $0.deadline <= current }
      sleepers.removeAll { $0.deadline <= current }
      for sleeper in due { sleeper.continuation.resume() }
    }
  }

  /// Waits (by yielding, never sleeping) until `count` tasks are asleep on this clock.
  func waitForSleepers(_ count: Int = 1) async -> Bool {
    for _ in 0..<100_000 {
      if sleeperCount >= count { return true }
      await Task.yield()
    }
    return false
  }
}
