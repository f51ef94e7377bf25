import Foundation
import StateStore
import Testing
import ToolTestSupport

/// `replay --follow` reading while a real `login-demo` writes: a log recorded, then recorded
/// again from the start; a flight recorder's folder across two launches.
///
/// `--follow` runs until Ctrl-C, so each test stops it with SIGTERM once it has printed what
/// the test waits for (what it printed is kept); a `--follow` that ignored SIGTERM would run
/// to the time limit and fail the test.
struct ReplayFollowTests {
  static let signIn = ["type username demo", "type password Secr3t", "tap login", "wait"]

  /// Starts `replay --follow target`, runs `body` while it follows, and returns what it
  /// printed until it is stopped (SIGTERM, as a process manager would stop it), once it has printed
  /// `ends` lines that say a recording ended. `body` gets a stream that yields once for each
  /// such line as `--follow` prints it, and finishes when `--follow` ends.
  private func follow(
    _ target: URL, untilItSaysEnded ends: Int,
    while body: @Sendable (_ saidEnded: AsyncStream<Void>) async throws -> Void
  ) async throws -> ProcessRunner.Result {
    let replay = try DemoProcess.executable("replay")
    let (saidEnded, said) = AsyncStream.makeStream(of: Void.self)
    let seen = Guarded(0)
    async let run = {
      defer { said.finish() }
      return try await ProcessRunner.run(
        replay, ["--follow", target.path], environment: ["NO_COLOR": "1"], timeout: .seconds(90),
        interruptWhen: { output in
          let count = output.components(separatedBy: "── the recording ended").count - 1
          let new = seen.withLock { seen in
            defer { seen = max(seen, count) }
            return max(0, count - seen)
          }
          for _ in 0..<new { said.yield() }
          return count >= ends
        })
    }()
    let clock = ContinuousClock()
    let start = clock.now
    try await Task.sleep(for: .milliseconds(500))  // it waits for the file: not there yet
    try await body(saidEnded)
    let bodyEnded = clock.now - start
    let result = try await run
    #expect(
      !result.timedOut,
      """
      --follow did not say the recordings ended (the apps had ended after \(bodyEnded), \
      --follow ran \(result.elapsed)): \(result.stdout)
      """)
    #expect(result.status != 0, "--follow runs until it is stopped")
    return result
  }

  private static func demo(_ lines: [String], _ arguments: [String], in folder: URL)
    async throws
  {
    let script = folder.appendingPathComponent("s\(UUID().uuidString.prefix(8)).script")
    try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: script)
    let run = try await DemoProcess.run(["--script", script.path] + arguments)
    #expect(run.status == 0, "login-demo: \(run.stderr)")
  }

  @Test(.timeLimit(.minutes(5)))
  func aLogIsFollowedAsItIsWrittenAndAgainWhenItIsRecordedAnew() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("live.jsonl")
    let here = folder.url
    let result = try await follow(log, untilItSaysEnded: 2) { _ in
      try await Self.demo(Self.signIn, ["--record", log.path], in: here)
      try await Task.sleep(for: .milliseconds(500))
      try await Self.demo(["type username grace"], ["--record", log.path], in: here)
    }
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let headlines = lines.filter { $0.hasPrefix("#") || $0.hasPrefix("──") }
      .map { $0.replacing(/\ \(\d{4}-[^)]*\)/, with: "") }
    #expect(
      headlines == [
        "#1 0:00.000 user login(launched)",
        "#2 0:00.000 effect login(restored((), at: 788918400))",
        #"#3 0:00.000 user login(edit(field: "username", value: "demo"))"#,
        #"#4 0:00.000 user login(edit(field: "password", value: "Aaaa0a"))"#,
        "#5 0:00.000 user login(loginButtonTapped)",
        #"#6 0:00.600 effect login(loginResponse(success(expiresAt: 788961600.6, token: "aaaa*aaaaa*0", "#
          + #"user: (displayName: "Demo User", id: "1", username: "demo")), attempt: 1))"#,
        #"#7 0:00.900 effect home(profileLoaded(displayName: "Demo User", plan: "Free", "#
          + #"unreadMessages: 3))"#,
        "── the recording ended: the app closed its log ──",
        "── a new recording begins in live.jsonl ──",
        "#1 0:00.000 user login(launched)",
        "#2 0:00.000 effect login(restored((), at: 788918400))",
        #"#3 0:00.000 user login(edit(field: "username", value: "grace"))"#,
        "── the recording ended: the app closed its log ──",
      ], "\(result.stdout)\n\(result.stderr)")
    #expect(!result.stdout.contains("Secr3t"))
    // Started before the app (unless a busy machine started it late): it says at most once
    // what it waits for, and nothing else.
    let waiting = "replay: waiting for '\(log.path)' to be recorded (Ctrl-C to stop)\n"
    #expect(["", waiting].contains(result.stderr), "\(result.stderr)")
  }

  @Test(.timeLimit(.minutes(5)))
  func aFlightRecorderFolderIsFollowedAcrossItsLaunches() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    let state = folder.file("state")
    let here = folder.url
    let result = try await follow(flight, untilItSaysEnded: 2) { _ in
      let arguments = ["--state-dir", state.path, "--flight-recorder", flight.path]
      try await Self.demo(Self.signIn, arguments, in: here)
      try await Task.sleep(for: .milliseconds(500))
      try await Self.demo(["tap logout"], arguments, in: here)
    }
    let marks = result.stdout.split(separator: "\n").filter { $0.hasPrefix("──") }
      .map { $0.replacing(/\ \(\d{4}-[^)]*\)/, with: "") }
    #expect(
      marks == [
        "── launch 1 begins in segment-000001.jsonl ──",
        "── the recording ended in segment-000001.jsonl; waiting for the next launch ──",
        "── launch 2 begins in segment-000002.jsonl ──",
        "── the recording ended in segment-000002.jsonl; waiting for the next launch ──",
      ], "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.contains("login(logoutButtonTapped)"))
    let waiting = "replay: waiting for '\(flight.path)' to be recorded (Ctrl-C to stop)\n"
    #expect(["", waiting].contains(result.stderr), "\(result.stderr)")
  }

  /// The app records the path again faster than `--follow` looks at it: the file is never
  /// shorter than what was read of the first recording, and is already longer (here written in
  /// one write over the old one, as the worst timing would have it). The open file tells.
  @Test(.timeLimit(.minutes(5)))
  func aRecordingWrittenOverTheLogBetweenTwoLooksIsFollowedToo() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("live.jsonl")
    let longer = folder.file("longer.jsonl")
    let here = folder.url
    try await Self.demo(
      ["type username grace", "type password Secr3t", "tap login", "wait"],
      ["--record", longer.path], in: here)
    let result = try await follow(log, untilItSaysEnded: 2) { saidEnded in
      try await Self.demo(["type username ada"], ["--record", log.path], in: here)
      // Once the first recording was read to its end:
      for await _ in saidEnded { break }
      let handle = try FileHandle(forWritingTo: log)
      try handle.write(contentsOf: try Data(contentsOf: longer))
      try handle.close()
    }
    let headlines = result.stdout.split(separator: "\n").map(String.init)
      .filter { $0.hasPrefix("#") || $0.hasPrefix("──") }
      .map { $0.replacing(/\ \(\d{4}-[^)]*\)/, with: "") }
    #expect(
      headlines.prefix(5) == [
        "#1 0:00.000 user login(launched)",
        "#2 0:00.000 effect login(restored((), at: 788918400))",
        #"#3 0:00.000 user login(edit(field: "username", value: "ada"))"#,
        "── the recording ended: the app closed its log ──",
        "── a new recording begins in live.jsonl ──",
      ], "\(result.stdout)\n\(result.stderr)")
    #expect(
      headlines.contains(
        #"#3 0:00.000 user login(edit(field: "username", value: "grace"))"#))
    #expect(headlines.last == "── the recording ended: the app closed its log ──")
  }
}
