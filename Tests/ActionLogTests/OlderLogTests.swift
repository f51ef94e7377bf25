import ActionLog
import AppFeature
import Foundation
import LoginFeature
import Testing
import ToolTestSupport

/// Logs of earlier forms of the format still read, replay and verify: each form has a committed
/// fixture. `*-unnamed-digest.jsonl` were recorded before headers named their digest algorithm;
/// `login-canonical-v1.jsonl` and `app.jsonl` in the first version of the canonical form
/// (`fnv1a64-canonical-v1`, durations as two words of attoseconds), and they are verified in it.
struct OlderLogTests {
  @Test(arguments: [
    "login-unnamed-digest.jsonl", "app-unnamed-digest.jsonl", "login-canonical-v1.jsonl",
    "app.jsonl",
  ])
  func aLogOfTheFirstCanonicalFormVerifies(name: String) async throws {
    let url = ReplayProcess.fixtures.appendingPathComponent(name)
    let info = try ActionLogHeaderInfo(contentsOf: url)
    #expect(info.digestAlgorithm == "fnv1a64-canonical-v1")
    #expect(ActionLogFormat.digestAlgorithm == "fnv1a64-canonical-v2")
    let run = try await ReplayProcess.run(["--verify", name])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("every state and effect matches the recording"), "\(run.stdout)")
  }

  /// The same session recorded in both forms: `replay` shows the same timeline, the same
  /// state and the same verdict, and `--emit-test` writes the same test.
  @Test(arguments: [["--verify"], ["--state"], ["--until", "6"], ["--emit-test"], []])
  func theToolReadsBothFormsOfTheSameSessionAlike(options: [String]) async throws {
    let v2 = try await ReplayProcess.run(options + ["login.jsonl"])
    let v1 = try await ReplayProcess.run(options + ["login-canonical-v1.jsonl"])
    #expect(v2.status == 0, "\(v2)")
    #expect(v1.status == v2.status)
    #expect(v1.stderr == v2.stderr)
    #expect(
      v1.stdout.replacingOccurrences(of: "login-canonical-v1", with: "login")
        .replacingOccurrences(of: "LoginCanonicalV1", with: "Login") == v2.stdout)
  }

  /// A log recorded before steps had patches reads, replays and verifies as the same session
  /// recorded with them.
  @Test(arguments: [["--verify"], ["--state"], ["--until", "6"], ["--emit-test"], []])
  func aLogWithoutPatchesReadsAsTheSameSessionWithThem(options: [String]) async throws {
    let now = try await ReplayProcess.run(options + ["login.jsonl"])
    let before = try await ReplayProcess.run(options + ["login-before-patches.jsonl"])
    #expect(now.status == 0, "\(now)")
    #expect(before.status == now.status)
    #expect(before.stderr == now.stderr)
    #expect(
      before.stdout.replacingOccurrences(of: "login-before-patches", with: "login")
        .replacingOccurrences(of: "LoginBeforePatches", with: "Login") == now.stdout)
  }

  /// Without patches the recorded state is known at checkpoints only; with them, at every step,
  /// with the step's digest.
  @Test func theRecordedStateIsKnownAtEveryStepOnlyWhereTheLogHasPatches() throws {
    typealias Reader = ActionLogReader<LoginState, LoginAction, LoginEffect>
    func known(_ name: String) throws -> [Int] {
      let reader = try Reader(url: ReplayProcess.fixtures.appendingPathComponent(name))
      var known: [Int] = []
      while case .transition(let step)? = try reader.next() {
        guard let state = try reader.recordedState() else { continue }
        #expect(try StateDigest.of(state) == step.digest, "\(name) step \(step.sequenceNumber)")
        known.append(step.sequenceNumber)
      }
      return known
    }
    #expect(try known("login-before-patches.jsonl") == [4, 8])
    #expect(try known("login.jsonl") == Array(1...10))
  }

  /// A flight recorder's folder where an older launch wrote the first form and a newer one the
  /// second: each segment is verified in the form its header names.
  @Test func aFolderOfSegmentsInBothFormsVerifies() async throws {
    let folder = try TemporaryFolder()
    let flight = folder.url.appendingPathComponent("flight")
    try FileManager.default.createDirectory(at: flight, withIntermediateDirectories: false)
    for (source, segment) in [
      ("login-canonical-v1.jsonl", "segment-000001.jsonl"), ("login.jsonl", "segment-000002.jsonl"),
    ] {
      try FileManager.default.copyItem(
        at: ReplayProcess.fixtures.appendingPathComponent(source),
        to: flight.appendingPathComponent(segment))
    }
    let run = try await ReplayProcess.run(["--verify", "flight"], in: folder.url)
    #expect(run.status == 0, "\(run)")
    #expect(
      run.stdout.contains(
        "verified 20 steps in 2 segments: every state and effect matches the recording"),
      "\(run.stdout)")
  }

  @Test func aDigestAlgorithmThisBuildDoesNotKnowIsNamed() throws {
    let folder = try TemporaryFolder()
    let header =
      #"{"format":"loginstore.actionlog","version":1,"feature":"login","#
      + #""created":"2026-11-22T04:56:22Z","digest":"sha256-canonical-v9","checkpointInterval":4,"#
      + #""initialState":{}}"#
    let url = try folder.write("future.jsonl", lines: [header])
    #expect(
      throws: ActionLogError.malformedLine(
        line: 1,
        reason:
          "the digest algorithm 'sha256-canonical-v9' is not one this build verifies "
          + "(fnv1a64-canonical-v1, fnv1a64-canonical-v2)")
    ) {
      try ActionLogHeaderInfo(contentsOf: url)
    }
  }
}
