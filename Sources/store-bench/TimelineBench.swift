import ActionLog
import AppFeature
import Foundation
import LoginFeature
import StateStore

/// `store-bench --timeline`: the HTML timeline at scale.
///
/// Records an app log of `steps` transitions — a realistic mix of typing, failed and
/// successful logins, alerts, profiles and logouts — then runs the `replay` executable built
/// next to this one, twice: `--verify` (the floor: the replay alone) and `--html` (the same
/// replay writing the page). Prints the wall-clock times and the page's size against the
/// log's. The log and the page are left in `folder` for the browser half of the measurement
/// (`Tests/Fixtures/timeline_browser.py bench PAGE`).
@MainActor
func timelineBench(steps: Int, folder: URL) async -> Int32 {
  benchSetUp("create \(folder.path)") {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }
  let log = folder.appendingPathComponent("timeline-bench.jsonl")
  let page = folder.appendingPathComponent("timeline-bench.html")
  if FileManager.default.fileExists(atPath: page.path) {
    benchSetUp("remove the last run's \(page.path)") {
      try FileManager.default.removeItem(at: page)
    }
  }

  let store = Store(initialState: AppState(), reducer: AppReducer())
  let recorder = benchSetUp("record to \(log.path)") {
    try store.record(to: log, feature: AppReducer.actionLogFeature)
  }
  await sendAppMix(steps, to: store) { await recorder.flush() }
  await recorder.close()
  if recorder.droppedTransitionCount > 0 {
    FileHandleOutput.standardError(
      "store-bench: the app log dropped \(recorder.droppedTransitionCount) transitions")
  }

  let replay = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("replay")
  guard FileManager.default.isExecutableFile(atPath: replay.path) else {
    FileHandleOutput.standardError(
      "store-bench: build the replay executable first (swift build -c release): "
        + "not found at \(replay.path)")
    return 1
  }
  guard let verify = run(replay, ["--verify", log.path]),
    let html = run(replay, ["--html", page.path, log.path])
  else { return 1 }

  let logBytes = fileSize(log)
  let pageBytes = fileSize(page)
  let ratio = Double(pageBytes) / Double(max(1, logBytes))
  print(
    """
    timeline: an app log of \(steps) steps, \(megabytes(logBytes)) MB
      replay --verify (floor)   \(Report.format(verify, digits: 2)) s   (target ≤ 1 s, idle machine)
      replay --html             \(Report.format(html, digits: 2)) s   \
    (\(Report.format(html / verify, digits: 2))× the floor; target ≤ 1.5×)
      page size                 \(megabytes(pageBytes)) MB = \
    \(Report.format(ratio, digits: 2))× the log (target ≤ 2×)
      page                      \(page.path)
    """)
  return 0
}

/// Runs `tool arguments` and returns its wall-clock seconds, or `nil` (reported) if it failed.
private func run(_ tool: URL, _ arguments: [String]) -> Double? {
  let process = Process()
  process.executableURL = tool
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  let start = ContinuousClock.now
  do {
    try process.run()
  } catch {
    FileHandleOutput.standardError("store-bench: cannot run \(tool.path): \(error)")
    return nil
  }
  process.waitUntilExit()
  let seconds = nanoseconds(ContinuousClock.now - start) / 1e9
  guard process.terminationStatus == 0 else {
    FileHandleOutput.standardError(
      "store-bench: replay \(arguments.joined(separator: " ")) exited with status "
        + "\(process.terminationStatus)")
    return nil
  }
  return seconds
}

private func fileSize(_ url: URL) -> Int {
  ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
}

private func megabytes(_ bytes: Int) -> String {
  Report.format(Double(bytes) / 1_000_000, digits: 1)
}

/// The login flow and the home screen, every kind of step, in a deterministic order.
@MainActor
private func sendAppMix(
  _ count: Int, to store: Store<AppReducer>, flush: @escaping () async -> Void
) async {
  let names = ["ada.lovelace", "grace", "alan.t", "demo"]
  var sender = CappedSender(store, limit: count, flush: flush)
  var cycle = 0
  func send(_ action: AppAction) async { await sender.send(action) }
  while !sender.isDone {
    cycle += 1
    let name = names[cycle % names.count] + String(cycle % 89)
    for length in 1...name.count {
      await send(.login(.edit(.set(\.username, to: PersonalData(String(name.prefix(length)))))))
    }
    for length in 1...7 {
      await send(.login(.edit(.set(\.password, to: Secret(String("Pa55word".prefix(length)))))))
    }
    await send(.login(.loginButtonTapped))
    let attempt = store.state.login.attemptID
    if cycle % 4 == 0 {
      let user = User(
        id: String(cycle), username: PersonalData(name),
        displayName: PersonalData(name.capitalized))
      let session = Session(user: user, token: Secret("tok-\(cycle)-0123456789"))
      await send(.login(.loginResponse(attempt: attempt, .success(session))))
      // A name longer than the rules allow never signs in: no home screen to load.
      if store.state.home != nil {
        let profile = Profile(
          displayName: user.displayName, unreadMessages: cycle % 9, plan: "Free")
        await send(.home(.profileLoaded(profile)))
        await send(.login(.logoutButtonTapped))
      }
    } else {
      await send(.login(.loginResponse(attempt: attempt, .failure(.invalidCredentials))))
      await send(.login(.alertButtonTapped("ok")))
      if store.state.login.isLocked { await send(.login(.lockoutEnded)) }
    }
  }
}
