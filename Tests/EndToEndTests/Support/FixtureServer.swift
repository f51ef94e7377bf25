import Foundation
import StateStore
import ToolTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The scripted login server of `Tests/Fixtures/login_server.py`, running on 127.0.0.1 (or
/// another IPv4 loopback address, such as `127.0.0.2`).
///
/// `start()` launches it with `python3`, reads the `PORT n` line it prints first, and
/// `stop()` (or `deinit`) terminates it by its PID, and a thread of its own reaps it — so a
/// failing test leaks no process, and no test waits on a cooperative thread. The server also exits by itself after `lifetime` seconds.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// defer { server.stop() }
/// let api = HTTPLoginAPI(baseURL: server.baseURL)
/// ```
final class FixtureServer: Sendable {
  /// Why the server could not start.
  struct StartError: Error, CustomStringConvertible {
    let description: String
  }

  /// The address it listens on: `127.0.0.1` unless started with another.
  let host: String
  /// The port it listens on.
  let port: Int
  private let process: Guarded<Process?>
  private let output: LineReader

  /// `http://127.0.0.1:<port>`, or the same on the other host it was started on.
  var baseURL: URL {
    URL(string: "http://\(host):\(port)")!
  }

  /// The PID of the Python process.
  let pid: Int32

  /// The deadline for a client of the server whose test is not about the deadline: far beyond
  /// what a busy machine needs, so that only a hang fails. The client's 10-second default ran
  /// out on a loaded two-core machine, where every URLSession of the process waits on one queue.
  static let patientTimeout = Duration.seconds(120)

  private init(process: Process, output: LineReader, host: String, port: Int) {
    self.process = Guarded(process)
    self.output = output
    self.host = host
    self.port = port
    self.pid = process.processIdentifier
  }

  deinit {
    stop()
  }

  /// Launches the server and waits for its port.
  ///
  /// - Parameters:
  ///   - lifetime: Seconds after which the server exits on its own.
  ///   - host: The IPv4 loopback address to bind (`127.0.0.1`, `127.0.0.2`).
  ///   - arguments: More options for the script, e.g. `["--drip-interval", "0.01"]`.
  /// - Throws: ``StartError`` when `python3` is missing or the server prints no port.
  static func start(
    lifetime: Int = 300, host: String = "127.0.0.1", arguments: [String] = []
  ) async throws -> FixtureServer {
    let python = try findPython3()
    let script = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // Support
      .deletingLastPathComponent()  // EndToEndTests
      .deletingLastPathComponent()  // Tests
      .appendingPathComponent("Fixtures/login_server.py")
    guard FileManager.default.fileExists(atPath: script.path) else {
      throw StartError(description: "The fixture server is missing at \(script.path).")
    }

    let process = Process()
    process.executableURL = python
    process.arguments = [script.path, "--lifetime", "\(lifetime)", "--host", host] + arguments
    let pipe: Pipe
    do {
      pipe = try ProcessRunner.starting {
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return pipe
      }
    } catch {
      throw StartError(description: "Could not launch \(python.path) \(script.path): \(error)")
    }
    let output = LineReader(pipe.fileHandleForReading)

    let line = await output.firstLine { $0.hasPrefix("PORT ") }
    guard let line, let port = Int(line.dropFirst("PORT ".count)) else {
      // No port means the server's output closed: it has ended, or is ending.
      end(process) {}
      throw StartError(
        description: "The fixture server printed no `PORT n` line (exit status "
          + "\(process.terminationStatus)); see its error output above.")
    }
    return FixtureServer(process: process, output: output, host: host, port: port)
  }

  /// Waits until the server has logged a request from `username` (plain ASCII, no quotes or
  /// backslashes: the log line is JSON); false if the server stopped first.
  func waitForRequest(from username: String) async -> Bool {
    await output.firstLine { $0 == "REQUEST \"\(username)\"" } != nil
  }

  /// Waits at most `timeout` for the first line, printed or still to come, that satisfies
  /// `predicate`; nil if the server stopped or the time ran out first.
  func firstLine(
    within timeout: Duration, where predicate: @escaping @Sendable (String) -> Bool
  ) async -> String? {
    await withTaskGroup(of: String?.self) { group in
      group.addTask { [output] in await output.firstLine(where: predicate) }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      // The reader's wait does not end on cancellation; a line nobody prints keeps it until the
      // server stops, so stop it rather than leave the group waiting.
      if first == nil { stop() }
      return first
    }
  }

  /// Stops the server and returns every line it printed, read to the end of its output — so a
  /// line logged just before the stop is not missed.
  func stopAndCollectLines() async -> [String] {
    stop()
    _ = await output.firstLine { _ in false }  // nil once the pipe is closed and read
    return output.lines
  }

  /// Stops the server and returns its `HIT <method> <path> cookie=<yes|no>` lines: one per
  /// request it received, whatever its method or path, read to the end of its output.
  func stopAndCollectHits() async -> [String] {
    await stopAndCollectLines().filter { $0.hasPrefix("HIT ") }
  }

  /// Every line the server has printed on stdout so far (the `PORT n` line, then a
  /// `HIT <method> <path> cookie=<yes|no>` line per request and a `REQUEST <username>` line per
  /// login).
  var printedLines: [String] { output.lines }

  /// Terminates the server (SIGTERM to its PID) without waiting for it: a thread of its own
  /// waits for the exit, and kills the server if it is still running ten seconds later. Safe to
  /// call twice.
  ///
  /// The caller never blocks: `stop()` runs in `defer` blocks of async tests, on the two
  /// threads of the cooperative pool, where a `waitUntilExit()` held every other test back.
  func stop() {
    guard let process = takeProcess() else { return }
    Self.end(process) {}
  }

  /// Stops the server as ``stop()`` does, and returns once it has exited and been reaped.
  func stopAndWaitForExit() async {
    guard let process = takeProcess() else { return }
    await withCheckedContinuation { continuation in
      Self.end(process) { continuation.resume() }
    }
  }

  private func takeProcess() -> Process? {
    process.withLock { process in
      defer { process = nil }
      return process
    }
  }

  /// Sends `process` SIGTERM and reaps it on a thread of its own, with SIGKILL after ten
  /// seconds of real time if it has not exited by then; calls `reaped` after that.
  private static func end(_ process: Process, reaped: @escaping @Sendable () -> Void) {
    if process.isRunning { process.terminate() }
    let pid = process.processIdentifier
    Thread.detachNewThread {
      let deadline = Date(timeIntervalSinceNow: 10)
      while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
      if process.isRunning { kill(pid, SIGKILL) }
      process.waitUntilExit()
      reaped()
    }
  }

  /// The first `python3` on `PATH`, or nil: the fixture server and the browser driver
  /// (`Tests/Fixtures/timeline_browser.py`) both run on it.
  static func python3() -> URL? {
    searchPath.split(separator: ":").map {
      URL(fileURLWithPath: String($0)).appendingPathComponent("python3")
    }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  private static var searchPath: String {
    ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
  }

  private static func findPython3() throws -> URL {
    guard let python = python3() else {
      throw StartError(
        description: """
          python3 was not found on PATH (\(searchPath)). The HTTP integration tests run a \
          Python 3 standard-library server (Tests/Fixtures/login_server.py); install Python 3.
          """)
    }
    return python
  }
}

/// Reads a file handle line by line on a thread of its own and lets tasks wait for a line.
final class LineReader: Sendable {
  private struct Waiter {
    let predicate: @Sendable (String) -> Bool
    let continuation: CheckedContinuation<String?, Never>
  }

  private struct State {
    var lines: [String] = []
    var isClosed = false
    var waiters: [Waiter] = []
  }

  private let state = Guarded(State())

  init(_ handle: FileHandle) {
    let thread = Thread { [self] in
      var pending = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
          pending = Data(pending[(newline + 1)...])
          received(line)
        }
      }
      closed()
    }
    thread.start()
  }

  /// The lines read so far, in order.
  var lines: [String] { state.withLock { $0.lines } }

  /// The first line, already read or still to come, that satisfies `predicate`; nil when the
  /// handle closes without one.
  func firstLine(where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
    await withCheckedContinuation { continuation in
      let answer: String?? = state.withLock { state in
        if let line = state.lines.first(where: predicate) { return .some(line) }
        if state.isClosed { return .some(nil) }
        state.waiters.append(Waiter(predicate: predicate, continuation: continuation))
        return .none
      }
      if let answer { continuation.resume(returning: answer) }
    }
  }

  private func received(_ line: String) {
    let ready = state.withLock { state -> [Waiter] in
      state.lines.append(line)
      let ready = state.waiters.filter { $0.predicate(line) }
      state.waiters.removeAll { $0.predicate(line) }
      return ready
    }
    for waiter in ready { waiter.continuation.resume(returning: line) }
  }

  private func closed() {
    let waiters = state.withLock { state -> [Waiter] in
      state.isClosed = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.continuation.resume(returning: nil) }
  }
}
