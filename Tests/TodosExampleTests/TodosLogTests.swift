import ActionLog
import Foundation
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// A Todos session recorded, replayed, verified and drawn as a timeline, as a host's own replay
/// tool does it: row actions read `todos[id: …]` everywhere.
@MainActor struct TodosLogTests {
  static let command = ReplayCommand(features: [
    ReplayableFeature(
      name: "todos", reducer: TodosReducer(),
      module: "TodosExampleTests", reducerExpression: "TodosReducer()")
  ])

  /// Records: two rows added, the first named and completed, the second deleted.
  func recordSession(in folder: TemporaryFolder) async throws -> URL {
    let url = folder.url.appendingPathComponent("todos.jsonl")
    let store = Store(initialState: TodosState(), reducer: TodosReducer())
    let recorder = try store.record(to: url, feature: "todos")
    store.send(.addTodoButtonTapped)
    store.send(.addTodoButtonTapped)
    store.send(.todos(.row(0, .descriptionChanged("Milk"))))
    store.send(.todos(.row(0, .checkBoxToggled)))
    store.send(.sortCompletedTodos)
    store.send(.delete([0]))
    await recorder.close()
    return url
  }

  @Test func aRowsActionIsLoggedWithItsIdAndReplayedOnThatRow() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    #expect(
      lines[3].contains(
        #""action":{"todos":{"_0":{"action":{"descriptionChanged":{"_0":"Milk"}},"id":0}}}"#))

    let captured = CapturedReplayOutput()
    #expect(Self.command.run([url.path], output: captured.output) == 0)
    #expect(captured.standardError == "")
    let output = captured.standardOutput
    #expect(
      output.contains(#" user todos(action: descriptionChanged("Milk"), id: 0)"#))
    #expect(output.contains(" user todos(action: checkBoxToggled, id: 0)\n"))
    // The field of the row that changed is shown, not the list.
    #expect(
      output.contains("      [1]: {\n  −     description: \"\"\n  +     description: \"Milk\"\n"))
  }

  @Test func aRecordedSessionVerifies() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder)
    let captured = CapturedReplayOutput()
    #expect(Self.command.run(["--verify", url.path], output: captured.output) == 0)
    #expect(
      captured.standardOutput
        == "verified 6 steps: every state and effect matches the recording\n")
  }

  @Test func theTimelineShowsARowsActionUnderItsAddress() async throws {
    let folder = try TemporaryFolder()
    let url = try await recordSession(in: folder)
    let page = folder.url.appendingPathComponent("todos.html")
    let captured = CapturedReplayOutput()
    #expect(
      Self.command.run(["--html", page.path, url.path], output: captured.output) == 0,
      "\(captured.standardError)")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(html.contains(#""todos(action: checkBoxToggled, id: 0)""#))
    #expect(html.contains(#"todos(action: descriptionChanged(\"Milk\"), id: 0)"#))
  }
}
