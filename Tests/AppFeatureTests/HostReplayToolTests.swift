import AppFeature
import Foundation
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

// The "A replay tool of your own" example of the Composing features article, compiled and run.
// The article shows it as a `main.swift`: these lines, then
// `exit(command.run(Array(CommandLine.arguments.dropFirst())))`.

@MainActor func makeHostReplayCommand() -> ReplayCommand {
  let command = ReplayCommand(features: [
    ReplayableFeature(
      name: "app", reducer: AppReducer(),
      module: "AppFeature", reducerExpression: "AppReducer()")
  ])
  return command
}

@MainActor struct HostReplayToolTests {
  static let fixture = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("ActionLogTests/Fixtures/app.jsonl")

  @Test func theArticlesExampleIsTheCodeThisTestRuns() throws {
    let article = try String(
      contentsOf: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/LoginStore.docc/ComposingFeatures.md"),
      encoding: .utf8)
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let example = """
      let command = ReplayCommand(features: [
        ReplayableFeature(
          name: "app", reducer: AppReducer(),
          module: "AppFeature", reducerExpression: "AppReducer()")
      ])
      exit(command.run(Array(CommandLine.arguments.dropFirst())))
      """
    #expect(article.contains(example))
    let lines = example.split(separator: "\n").dropLast().map { "  " + $0 }
    #expect(source.contains(lines.joined(separator: "\n")))
    let block = article.components(separatedBy: "import ReplayTool\n\n").dropFirst().first
    #expect(block?.hasPrefix(example) == true)
    let program = article.components(separatedBy: "```swift\nimport AppFeature\n").dropFirst()
      .first?.components(separatedBy: "```").first
    #expect(program.map { $0.split(separator: "\n").count + 1 } ?? 99 <= 10)
  }

  @Test func theHostsToolVerifiesAnAppLog() {
    let captured = CapturedReplayOutput()
    let status = makeHostReplayCommand().run(
      ["--verify", Self.fixture.path], output: captured.output)
    #expect(status == 0)
    #expect(
      captured.standardOutput
        == "verified 12 steps: every state and effect matches the recording\n")
    #expect(captured.standardError == "")
  }

  @Test func theHostsToolRefusesALogOfAFeatureItDoesNotKnow() throws {
    let login = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("ActionLogTests/Fixtures/login.jsonl")
    let captured = CapturedReplayOutput()
    let status = makeHostReplayCommand().run([login.path], output: captured.output)
    #expect(status == 2)
    #expect(captured.standardOutput == "")
    #expect(captured.standardError == "replay: unknown feature 'login' (this build knows: app)\n")
  }

  @Test func aToolNamedOtherwiseSaysItsNameInMessagesAndUsage() {
    let command = ReplayCommand(features: makeHostReplayCommand().features, toolName: "app-replay")
    let captured = CapturedReplayOutput()
    #expect(command.run(["--frobnicate"], output: captured.output) == 2)
    #expect(
      captured.standardError
        == "app-replay: unknown option '--frobnicate' (see app-replay --help)\n")
    #expect(command.run(["--help"], output: captured.output) == 0)
    #expect(captured.standardOutput.hasPrefix("usage: app-replay [--verify]"))
    #expect(captured.standardOutput.contains("header; this build knows: app.\n"))
  }
}
