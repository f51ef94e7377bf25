/// Runs the tests that allocate tens of megabytes one at a time.
///
/// The reader's bounded-memory test measures the process's peak resident size, which every
/// test running beside it moves too: a test that builds a 17 MiB username must not run while
/// it measures.
actor MemoryHeavyTests {
  static let shared = MemoryHeavyTests()
  private var isRunning = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Runs `body` when no other memory-heavy test runs.
  func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
    while isRunning { await withCheckedContinuation { waiters.append($0) } }
    isRunning = true
    defer {
      isRunning = false
      if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
    return try await body()
  }
}
