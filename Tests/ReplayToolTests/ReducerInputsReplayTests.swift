import ActionLog
import Foundation
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// `replay --verify` of a session whose reducer made new ids, read the clock and drew random
/// numbers: the log holds each step's values, so the replay reproduces every step; a changed
/// value is a divergence at its step; the page shows the session.
@MainActor struct ReducerInputsReplayTests {
  static let command = ReplayCommand(features: [
    ReplayableFeature(
      name: "deck", reducer: DeckReducer(), module: "ToolTestSupport",
      reducerExpression: "DeckReducer()")
  ])

  func recordSession(in folder: TemporaryFolder) async throws -> URL {
    let url = folder.file("deck.jsonl")
    let store = Store(initialState: Deck(), reducer: DeckReducer())
    let recorder = try store.record(to: url, feature: "deck")
    store.send(.addTapped)
    store.send(.addTapped)
    store.send(.rerollTapped(store.state.cards[1].id))
    await recorder.close()
    return url
  }

  @Test func aSessionWithNewIdsDatesAndRandomNumbersVerifies() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder)
    let captured = CapturedReplayOutput()
    #expect(Self.command.run(["--verify", url.path], output: captured.output) == 0)
    #expect(
      captured.standardOutput == "verified 3 steps: every state and effect matches the recording\n")
    #expect(captured.standardError == "")

    let page = folder.file("deck.html")
    let drawn = CapturedReplayOutput()
    #expect(Self.command.run(["--html", page.path, url.path], output: drawn.output) == 0)
    #expect(drawn.standardOutput.hasSuffix("every state and effect matches the recording\n"))
  }

  @Test func aChangedDateIsADivergenceAtItsStep() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder)
    var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    lines[2] = lines[2].replacingOccurrences(
      of: #""now":[0-9.e+-]+"#, with: #""now":0"#, options: .regularExpression)
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)

    let captured = CapturedReplayOutput()
    #expect(Self.command.run(["--verify", url.path], output: captured.output) == 1)
    let output = captured.standardOutput + captured.standardError
    #expect(
      output.contains(
        "step 2 (addTapped): the replayed state differs from the recorded state"),
      "\(output)")
    #expect(output.contains("createdAt: 0"), "\(output)")
  }
}
