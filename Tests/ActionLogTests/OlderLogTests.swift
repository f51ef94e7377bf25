import ActionLog
import AppFeature
import Foundation
import LoginFeature
import Testing
import ToolTestSupport

/// Logs of earlier forms of the format still read, replay and verify: each form has a committed
/// fixture. `*-unnamed-digest.jsonl` were recorded before headers named their digest algorithm.
struct OlderLogTests {
  @Test(arguments: ["login-unnamed-digest.jsonl", "app-unnamed-digest.jsonl"])
  func aLogFromBeforeTheDigestWasNamedVerifies(name: String) async throws {
    let url = ReplayProcess.fixtures.appendingPathComponent(name)
    let info = try ActionLogHeaderInfo(contentsOf: url)
    #expect(info.digestAlgorithm == ActionLogFormat.digestAlgorithm)
    let run = try await ReplayProcess.run(["--verify", name])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("every state and effect matches the recording"), "\(run.stdout)")
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
          + "(fnv1a64-canonical-v1)")
    ) {
      try ActionLogHeaderInfo(contentsOf: url)
    }
  }
}
