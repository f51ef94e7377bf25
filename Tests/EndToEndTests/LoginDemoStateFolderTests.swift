import ActionLog
import AppFeature
import Foundation
import LoginFeature
import Testing
import ToolTestSupport

/// `login-demo --state-dir` where the folder fights back: files it did not write, a folder
/// where its file should be, a read-only folder, and several instances at once. Real
/// processes, real files, and (as root) a real read-only mount.
struct LoginDemoStateFolderTests {
  private static let relaunchFolder = DemoProcess.scriptsFolder.appendingPathComponent("Relaunch")

  private func script(_ name: String) -> URL {
    Self.relaunchFolder.appendingPathComponent("\(name).script")
  }

  private func golden(_ name: String) -> URL {
    Self.relaunchFolder.appendingPathComponent("\(name).expected.txt")
  }

  /// Six launches recording into one flight-recorder folder at once: each creates its segment
  /// exclusively, so none writes into another's, and every launch's steps replay.
  @Test(.timeLimit(.minutes(5)))
  func launchesRecordingIntoOneFolderAtOnceKeepEverySegment() async throws {
    let folder = try TemporaryFolder()
    let flight = folder.file("flight")
    let launches = 6
    try await withThrowingTaskGroup(of: DemoProcess.Output.self) { group in
      for _ in 0..<launches {
        group.addTask {
          try await DemoProcess.run(
            ["--flight-recorder", flight.path],
            stdin: DemoProcess.scriptsFolder.appendingPathComponent("success-logout.script"))
        }
      }
      for try await run in group { #expect(run.status == 0, "\(run.stderr)") }
    }
    let recording = try FlightRecording(folder: flight)
    #expect(recording.segments.map(\.number) == Array(1...launches))
    let replay = recording.replay(
      with: AppReducer(), options: ActionLogReadOptions(expectedFeature: "app"))
    var starts = 0
    var steps: [Int] = []
    while let event = try replay.next() {
      switch event {
      case .launch: starts += 1
      case .step(let step): steps.append(step.sequenceNumber)
      case .rotatedOut: Issue.record("nothing was rotated out")
      }
    }
    #expect(starts == launches)
    #expect(replay.warnings.isEmpty)
    // Every launch replays the same steps, from 1.
    let perLaunch = steps.count / launches
    #expect(steps.count == perLaunch * launches)
    #expect(steps == Array(repeating: Array(1...perLaunch), count: launches).flatMap { $0 })
    let verify = try await DemoProcess.run(["--verify", flight.path], tool: "replay")
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(
      verify.stdout.hasSuffix(
        "in \(launches) segments: every state and effect matches the recording\n"))
  }

  @Test func filesTheAppDidNotWriteAreNamedAndLeftAsTheyAre() async throws {
    let folder = try TemporaryFolder()
    let session = folder.file("session.json")
    let lockout = folder.file("lockout.json")
    let foreign = Data(#"{"name":"x"}"#.utf8)
    try foreign.write(to: session)
    try Data("notes\n".utf8).write(to: lockout)
    let log = folder.file("launch.jsonl")
    let run = try await DemoProcess.run(
      ["--state-dir", folder.url.path, "--record", log.path], stdin: script("relaunch"))
    #expect(run.status == 0, "\(run.stderr)")
    Golden.expect(run.stdout, matches: golden("foreign"))
    #expect(try Data(contentsOf: session) == foreign)
    #expect(try Data(contentsOf: lockout) == Data("notes\n".utf8))

    // A sign-in cannot save over the foreign session file, and says so.
    let signIn = try await DemoProcess.run(
      ["--state-dir", folder.url.path], stdin: script("sign-in-told"))
    #expect(signIn.status == 0, "\(signIn.stderr)")
    Golden.expect(signIn.stdout, matches: golden("foreign-sign-in"))
    #expect(try Data(contentsOf: session) == foreign)

    // The restore's problems are actions in the log, and replay.
    let result = try Replayer(reducer: AppReducer()).replay(
      log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
    let record = LaunchRecord(
      sessionProblem: "session.json: not a loginstore.session file",
      lockoutProblem: "lockout.json: not valid JSON")
    #expect(result.steps.map(\.transition.action).last == .login(.restored(record, at: start)))
    #expect(result.steps.last?.transition.effects == [])
  }

  private let start = Date(timeIntervalSince1970: 1_767_225_600)

  @Test func aFolderWhereTheSessionFileGoesMakesTheSignInSayItWillNotLast() async throws {
    let folder = try TemporaryFolder()
    try FileManager.default.createDirectory(
      at: folder.file("session.json"), withIntermediateDirectories: false)
    let log = folder.file("sign-in.jsonl")
    let run = try await DemoProcess.run(
      ["--state-dir", folder.url.path, "--record", log.path], stdin: script("sign-in-told"))
    #expect(run.status == 0, "\(run.stderr)")
    Golden.expect(run.stdout, matches: golden("session-folder"))
    var isFolder: ObjCBool = false
    #expect(
      FileManager.default.fileExists(
        atPath: folder.file("session.json").path, isDirectory: &isFolder)
        && isFolder.boolValue)
    let result = try Replayer(reducer: AppReducer()).replay(
      log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
    #expect(
      result.steps.map(\.transition.action).contains(
        .login(
          .storageFailed(
            StorageFailure(
              .saveSession, reason: "session.json: is not a regular file; refusing to replace it"))
        )))
  }

  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aLogoutInAReadOnlyFolderSaysTheSessionStays() async throws {
    let folder = try TemporaryFolder()
    let signIn = try await DemoProcess.run(
      ["--state-dir", folder.url.path], stdin: script("sign-in"))
    #expect(signIn.status == 0, "\(signIn.stderr)")
    let view = try Mount.readOnlyView(of: folder.url)
    let logout = try await DemoProcess.run(
      ["--state-dir", view.url.path], stdin: script("logout"))
    #expect(logout.status == 0, "\(logout.stderr)")
    Golden.expect(logout.stdout, matches: golden("read-only-logout"))
    // The session is still there: the person was told, and the next launch is signed in.
    #expect(FileManager.default.fileExists(atPath: folder.file("session.json").path))
  }

  @Test(.enabled(if: Mount.isAvailable, "needs root and a kernel that allows mounts"))
  func aFullDiskLocksTheFormAndSaysTheAttemptsAreNotKept() async throws {
    let disk = try Mount.smallDisk(bytes: 32 * 1024)
    let filler = disk.url.appendingPathComponent("filler")
    #expect(FileManager.default.createFile(atPath: filler.path, contents: nil))
    let handle = try FileHandle(forWritingTo: filler)
    do {
      while true { try handle.write(contentsOf: Data(count: 4_096)) }
    } catch {
      // Full.
    }
    try handle.close()
    let run = try await DemoProcess.run(
      ["--state-dir", disk.url.path], stdin: script("five-failures"))
    #expect(run.status == 0, "\(run.stderr)")
    Golden.expect(run.stdout, matches: golden("full-disk"))
  }

  /// Three instances on one folder, four wrong passwords each: every failure is kept, and the
  /// next launch is locked.
  @Test func threeInstancesCountEveryFailedAttempt() async throws {
    let folder = try TemporaryFolder()
    let state = folder.file("state")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
    let logs = (1...3).map { folder.file("instance-\($0).jsonl") }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for log in logs {
        group.addTask {
          // An instance that finds the form locked by the others stops at a missing alert.
          _ = try await DemoProcess.run(
            ["--state-dir", state.path, "--record", log.path], stdin: script("four-failures"))
        }
      }
      try await group.waitForAll()
    }
    var failures = 0
    for log in logs {
      let result = try Replayer(reducer: AppReducer()).replay(
        log, keepingSteps: true, options: ActionLogReadOptions(expectedFeature: "app"))
      failures += result.steps.count {
        if case .login(.loginResponse(_, .failure(.invalidCredentials))) = $0.transition.action {
          true
        } else {
          false
        }
      }
    }
    #expect(failures >= 5)
    let kept = try String(contentsOf: state.appendingPathComponent("lockout.json"), encoding: .utf8)
    #expect(kept.contains(#""failedAttempts":\#(failures),"#), "\(kept)")
    let relaunch = try await DemoProcess.run(
      ["--state-dir", state.path], stdin: script("relaunch"))
    #expect(
      relaunch.stdout.contains("Locked after 5 failed attempts. Try again in"), "\(relaunch.stdout)"
    )
  }
}
