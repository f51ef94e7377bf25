import Foundation
import Testing

@testable import StateStore

/// The package's one pipeline between threads: items within a bound, the batch being worked on
/// counted until the next take, and threads that wait on the `Guarded` around it.
struct HandoffTests {
  @Test func theBatchTakenKeepsItsRoomUntilTheNextTake() {
    var handoff = Handoff<Int>(limit: 10)
    #expect(handoff.hasRoom(for: 25), "nothing is held: one item passes whatever it costs")
    handoff.append(1, cost: 4)
    handoff.append(2, cost: 4)
    #expect(!handoff.hasRoom(for: 4))
    var batch: [Int] = []
    handoff.take(into: &batch)
    #expect(batch == [1, 2])
    #expect(handoff.isEmpty)
    #expect(handoff.held == 8, "the batch being worked on still counts")
    #expect(handoff.hasRoom(for: 2) && !handoff.hasRoom(for: 3))
    handoff.append(3, cost: 2)
    handoff.take(into: &batch)
    #expect(batch == [3])
    #expect(handoff.held == 2, "the room of the batch before came back")
    handoff.release()
    #expect(handoff.held == 0)
    handoff.append(4, cost: 1)
    #expect(handoff.removeAll() == [4])
    #expect(handoff.held == 0 && handoff.isEmpty)
  }

  /// A producer that waits for room and a consumer that waits for items, on two threads of
  /// their own (as a replay's reader ahead and its caller): every item arrives, in order, and
  /// the producer never finds more than the limit held.
  @Test func aWaitingProducerAndAWaitingConsumerHandOverEveryItemInOrder() async {
    struct Shared {
      var handoff = Handoff<Int>(limit: 8)
      var isDone = false
      var mostHeld = 0
      var hasRoom: Bool { handoff.hasRoom(for: 1) }
      var hasItemsOrEnded: Bool { !handoff.isEmpty || isDone }
    }
    let shared = Guarded(Shared())
    let count = 20_000
    Thread.detachNewThread {
      for item in 0..<count {
        shared.withLock(when: \.hasRoom) { shared in
          shared.handoff.append(item, cost: 1)
          shared.mostHeld = max(shared.mostHeld, shared.handoff.held)
        }
      }
      shared.withLock { $0.isDone = true }
    }
    let received = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var received: [Int] = []
        var batch: [Int] = []
        while true {
          let isDone = shared.withLock(when: \.hasItemsOrEnded) { shared in
            shared.handoff.take(into: &batch)
            return shared.isDone && batch.isEmpty
          }
          if isDone { break }
          received += batch
          // Done with the batch: its room comes back before the wait for the next (a producer
          // waiting for room would otherwise wait on a consumer waiting for items).
          shared.withLock { $0.handoff.release() }
        }
        continuation.resume(returning: received)
      }
    }
    #expect(received == Array(0..<count))
    #expect(shared.withLock { $0.mostHeld } <= 8)
  }
}
