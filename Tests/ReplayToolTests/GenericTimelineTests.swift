import ActionLog
import Foundation
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// The timeline through the generic replay API: a feature the package knows nothing about,
/// with and without a screen of its own.
@MainActor struct GenericTimelineTests {
  struct Counter: Reducer, Sendable {
    struct State: Codable, Equatable, Sendable {
      var count = 0
      var history: [Int] = []
    }

    enum Action: Codable, Equatable, Sendable {
      case add(Int)
      case reset
    }

    enum Effect: Codable, Equatable, StoreEffect {
      case announce(Int)
    }

    func reduce(into state: inout State, action: Action) -> [Effect] {
      switch action {
      case .add(let amount):
        state.count += amount
        state.history.append(amount)
        return state.count % 10 == 0 ? [.announce(state.count)] : []
      case .reset:
        state = State()
        return []
      }
    }
  }

  /// Counts down a tick at a time; the tick that reaches zero rings.
  struct KitchenTimer: Reducer, Sendable {
    struct State: Codable, Equatable, Sendable {
      var left = 3
    }

    enum Action: Codable, Equatable, Sendable {
      case tick
    }

    enum Effect: Codable, Equatable, StoreEffect {
      case ring
    }

    func reduce(into state: inout State, action: Action) -> [Effect] {
      state.left -= 1
      return state.left == 0 ? [.ring] : []
    }
  }

  /// Shows the count, and how many steps it has seen since the start or a gap.
  struct CounterScreen: TimelineScreenRenderer {
    var stepsSeen = 0

    func facts(about initialState: Counter.State) -> [TimelineFact] {
      [TimelineFact(label: "Start", value: "count \(initialState.count)")]
    }

    mutating func reset(to state: Counter.State) {
      stepsSeen = 0
    }

    mutating func apply(_ transition: Transition<Counter.State, Counter.Action, Counter.Effect>) {
      stepsSeen += 1
    }

    func screen(for state: Counter.State) -> TimelineScreen {
      TimelineScreen(
        title: "Counter", path: ["counter"],
        elements: [.heading("\(state.count)"), .text("\(stepsSeen) steps", tone: .dim)])
    }
  }

  /// The documentation's example: a screen of the state alone, nothing remembered.
  struct PlainCounterScreen: TimelineScreenRenderer {
    typealias Action = Counter.Action
    typealias Effect = Counter.Effect

    func screen(for state: Counter.State) -> TimelineScreen {
      TimelineScreen(title: "Counter", elements: [.heading("\(state.count)")])
    }
  }

  func record(_ actions: [Counter.Action], in folder: TemporaryFolder) async throws -> URL {
    let url = folder.file("counter.jsonl")
    let store = Store(initialState: Counter.State(), reducer: Counter())
    let recorder = try store.record(to: url, feature: "counter")
    for action in actions { store.send(action) }
    await recorder.close()
    return url
  }

  func write(
    _ feature: ReplayableFeature, log: URL, to page: URL
  ) -> (status: Int32, output: String) {
    let captured = Captured()
    let status = ReplayCommand(features: [feature], toolName: "counter-replay")
      .run(["--html", page.path, log.path], output: captured.output)
    return (status, captured.text)
  }

  @Test func aFeatureWithoutAScreenGetsItsStateTreeOnly() async throws {
    let folder = try TemporaryFolder()
    let log = try await record([.add(4), .add(6), .reset, .add(1)], in: folder)
    let feature = ReplayableFeature(
      name: "counter", reducer: Counter(), module: "Tests", reducerExpression: "Counter()")
    let result = write(feature, log: log, to: folder.file("counter.html"))
    #expect(result.status == 0)
    #expect(
      result.output.hasSuffix(
        "counter.html': 4 steps; every state and effect matches the recording\n"))
    let page = try TimelinePageData(contentsOf: folder.file("counter.html"))
    #expect(page.stepCount == 4)
    #expect(page.initialScreen == nil && page.screen(after: 0) == nil)
    #expect(page.facts.isEmpty)
    #expect(page.action(1) == "add(6)")
    #expect(page.effects(1) == ["announce(10)"])
    #expect(
      page.stateLines(after: 1)
        == TimelineCommandTests.lines(of: Counter.State(count: 10, history: [4, 6])))
  }

  @Test func aFeatureWithAScreenGetsItDrawnAtEveryStep() async throws {
    let folder = try TemporaryFolder()
    let log = try await record([.add(4), .add(6), .reset], in: folder)
    let feature = ReplayableFeature(
      name: "counter", reducer: Counter(), module: "Tests", reducerExpression: "Counter()",
      screen: CounterScreen())
    #expect(write(feature, log: log, to: folder.file("counter.html")).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("counter.html"))
    #expect(page.facts == [["Start", "count 0"]])
    #expect(
      page.initialScreen?.summary == [
        "title Counter", "path counter", "heading 0", "text[dim] 0 steps",
      ])
    #expect(
      page.screen(after: 1)?.summary == [
        "title Counter", "path counter", "heading 10", "text[dim] 2 steps",
      ])
    #expect(page.screen(after: 2)?.summary.contains("heading 0") == true)
  }

  @Test func aScreenOfTheStateAloneNeedsOnlyOneMethod() async throws {
    let folder = try TemporaryFolder()
    let log = try await record([.add(4), .add(6)], in: folder)
    let feature = ReplayableFeature(
      name: "counter", reducer: Counter(), module: "Tests", reducerExpression: "Counter()",
      screen: PlainCounterScreen())
    #expect(write(feature, log: log, to: folder.file("counter.html")).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("counter.html"))
    #expect(page.facts.isEmpty)
    #expect(page.screen(after: 1)?.summary == ["title Counter", "heading 10"])
  }

  @Test func onlyAStepWithTheSameActionAndTheSameEffectsRepeatsTheOneBefore() async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("timer.jsonl")
    let store = Store(initialState: KitchenTimer.State(), reducer: KitchenTimer())
    let recorder = try store.record(to: log, feature: "timer")
    for _ in 0..<4 { store.send(.tick) }
    await recorder.close()
    let feature = ReplayableFeature(
      name: "timer", reducer: KitchenTimer(), module: "Tests",
      reducerExpression: "KitchenTimer()")
    #expect(write(feature, log: log, to: folder.file("timer.html")).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("timer.html"))
    try #require(page.stepCount == 4)
    #expect(page.effects(2) == ["ring"])
    // The second tick repeats the first; the third rings, so it starts a row of its own, and
    // the fourth, which does not ring, does not repeat the third.
    #expect(page.repeats == [false, true, false, false])
  }

  /// A board of notes compared by identity, as many `Identifiable` models are: a note's `==`
  /// ignores its label.
  struct Board: Reducer, Sendable {
    struct State: Codable, Equatable, Sendable {
      var pinned = NoteComparedByID(id: 0, label: "draft")
      var notes = [NoteComparedByID(id: 1, label: "draft")]
    }

    enum Action: Codable, Equatable, Sendable {
      case publishPinned
      case publishNotes
    }

    func reduce(into state: inout State, action: Action) -> [Never] {
      switch action {
      case .publishPinned: state.pinned.label = "published"
      case .publishNotes: state.notes[0].label = "published"
      }
      return []
    }
  }

  /// The State tab shows what the state holds, whatever a host's `==` says: a label renamed
  /// on a note whose `==` ignores labels is shown renamed, at the top and in a list.
  @Test func theStateTabShowsAFieldAHostEqualityIgnores() async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("board.jsonl")
    let store = Store(initialState: Board.State(), reducer: Board())
    let recorder = try store.record(to: log, feature: "board")
    store.send(.publishPinned)
    store.send(.publishNotes)
    await recorder.close()
    let feature = ReplayableFeature(
      name: "board", reducer: Board(), module: "Tests", reducerExpression: "Board()")
    #expect(write(feature, log: log, to: folder.file("board.html")).status == 0)
    let page = try TimelinePageData(contentsOf: folder.file("board.html"))
    var state = Board.State()
    state.pinned.label = "published"
    #expect(page.stateLines(after: 0) == TimelineCommandTests.lines(of: state))
    state.notes[0].label = "published"
    #expect(page.stateLines(after: 1) == TimelineCommandTests.lines(of: state))
  }

  /// Twelve notes compared by identity: the printed diff folds them on `==`'s word.
  struct Shelf: Reducer, Sendable {
    struct State: Codable, Equatable, Sendable {
      var notes = (0..<12).map { NoteComparedByID(id: $0, label: "draft \($0)") }
    }

    enum Action: Codable, Equatable, Sendable {
      case publish(Int)
      case look
    }

    func reduce(into state: inout State, action: Action) -> [Never] {
      if case .publish(let index) = action { state.notes[index].label = "published" }
      return []
    }
  }

  /// `replay LOG` and `replay FOLDER` print the change a host's `==` hides in a long run: the
  /// step's diff is made of bytes, so the renamed note shows under its index instead of the
  /// step reading "(no state change)". A step that changed nothing still says so.
  @Test func thePrintedReplayShowsAChangeInARunTheDiffFolds() async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("shelf.jsonl")
    let flights = folder.file("flights")
    let store = Store(initialState: Shelf.State(), reducer: Shelf())
    let recorder = try store.record(to: log, feature: "shelf")
    let flightRecorder = try store.recordFlight(to: flights, feature: "shelf")
    store.send(.publish(5))
    store.send(.look)
    await recorder.close()
    await flightRecorder.close()
    let feature = ReplayableFeature(
      name: "shelf", reducer: Shelf(), module: "Tests", reducerExpression: "Shelf()")
    for path in [log.path, flights.path] {
      let captured = Captured()
      let status = ReplayCommand(features: [feature], toolName: "shelf-replay")
        .run([path], output: captured.output)
      #expect(status == 0, "\(captured.text)")
      let steps = captured.text.components(separatedBy: "\n\n").filter { $0.hasPrefix("#") }
      try #require(steps.count == 2, "\(captured.text)")
      #expect(steps[0].contains("      [5]: {\n"), "\(steps[0])")
      #expect(steps[0].contains(#"−     label: "draft 5""#), "\(steps[0])")
      #expect(steps[0].contains(#"+     label: "published""#), "\(steps[0])")
      #expect(!steps[0].contains("no state change"), "\(steps[0])")
      #expect(steps[1].hasSuffix("(no state change)\n"), "\(steps[1])")
    }
  }

  /// The new build renames the pinned note where the recorded one left it, which the note's
  /// `==` cannot see.
  struct Pinboard: Reducer, Sendable {
    var renames = false

    func reduce(into state: inout Board.State, action: Board.Action) -> [Never] {
      switch action {
      case .publishPinned: if renames { state.pinned.label = "renamed" }
      case .publishNotes:
        state.notes.append(NoteComparedByID(id: state.notes.count + 1, label: ""))
      }
      return []
    }
  }

  /// A replay that differs only in a field `==` ignores: `--verify`, which checks every step's
  /// bytes, reports step 2, where it began; so does the page, which marks step 1 as matching
  /// and step 2 as the divergence; the steps after it differ too.
  @Test func aDivergenceTheStatesEqualityMissesIsShownWhereItBegan() async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("pins.jsonl")
    let store = Store(initialState: Board.State(), reducer: Pinboard())
    let recorder = try store.record(
      to: log, feature: "pins", options: RecordingOptions(checkpointInterval: 4))
    let flights = try store.recordFlight(
      to: folder.file("flights"), feature: "pins",
      options: FlightRecorderOptions(recording: RecordingOptions(checkpointInterval: 4)))
    for action in [Board.Action.publishNotes, .publishPinned, .publishNotes, .publishNotes] {
      store.send(action)
    }
    await recorder.close()
    await flights.close()
    let feature = ReplayableFeature(
      name: "pins", reducer: Pinboard(renames: true), module: "Tests",
      reducerExpression: "Pinboard(renames: true)")
    let command = ReplayCommand(features: [feature], toolName: "pins-replay")
    let verified = Captured()
    #expect(command.run(["--verify", log.path], output: verified.output) == 1)
    #expect(
      verified.text.contains(
        "pins-replay: step 2 (publishPinned): the replayed state differs from the recorded "
          + "state\n"),
      "\(verified.text)")
    #expect(verified.text.contains(#"+   label: "renamed""#), "\(verified.text)")
    // Stopped at step 3, before the checkpoint: every step replayed was checked.
    let stopped = Captured()
    #expect(command.run(["--verify", "--until", "3", log.path], output: stopped.output) == 1)
    #expect(
      stopped.text.contains(
        "pins-replay: step 2 (publishPinned): the replayed "),
      "\(stopped.text)")

    let paged = Captured()
    let pageStatus = command.run(
      ["--html", folder.file("p.html").path, log.path], output: paged.output)
    #expect(pageStatus == 0, "\(paged.text)")
    let page = try TimelinePageData(contentsOf: folder.file("p.html"))
    #expect(page.verify["index"] as? Int == 1, "\(page.verify)")
    #expect(page.verify["cause"] as? String == "the replayed state differs from the recorded state")
    #expect(page.steps["recording"] as? String == "vxxx", "\(page.steps)")
    // A flight recorder's folder: its page ends at the divergence, step 2.
    let folderPage = Captured()
    let status = command.run(
      ["--html", folder.file("f.html").path, folder.file("flights").path],
      output: folderPage.output)
    #expect(status == 0, "\(folderPage.text)")
    #expect(
      folderPage.text.hasSuffix(
        ": 1 step in 1 segment; step 2 diverges from the recording (the page ends there)\n"),
      "\(folderPage.text)")
  }

  @Test func aLogOfAnotherFeatureIsRefusedWithoutAPage() async throws {
    let folder = try TemporaryFolder()
    let log = ReplayProcess.fixtures.appendingPathComponent("login.jsonl")
    let feature = ReplayableFeature(
      name: "counter", reducer: Counter(), module: "Tests", reducerExpression: "Counter()")
    let result = write(feature, log: log, to: folder.file("x.html"))
    #expect(result.status == 2)
    #expect(
      result.output == "counter-replay: unknown feature 'login' (this build knows: counter)\n")
    #expect(try folder.names().isEmpty)
  }
}

/// Everything a `ReplayOutput` was given, standard output and standard error in one text.
final class Captured: Sendable {
  private let storage = Guarded("")
  var text: String { storage.withLock { $0 } }

  var output: ReplayOutput {
    ReplayOutput(
      isColored: false, write: { piece in self.storage.withLock { $0 += piece } },
      writeError: { piece in self.storage.withLock { $0 += piece } })
  }
}
