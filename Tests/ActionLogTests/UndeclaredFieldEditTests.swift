import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A form with one field declared for edits and one left out.
private struct ProfileForm: Reducer {
  struct State: Equatable, Codable, Sendable, EditableFields {
    var name = ""
    var nickname = ""

    static let fields: [EditableField<State>] = [EditableField("name", \.name)]
  }

  enum Action: Equatable, Codable, Sendable {
    case edit(FieldEdit<State>)
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .edit(let edit): edit.apply(to: &state)
    }
    return []
  }
}

/// An edit of a field the state does not declare cannot be recorded in a form its reader
/// refuses (it wrote `"field":""`, which the reader then rejected): the recorder stops before
/// it, says why with the key path, and what was written reads back.
@MainActor struct UndeclaredFieldEditTests {
  @Test func anUndeclaredEditStopsTheRecordingNamingTheKeyPathAndTheLogReadsBack() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("profile.jsonl")
    let errors = Guarded<[ActionLogError]>([])
    let store = Store(initialState: ProfileForm.State(), reducer: ProfileForm())
    let recorder = try store.record(to: url, feature: "profile") { error in
      errors.withLock { $0.append(error) }
    }
    store.send(.edit(.set(\.name, to: "Ada")))
    let warnings = WarningLog()
    RuntimeWarning.$reporter.withValue(warnings.reporter) {
      store.send(.edit(.set(\.nickname, to: "A")))
    }
    store.send(.edit(.set(\.name, to: "Ada L")))
    await recorder.close()

    #expect(
      warnings.messages == [
        "FieldEdit<State>: the key path \\State.nickname is not one of State.fields; declare "
          + "it there (the edit changes nothing)"
      ])
    let reported = errors.withLock { $0 }
    #expect(reported.count == 1)
    let message = try #require(reported.first).description
    #expect(message.contains("an edit of an undeclared field cannot be recorded"), "\(message)")
    #expect(message.contains("\\State.nickname"), "\(message)")
    #expect(!(try String(contentsOf: url, encoding: .utf8)).contains(#""field":"""#))

    let replay = try Replayer(reducer: ProfileForm()).replay(url, verify: true)
    #expect(replay.stepCount == 1)
    #expect(replay.finalState.name == "Ada")
  }
}
