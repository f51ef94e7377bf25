import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A step's line records the values its reducer read, and a replay hands them back: a session
/// of a live store, with random ids, real dates and random numbers, verifies exactly; a line
/// whose recorded inputs were changed diverges at its step, named; a log recorded before
/// reducers had inputs still replays.
@MainActor struct ReducerInputsLogTests {
  /// Records a live session: two cards added, one rerolled, the title changed.
  func recordSession(in folder: TemporaryFolder) async throws -> (URL, Deck) {
    let url = folder.file("deck.jsonl")
    let store = Store(initialState: Deck(), reducer: DeckReducer())
    let recorder = try store.record(to: url, feature: "deck")
    store.send(.addTapped)
    store.send(.addTapped)
    store.send(.rerollTapped(store.state.cards[0].id))
    store.send(.titleChanged("Deck"))
    await recorder.close()
    return (url, store.state)
  }

  func lines(of url: URL) throws -> [String] {
    try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  func replacing(_ line: Int, in url: URL, with text: String) throws {
    var lines = try lines(of: url)
    lines[line] = text
    try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
  }

  @Test func aSessionThatMadeIdsAndReadTheClockReplaysExactly() async throws {
    let folder = try TemporaryFolder()
    let (url, final) = try await recordSession(in: folder)
    let lines = try lines(of: url)
    let first = final.cards[0]
    let id = first.id.uuidString
    let now = String(decoding: try CanonicalJSONEncoder().encode(first.createdAt), as: UTF8.self)
    #expect(lines[1].contains(#""effects":[],"inputs":{"ids":[""# + id + #""],"now":"# + now))
    #expect(lines[3].contains(#""effects":[],"inputs":{"random":["#))
    #expect(!lines[4].contains("inputs"), "a step that read nothing records nothing")

    let result = try Replayer(reducer: DeckReducer()).replay(url, keepingSteps: true)
    #expect(result.finalState == final)
    #expect(result.stepCount == 4)
    #expect(result.steps[0].recordedInputs.ids == [first.id])
    #expect(result.steps[0].transition.inputs == result.steps[0].recordedInputs)
  }

  @Test func everyStepReadsTheSameWhetherItsLineIsReadByLayoutOrWhole() async throws {
    let folder = try TemporaryFolder()
    let (url, _) = try await recordSession(in: folder)
    for line in try lines(of: url).dropFirst().dropLast() {
      let bytes = Data(line.utf8)
      let decoder = CanonicalJSONDecoder()
      let fast: RecordedTransition<Deck, DeckAction, Never>? = StepLineLayout.step(
        in: bytes, using: decoder)
      let whole = try decoder.decode(RecordedTransition<Deck, DeckAction, Never>.self, from: bytes)
      #expect(fast != nil, "the recorder's own layout: \(line)")
      #expect(fast == whole)
      var again = Data()
      try whole.appendLine(to: &again, using: CanonicalJSONEncoder())
      #expect(
        String(decoding: again, as: UTF8.self).hasPrefix(line.prefix(while: { $0 != "d" })),
        "the step's fields encode as the recorder wrote them")
    }
  }

  @Test func anEditedIdDivergesAtItsStepWithTheFieldThatDiffers() async throws {
    let folder = try TemporaryFolder()
    let (url, final) = try await recordSession(in: folder)
    let id = final.cards[1].id.uuidString
    let edited = try lines(of: url)[2].replacingOccurrences(
      of: #""ids":[""# + id, with: #""ids":["00000000-0000-0000-0000-000000000000"#)
    try replacing(2, in: url, with: edited)

    #expect {
      try Replayer(reducer: DeckReducer()).replay(url)
    } throws: { error in
      guard case .divergence(let step, _, let reason, let diff) = error as? ActionLogError else {
        return false
      }
      return step == 2 && reason == "the replayed state differs from the recorded state"
        && diff?.contains("00000000-0000-0000-0000-000000000000") == true
        && diff?.contains(id) == true
    }
  }

  @Test(arguments: [
    // An id taken away: the reducer asks for one the line does not record.
    (2, #""ids":\[[^]]*\],"#, "", "the reducer asked for 1 new id; the step recorded 0"),
    // The date taken away.
    (2, #""now":[0-9.e+-]+,"#, "", "the reducer read the date, which the step did not record"),
    // A second id recorded that the reducer never asks for.
    (
      2, #""ids":\["#, #""ids":["00000000-0000-0000-0000-000000000009","#,
      "the reducer asked for 1 new id; the step recorded 2"
    ),
    // A random number the reducer draws, recorded as an id: another kind.
    (
      3, #""random":\[[0-9]+\]"#, #""ids":["00000000-0000-0000-0000-000000000009"]"#,
      "the reducer asked for no new ids; the step recorded 1"
    ),
    // The random number taken away: the replay draws on past the recorded ones, and stops.
    (
      3, #""inputs":\{"random":\[[0-9]+\]\},"#, "",
      "the reducer asked for 1 random number; the step recorded 0"
    ),
  ])
  func recordedInputsThatDoNotMatchTheReducersAsksDivergeAtTheirStep(
    line: Int, pattern: String, replacement: String, reason: String
  ) async throws {
    let folder = try TemporaryFolder()
    let (url, _) = try await recordSession(in: folder)
    let original = try lines(of: url)[line]
    let edited = original.replacingOccurrences(
      of: pattern, with: replacement, options: .regularExpression)
    #expect(edited != original)
    try replacing(line, in: url, with: edited)

    #expect {
      try Replayer(reducer: DeckReducer()).replay(url)
    } throws: { error in
      guard case .divergence(let step, let action, let found, let diff) = error as? ActionLogError
      else { return false }
      #expect(
        "\(error)" == "step \(line) (\(action)): \(reason)", "named at its step, in one line")
      return step == line && found == reason && diff == nil
    }
  }

  /// A log recorded before reducers had inputs: its lines have no `inputs`, and a reducer that
  /// reads none replays it as before; a reducer that now reads an input diverges at the first
  /// step that reads one, named.
  @Test func aLogWithoutInputsStillReplays() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("old.jsonl")
    let store = Store(initialState: Deck(), reducer: DeckReducer())
    let recorder = try store.record(to: url, feature: "deck")
    store.send(.titleChanged("A"))
    store.send(.titleChanged("B"))
    await recorder.close()
    #expect(try !String(contentsOf: url, encoding: .utf8).contains("inputs"))
    #expect(try Replayer(reducer: DeckReducer()).replay(url).finalState.title == "B")

    let older =
      try lines(of: url).dropLast().joined(separator: "\n") + "\n"
      + #"{"seq":3,"origin":"user","action":{"addTapped":{}},"effects":[],"digest":"0000000000000000"}"#
      + "\n"
    try older.write(to: url, atomically: true, encoding: .utf8)
    #expect {
      try Replayer(reducer: DeckReducer()).replay(url)
    } throws: { error in
      "\(error)"
        == "step 3 (addTapped): the reducer read the date, which the step did not "
        + "record"
    }
  }
}
