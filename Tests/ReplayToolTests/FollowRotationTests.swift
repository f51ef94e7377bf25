import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// `replay --follow DIR` on a flight recorder that rolls and deletes its segments while the
/// follower reads: every step it prints follows the one before, or a line says how many were
/// rotated out before they could be read.
@MainActor
struct FollowRotationTests {
  @Test(.timeLimit(.minutes(5)))
  func aRotatingFolderIsFollowedToItsLastStep() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let flight = folder.file("flight")
    let replay = try ReplayProcess.executable()
    // Stopped (as with Ctrl-C) once it has followed the recording to its end.
    async let followed = ProcessRunner.run(
      replay, ["--follow", flight.path], environment: ["NO_COLOR": "1"], timeout: .seconds(90),
      interruptWhen: { $0.contains("── the recording ended in segment-") })
    try await Task.sleep(for: .milliseconds(300))
    let store = Store(initialState: LoginState(), reducer: LoginReducer())
    let recorder = try store.recordFlight(
      to: flight, feature: LoginReducer.actionLogFeature,
      options: FlightRecorderOptions(
        budget: 16_384, segmentCount: 4, recording: RecordingOptions(checkpointInterval: 50)))
    for index in 0..<300 {
      store.send(.edit(.set(\.username, to: "user-\(index)")))
      if index % 50 == 49 { try await Task.sleep(for: .milliseconds(100)) }
    }
    await recorder.close()
    let result = try await followed
    #expect(!result.timedOut, "--follow did not reach the end: \(result.stdout.suffix(600))")
    #expect(result.stderr == "")
    var last = 0
    var launches = 0
    for line in result.stdout.split(separator: "\n") {
      if line.hasPrefix("── launch ") { launches += 1 }
      if line.hasPrefix("── "), let count = Int(line.dropFirst(3).prefix { $0.isNumber }),
        line.contains("rotated out")
      {
        last += count
      }
      guard line.hasPrefix("#"), let number = Int(line.dropFirst().prefix { $0.isNumber })
      else { continue }
      #expect(number == last + 1, "step \(number) after \(last), with no rotation said")
      last = number
    }
    #expect(last == 300, "\(result.stdout.suffix(600))")
    #expect(launches == 1)
    #expect(result.stdout.contains("── the recording ended in segment-"))
  }

  @Test(.timeLimit(.minutes(5)))
  func aDivergenceWhileFollowingEndsTheCommandAsVerifyWould() async throws {
    // `--follow` verifies as it goes: the step whose state differs from the recorded
    // checkpoint ends the command with `--verify`'s status and words, without a Ctrl-C.
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    let log = folder.file("divergent.jsonl")
    try FileManager.default.copyItem(
      at: ReplayProcess.fixtures.appendingPathComponent("login-divergent.jsonl"), to: log)
    let result = try await ProcessRunner.run(
      try ReplayProcess.executable(), ["--follow", log.path], environment: ["NO_COLOR": "1"],
      timeout: .seconds(90))
    #expect(!result.timedOut, "--follow kept waiting after the divergence")
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "step 4 (LoginAction.edit(set(password: Secret(Aaaa0)))): the replayed state differs from "
          + "the recorded checkpoint"), "\(result.stderr)")
    #expect(result.stdout.contains("−   password: Secret(Aaaa0a),"))
    #expect(result.stdout.contains("+   password: Secret(Aaaa0),"))
  }
}
