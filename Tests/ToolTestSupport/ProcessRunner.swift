import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program and collects what it prints: the one process runner of the tests that run
/// the package's executables (or `python3`).
///
/// The wait happens on a thread of its own, never on the caller's: a blocking wait on the
/// cooperative pool (or the main actor) starves every other test on a two-core machine. A run
/// that outlives its timeout is killed with `SIGKILL`.
package enum ProcessRunner {
  /// What a run printed and how it ended.
  package struct Result: Sendable {
    package var stdout: String
    package var stderr: String
    package var status: Int32
    /// Whether the run was killed at its timeout.
    package var timedOut: Bool
    /// From the start of the process to its end, measured on the thread that waited for it:
    /// how long the program ran, whatever kept the calling test from running meanwhile.
    package var elapsed: Duration
  }

  /// Runs `start`, which makes the pipes a process gets and starts it, while no other test
  /// starts a process: every `Process` of the tests starts inside this.
  ///
  /// Foundation on Linux makes a new pipe close-on-exec only after making it, so a process
  /// started by another thread in between inherits both ends and holds them open. Whoever
  /// reads that pipe to its end then waits until the other process ends (a `replay --follow`
  /// held a `login-demo` run's output open for the 90 s until it was stopped).
  ///
  /// The process starts with the ``TerminationSignals`` unblocked, whatever the calling
  /// thread blocks: it ends on SIGTERM.
  package static func starting<T>(_ start: () throws -> T) rethrows -> T {
    try startLock.withLock { try TerminationSignals.unblocked(start) }
  }

  private static let startLock = NSLock()

  /// The executable product `name` built next to the test bundle, or in `.build/debug`.
  ///
  /// - Throws: ``NotBuilt``, saying where it looked.
  package static func builtProduct(_ name: String) throws -> URL {
    let bundle = Bundle.main.bundleURL
    var candidates = [
      bundle.appendingPathComponent(name),
      bundle.deletingLastPathComponent().appendingPathComponent(name),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent(name),
    ]
    if let testBinary = Bundle.main.executableURL {
      candidates.append(testBinary.deletingLastPathComponent().appendingPathComponent(name))
    }
    candidates.append(ReplayProcess.packageRoot.appendingPathComponent(".build/debug/\(name)"))
    if let found = candidates.first(where: {
      FileManager.default.isExecutableFile(atPath: $0.path)
    }) {
      return found
    }
    throw NotBuilt(
      description: "\(name) is not built; run `swift build --product \(name)` first. Looked in:\n"
        + candidates.map { "  " + $0.path }.joined(separator: "\n"))
  }

  /// An executable the tests need is missing: the message says where it was looked for.
  package struct NotBuilt: Error, CustomStringConvertible {
    package var description: String
  }

  /// Runs `executable arguments…` and waits for it to end, at most `timeout`.
  ///
  /// - Parameters:
  ///   - executable: The program.
  ///   - arguments: Its command-line arguments.
  ///   - directory: Its working directory; the test's when `nil`.
  ///   - environment: Its environment; the test's when `nil`.
  ///   - stdin: The file standard input reads; `/dev/null` when `nil`.
  ///   - stdout: Where standard output goes instead of being collected (`/dev/full`, say);
  ///     the result's `stdout` is then empty.
  ///   - timeout: How long the run may take before it is killed.
  ///   - lowPriority: Runs the program at the lowest scheduling priority (nice 19): a long,
  ///     CPU-bound run (a benchmark) then leaves the cores to the tests beside it, whose
  ///     deadlines are on the wall clock.
  ///   - interruptWhen: Looks at standard output as it arrives; once it says yes, the program
  ///     is stopped with `SIGTERM`, as a process manager stops it (for one that runs until
  ///     Ctrl-C, like `replay --follow`). A program that ignores it runs on to `timeout`, and
  ///     the result says it timed out.
  /// - Returns: What it printed, its exit status, and whether it was killed.
  package static func run(
    _ executable: URL,
    _ arguments: [String],
    in directory: URL? = nil,
    environment: [String: String]? = nil,
    stdin: URL? = nil,
    stdout: FileHandle? = nil,
    timeout: Duration,
    lowPriority: Bool = false,
    interruptWhen: (@Sendable (String) -> Bool)? = nil
  ) async throws -> Result {
    let input = try FileHandle(forReadingFrom: stdin ?? URL(fileURLWithPath: "/dev/null"))
    // Threads of their own, not Dispatch's global queue: its threads are as many as the cores,
    // and a few tests blocked in such waits at once held every one of them, so a deadline fired
    // tens of seconds late.
    return try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(
          with: Swift.Result {
            try runBlocking(
              executable, arguments, directory: directory, environment: environment,
              input: input, output: stdout, timeout: timeout, lowPriority: lowPriority,
              interruptWhen: interruptWhen)
          })
      }
    }
  }

  private static func runBlocking(
    _ executable: URL,
    _ arguments: [String],
    directory: URL?,
    environment: [String: String]?,
    input: FileHandle,
    output: FileHandle?,
    timeout: Duration,
    lowPriority: Bool,
    interruptWhen: (@Sendable (String) -> Bool)?
  ) throws -> Result {
    defer { try? input.close() }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    process.standardInput = input
    // Both pipes are drained while the program runs, so a full pipe never blocks it.
    let (stdoutPipe, stderrPipe) = try starting {
      let pipes = (Pipe(), Pipe())
      process.standardOutput = output ?? pipes.0
      process.standardError = pipes.1
      try process.run()
      return pipes
    }
    let started = ContinuousClock.now
    if output != nil { try? stdoutPipe.fileHandleForWriting.close() }
    let pid = process.processIdentifier
    if lowPriority { lowerPriority(of: pid) }
    let killed = DispatchSemaphore(value: 0)
    let exited = DispatchSemaphore(value: 0)
    let (seconds, attoseconds) = timeout.components
    let deadline = DispatchTime.now() + Double(seconds) + Double(attoseconds) / 1e18
    Thread.detachNewThread {
      if exited.wait(timeout: deadline) == .timedOut {
        // Said before the kill: the waiting thread can see the exit before this thread runs on.
        killed.signal()
        kill(pid, SIGKILL)
      }
    }
    let errorData = Collected()
    let group = DispatchGroup()
    group.enter()
    Thread.detachNewThread {
      errorData.set(stderrPipe.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
    var outputData = Data()
    if let interruptWhen {
      var interrupted = false
      while true {
        let chunk = stdoutPipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        outputData += chunk
        if !interrupted, interruptWhen(String(decoding: outputData, as: UTF8.self)) {
          kill(pid, SIGTERM)
          interrupted = true
        }
      }
    } else {
      outputData = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
    }
    group.wait()
    process.waitUntilExit()
    exited.signal()
    return Result(
      stdout: String(decoding: outputData, as: UTF8.self),
      stderr: String(decoding: errorData.get(), as: UTF8.self),
      status: process.terminationStatus,
      timedOut: killed.wait(timeout: .now()) == .success,
      elapsed: ContinuousClock.now - started)
  }

  /// Sets the nice value of the process `pid` to 19. A process that has ended meanwhile is
  /// left as it is (the call fails, and the run's result says how it ended).
  private static func lowerPriority(of pid: Int32) {
    #if canImport(Glibc)
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), 19)
    #else
      _ = setpriority(PRIO_PROCESS, id_t(pid), 19)
    #endif
  }

  /// The bytes one thread reads for another.
  private final class Collected: Sendable {
    private let data = Guarded(Data())

    func set(_ newValue: Data) { data.withLock { $0 = newValue } }
    func get() -> Data { data.withLock { $0 } }
  }
}
