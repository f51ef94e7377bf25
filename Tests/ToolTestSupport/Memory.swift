import Foundation

/// The process's memory figures from `/proc/self/status` (Linux).
///
/// A line there reads `VmHWM:\t    1936 kB`: a tab and spaces before the number, so the number is
/// the first run of digits after the colon.
package enum Memory {
  /// `VmRSS`, `VmHWM` or another `kB` field of `/proc/self/status`, in KiB; 0 when unavailable.
  package static func kibibytes(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
      let words = line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace)
      return words.first.flatMap { Int($0) } ?? 0
    }
    return 0
  }

  /// Whether `/proc/self/status` can be read here (Linux); the memory checks are moot
  /// without it.
  package static var isMeasurable: Bool { kibibytes("VmRSS") > 0 }

  /// Resets `VmHWM` to the current resident size; `false` when the kernel does not allow it.
  package static func resetPeak() -> Bool {
    guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
    defer { try? handle.close() }
    return (try? handle.write(contentsOf: Data("5".utf8))) != nil
  }
}

/// Runs the tests that allocate or measure tens of megabytes one at a time, across all the
/// test targets of the package (they share one process).
///
/// A bounded-memory test measures the process's peak resident size, which every test running
/// beside it moves too: a test that builds a 17 MiB username must not run while another
/// measures.
package actor MemoryHeavyTests {
  /// The one gate of the test process.
  package static let shared = MemoryHeavyTests()
  private var isRunning = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Runs `body` when no other memory-heavy test runs.
  package func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
    while isRunning { await withCheckedContinuation { waiters.append($0) } }
    isRunning = true
    defer {
      isRunning = false
      if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
    return try await body()
  }
}
