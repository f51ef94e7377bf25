import Foundation
import StateStore

/// One measured scenario: a name, how many operations, and the time they took.
struct BenchmarkResult {
  var group: String
  var scenario: String
  var ops: Int
  var nanoseconds: Double
  var floor: String
  var floorNanosecondsPerOp: Double
  var peakRSSMiB: Double
  var target: String?

  var nanosecondsPerOp: Double { nanoseconds / Double(ops) }
  var ratio: Double { nanosecondsPerOp / floorNanosecondsPerOp }
}

/// A duration in nanoseconds.
func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// Times `body` over `ops` iterations, taking the best of `rounds` runs to cut the noise.
@MainActor
func measure(ops: Int, rounds: Int = 5, _ body: (Int) -> Void) -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let start = ContinuousClock.now
    body(ops)
    best = min(best, nanoseconds(ContinuousClock.now - start))
  }
  return best
}

/// The process's peak resident set size so far, in MiB.
///
/// On Linux this is `VmHWM` from /proc/self/status: unlike `getrusage`, it starts afresh at
/// `exec`, so `swift run` does not lend the bench its own peak.
func peakRSSMiB() -> Double {
  #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
      let kib = Double(line.split(separator: " ").dropFirst().first ?? "")
    {
      return kib / 1024
    }
    return 0
  #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1024 / 1024
  #endif
}

/// Starts the peak resident set size afresh, so the next `peakRSSMiB()` is the peak since now.
///
/// On Linux, writing 5 to /proc/self/clear_refs resets `VmHWM`; elsewhere (or where the kernel
/// refuses) the peak stays the process's, which only makes a later figure higher.
func resetPeakRSS() {
  #if os(Linux)
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return }
    _ = WriteAll.write("5", to: descriptor)
    close(descriptor)
  #endif
}

/// Keeps the optimizer from deleting work whose result nobody reads.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Sends at most `limit` actions to a recorded store and lets the recorder's writer catch up
/// (`flush`) every 2,000: what every recorded mix of actions shares.
@MainActor
struct CappedSender<R: Reducer> {
  let store: Store<R>
  let limit: Int
  let flush: () async -> Void
  private(set) var sent = 0

  init(_ store: Store<R>, limit: Int, flush: @escaping () async -> Void) {
    self.store = store
    self.limit = limit
    self.flush = flush
  }

  var isDone: Bool { sent >= limit }

  mutating func send(_ action: R.Action) async {
    guard sent < limit else { return }
    store.send(action)
    sent += 1
    if sent.isMultiple(of: 2_000) { await flush() }
  }
}
