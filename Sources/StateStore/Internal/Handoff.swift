/// Items handed from one thread to another in batches, bounded by what they cost: the package's
/// one pipeline between threads (a recorder's writer, a replay's reader ahead).
///
/// A value, not a lock: the threads share it behind a ``Guarded`` and wait on it with
/// ``Guarded/withLock(when:_:)`` (a consumer with nothing to take, a producer without room).
/// The consumer takes everything queued at once, and what it took keeps its room until it takes
/// again, or ``release()``s it: the batch being worked on and the items queued behind it stay
/// within ``limit`` together. A consumer done with its batch releases it before it waits for
/// more, or a producer waiting for room would wait on it. An item is let in whenever nothing is
/// held, however much it costs, so one that costs more than the limit still passes, alone.
@usableFromInline
package struct Handoff<Item> {
  /// The most the queued items and the batch taken may cost together.
  @usableFromInline package let limit: Int
  @usableFromInline var items: [Item] = []
  @usableFromInline var queuedCost = 0
  @usableFromInline var takenCost = 0

  package init(limit: Int) {
    self.limit = limit
  }

  /// Whether nothing is queued.
  @inlinable package var isEmpty: Bool { items.isEmpty }

  /// What the queued items and the batch taken cost.
  @inlinable package var held: Int { queuedCost + takenCost }

  /// Whether an item costing `cost` may be appended now.
  @inlinable
  package func hasRoom(for cost: Int) -> Bool {
    held == 0 || held + cost <= limit
  }

  /// Queues `item`, charged `cost` (the caller asked ``hasRoom(for:)``, or appends past the
  /// limit on purpose).
  @inlinable
  package mutating func append(_ item: Item, cost: Int) {
    items.append(item)
    queuedCost += cost
  }

  /// The consumer trades `batch` for everything queued, and gives back the room of the batch it
  /// had. The arrays trade places, each keeping its capacity, so appending to the queue grows
  /// it only when a burst is larger than any before.
  package mutating func take(into batch: inout [Item]) {
    batch.removeAll(keepingCapacity: true)
    swap(&batch, &items)
    takenCost = queuedCost
    queuedCost = 0
  }

  /// The consumer is done with the batch it took, and takes no other now.
  package mutating func release() {
    takenCost = 0
  }

  /// Drops everything queued, and returns it.
  @discardableResult
  package mutating func removeAll() -> [Item] {
    queuedCost = 0
    defer { items = [] }
    return items
  }
}
