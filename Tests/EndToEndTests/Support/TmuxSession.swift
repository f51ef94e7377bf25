import Foundation
import Testing

/// A detached tmux session of 80×24 running one shell command, on a tmux server of its own.
///
/// The interactive tests type into it with `send-keys` and read the screen with
/// `capture-pane`, as a person would at a terminal.
final class TmuxSession: Sendable {
  private let tmux: String
  private let socket: String
  private static let target = "demo"

  /// Starts `command` (run by `sh -c`) in a new session.
  ///
  /// - Throws: ``DemoProcessError`` when tmux is missing or fails to start.
  init(command: String) async throws {
    tmux = try Self.locateTmux()
    socket = "login-demo-tests-\(getpid())-\(UUID().uuidString.prefix(8))"
    try await run([
      "new-session", "-d", "-x", "80", "-y", "24", "-s", Self.target, "sh", "-c", command,
    ])
  }

  /// Ends the tmux server and whatever still runs in it (after a failed test, the app).
  deinit {
    _ = try? Self.runBlocking(tmux, socket, ["kill-server"])
  }

  /// Types `text` literally.
  func type(_ text: String) async throws {
    try await run(["send-keys", "-t", Self.target, "-l", text])
  }

  /// Presses keys by tmux name: `Tab`, `Enter`, `Escape`, `C-c`.
  func press(_ keys: String...) async throws {
    try await run(["send-keys", "-t", Self.target] + keys)
  }

  /// Resizes the window, which sends SIGWINCH to the program in it.
  func resize(columns: Int, rows: Int) async throws {
    try await run(["resize-window", "-t", Self.target, "-x", "\(columns)", "-y", "\(rows)"])
  }

  /// The path of the pane's terminal (`/dev/pts/N`): what is written there shows on the
  /// screen as if the program had printed it.
  func terminalPath() async throws -> String {
    try await run(["display-message", "-p", "-t", Self.target, "#{pane_tty}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The screen as text, one line per row.
  func screen() async throws -> String {
    try await run(["capture-pane", "-p", "-t", Self.target])
  }

  /// The screen as text, with every run of cells drawn in inverse video — a field's cursor, a
  /// focused button — between `⟦` and `⟧`, trailing spaces and blank rows at the end dropped.
  ///
  /// ```text
  ///  › Username  deX⟦m⟧o
  /// ```
  func screenMarkingInverse() async throws -> String {
    Self.markingInverse(try await run(["capture-pane", "-p", "-e", "-N", "-t", Self.target]))
  }

  /// `styled`, a capture with SGR escape sequences, as plain text with inverse runs marked.
  static func markingInverse(_ styled: String) -> String {
    var lines: [String] = []
    for line in styled.split(separator: "\n", omittingEmptySubsequences: false) {
      var text = ""
      var isInverse = false
      var scalars = line.unicodeScalars[...]
      while let scalar = scalars.popFirst() {
        guard scalar == "\u{1B}" else {
          text.unicodeScalars.append(scalar)
          continue
        }
        guard scalars.first == "[" else { continue }
        scalars.removeFirst()
        var parameters = ""
        var final: Unicode.Scalar?
        while let next = scalars.popFirst() {
          if (0x40...0x7E).contains(next.value) {
            final = next
            break
          }
          parameters.unicodeScalars.append(next)
        }
        guard final == "m" else { continue }  // not SGR: the cursor moves, the line clears
        var inverse = isInverse
        for code in parameters.split(separator: ";", omittingEmptySubsequences: false) {
          if code == "7" {
            inverse = true
          } else if ["", "0", "27"].contains(code) {
            inverse = false
          }
        }
        if inverse != isInverse { text += inverse ? "⟦" : "⟧" }
        isInverse = inverse
      }
      if isInverse { text += "⟧" }
      while text.last == " " { text.removeLast() }
      lines.append(text)
    }
    while lines.last == "" { lines.removeLast() }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Polls the screen until `condition` holds, for at most `timeout`; with `markingInverse`,
  /// the screen is read with ``screenMarkingInverse()``.
  ///
  /// - Returns: The screen that satisfied the condition.
  /// - Throws: ``DemoProcessError`` with the last screen when time runs out.
  @discardableResult
  func waitForScreen(
    timeout: Duration = .seconds(60),
    markingInverse: Bool = false,
    _ description: String,
    until condition: (String) -> Bool
  ) async throws -> String {
    let deadline = ContinuousClock.now + timeout
    var last = ""
    while ContinuousClock.now < deadline {
      last = (try? await markingInverse ? screenMarkingInverse() : screen()) ?? last
      if condition(last) { return last }
      try await Task.sleep(for: .milliseconds(50))
    }
    // One last look: a test held up past its deadline by others on a busy pool has not looked
    // since, and the screen may be there by now.
    last = (try? await markingInverse ? screenMarkingInverse() : screen()) ?? last
    if condition(last) { return last }
    throw DemoProcessError("Timed out waiting for \(description). The screen was:\n\(last)")
  }

  /// Runs tmux on a thread of its own, so the wait blocks no Swift concurrency thread nor one of
  /// the few threads of Dispatch's global queue.
  @discardableResult
  private func run(_ arguments: [String]) async throws -> String {
    let (tmux, socket) = (tmux, socket)
    return try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread {
        continuation.resume(with: Result { try Self.runBlocking(tmux, socket, arguments) })
      }
    }
  }

  private static func runBlocking(
    _ tmux: String,
    _ socket: String,
    _ arguments: [String]
  ) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    environment["LANG"] = "C.UTF-8"
    environment["TMUX"] = nil
    let (status, output) = try Spawn.run(
      tmux, ["-u", "-L", socket, "-f", "/dev/null"] + arguments, environment: environment)
    guard status == 0 else {
      throw DemoProcessError("tmux \(arguments.joined(separator: " ")) failed: \(output)")
    }
    return output
  }

  private static func locateTmux() throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let candidates =
      ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
      + path.split(separator: ":").map { "\($0)/tmux" }
    guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:))
    else {
      throw DemoProcessError(
        "The interactive login-demo tests need tmux, which is not installed "
          + "(looked in /usr/bin, /usr/local/bin and PATH). Install it: apt-get install tmux")
    }
    return found
  }
}
