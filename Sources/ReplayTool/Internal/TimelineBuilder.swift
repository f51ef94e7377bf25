import StateStore

/// Collects what the HTML timeline embeds, one replayed step at a time, in a compact form.
///
/// A page for 100,000 steps must stay smaller than twice its log, so no step carries a full
/// state. Every text — a line of a rendered state, an action, an effect — is stored once in a
/// string table and referred to by number. A step holds its action, its effects, and its
/// state as a *splice* of the previous step's lines (`[start, removed, inserted…]`, or `0`
/// when nothing changed); every ``checkpointInterval`` steps the page also holds the full
/// list of lines, so the page's script rebuilds any state from the checkpoint before it with
/// at most that many splices. Screens are deduplicated the same way: a screen is a list of
/// widget numbers, a step names its screen.
struct TimelineBuilder<R: Reducer, Screen: TimelineScreenRenderer>
where
  R.State: Equatable,
  Screen.State == R.State, Screen.Action == R.Action, Screen.Effect == R.Effect
{
  /// How many steps lie between two full states in the page.
  static var checkpointInterval: Int { 100 }

  private(set) var stepCount = 0
  private var strings = Interner()
  private var dump = IncrementalDump()
  private var partIDs: [TimelineScreenJSON.Part: Int] = [:]
  private var partTexts: [String] = []
  private var screenIDs: [[Int]: Int] = [:]
  private var screenTexts: [String] = []
  private var lastScreen: (screen: TimelineScreen, id: Int)?
  private var renderer: Screen?
  private var lines: [Int]
  private var lastState: R.State

  private var sequenceColumn = ""
  private var originColumn = ""
  private var actionColumn = ""
  private var effectsColumn = ""
  private var spliceColumn = ""
  private var screenColumn = ""
  private var checkpoints: [String] = []
  private var gaps: [String] = []
  private var initialLines: [Int] = []
  private var initialScreen: Int?
  /// The renderer's facts about the log's initial state, for the page's header.
  let facts: [TimelineFact]

  init(initialState: R.State, screen: Screen?) {
    lastState = initialState
    facts = screen?.facts(about: initialState) ?? []
    renderer = screen
    renderer?.reset(to: initialState)
    lines = dump.lines(of: initialState, strings: &strings)
    initialLines = lines
    if let renderer { initialScreen = internScreen(renderer.screen(for: initialState)) }
  }

  /// Adds the next replayed step.
  ///
  /// - Parameters:
  ///   - transition: The step as replayed: its action and effects, the states around it.
  ///   - texts: Its action and effects rendered on one line each (see ``StepTexts``).
  ///   - gap: The transitions the recorder dropped just before it, if any.
  mutating func add(
    _ transition: Transition<R.State, R.Action, R.Effect>, texts: StepTexts, gap: TimelineGap?
  ) {
    if let gap {
      addGap(gap, resumedState: transition.stateBefore)
    }
    let separator = stepCount == 0 ? "" : ","
    sequenceColumn += separator + String(transition.sequenceNumber)
    originColumn += transition.origin == .user ? "u" : "e"
    actionColumn += separator + String(strings.id(texts.action))
    effectsColumn += separator
    JSONText.appendArray(texts.effects.map { strings.id($0) }, to: &effectsColumn)

    spliceColumn += separator
    if transition.stateAfter == lastState {
      spliceColumn += "0"
    } else {
      let newLines = dump.lines(of: transition.stateAfter, strings: &strings)
      appendSplice(from: lines, to: newLines)
      lines = newLines
    }
    lastState = transition.stateAfter
    if stepCount % Self.checkpointInterval == 0 {
      var checkpoint = ""
      JSONText.appendArray(lines, to: &checkpoint)
      checkpoints.append(checkpoint)
    }

    if renderer != nil {
      renderer?.apply(transition)
      let id = renderer.map { internScreen($0.screen(for: transition.stateAfter)) } ?? 0
      screenColumn += separator + String(id)
    }
    stepCount += 1
  }

  /// Records transitions dropped before the step that comes next (or at the end of the log).
  mutating func addGap(_ gap: TimelineGap, resumedState: R.State) {
    renderer?.reset(to: resumedState)
    var json = "{\"before\":\(stepCount),\"line\":\(gap.line),\"count\":\(gap.dropped),\"lines\":"
    JSONText.appendArray(internLines(of: resumedState), to: &json)
    gaps.append(json + "}")
  }

  /// The rendered lines of `state`, as string-table numbers.
  mutating func internLines(of state: R.State) -> [Int] {
    Dump.render(state).split(separator: "\n", omittingEmptySubsequences: false).map {
      strings.id(String($0))
    }
  }

  private mutating func internScreen(_ screen: TimelineScreen) -> Int {
    if let lastScreen, lastScreen.screen == screen { return lastScreen.id }
    var ids: [Int] = []
    for part in TimelineScreenJSON.parts(of: screen) {
      if let id = partIDs[part] {
        ids.append(id)
      } else {
        partIDs[part] = partTexts.count
        ids.append(partTexts.count)
        partTexts.append(TimelineScreenJSON.json(part))
      }
    }
    let id: Int
    if let known = screenIDs[ids] {
      id = known
    } else {
      id = screenTexts.count
      screenIDs[ids] = id
      var text = ""
      JSONText.appendArray(ids, to: &text)
      screenTexts.append(text)
    }
    lastScreen = (screen, id)
    return id
  }

  /// `[start, removed, inserted…]` between two line lists: the common head and tail are kept.
  private mutating func appendSplice(from old: [Int], to new: [Int]) {
    let (head, tail) = old.commonEnds(with: new)
    let removed = old.count - head - tail
    let inserted = new[head..<(new.count - tail)]
    if removed == 0, inserted.isEmpty {
      spliceColumn += "0"
      return
    }
    JSONText.appendArray([head, removed] + inserted, to: &spliceColumn)
  }

  /// The JSON object the page reads, without the verification and end fields (see
  /// ``TimelinePage``).
  func json(feature: String, created: String, checkpointInterval: Int) -> [(String, String)] {
    let stepFields =
      "{\"number\":[\(sequenceColumn)],\"sender\":" + JSONText.string(originColumn)
      + ",\"actionID\":[\(actionColumn)],\"effectIDs\":[\(effectsColumn)]"
      + ",\"splice\":[\(spliceColumn)],\"screen\":[\(screenColumn)]}"
    var initial = ""
    JSONText.appendArray(initialLines, to: &initial)
    return [
      ("featureName", JSONText.string(feature)),
      ("createdAt", JSONText.string(created)),
      ("logCheckpointInterval", String(checkpointInterval)),
      (
        "facts",
        "[" + facts.map { JSONText.array([$0.label, $0.value]) }.joined(separator: ",") + "]"
      ),
      ("stepCount", String(stepCount)),
      ("strings", JSONText.array(strings.texts)),
      ("initial", initial),
      ("initialScreen", initialScreen.map(String.init) ?? "null"),
      ("steps", stepFields),
      ("every", String(Self.checkpointInterval)),
      ("checkpoints", "[" + checkpoints.joined(separator: ",") + "]"),
      ("parts", "[" + partTexts.joined(separator: ",") + "]"),
      ("screens", "[" + screenTexts.joined(separator: ",") + "]"),
      ("gaps", "[" + gaps.joined(separator: ",") + "]"),
    ]
  }
}

/// Numbers texts in order of first appearance.
package struct Interner {
  /// The texts, in order of first appearance: a text's number is its index.
  package private(set) var texts: [String] = []
  private var ids: [String: Int] = [:]

  /// Creates an empty table.
  package init() {}

  /// The number of `text`, added if new.
  package mutating func id(_ text: String) -> Int {
    if let id = ids[text] { return id }
    let id = texts.count
    texts.append(text)
    ids[text] = id
    return id
  }
}

/// Transitions the recorder dropped: where its marker was, and how many.
struct TimelineGap: Sendable, Equatable {
  var line: Int
  var dropped: Int
}

/// A step's action and effects as the step list shows them: `Dump`'s one-line rendering.
///
/// Rendered on the replaying thread, so that the two halves of the work — reading and
/// reducing the log, rendering the states — take about as long as each other.
struct StepTexts: Sendable {
  var action: String
  var effects: [String]

  init<Action, Effect>(_ transition: Transition<some Any, Action, Effect>) {
    action = Dump.renderOneLine(transition.action, limit: nil)
    effects = transition.effects.map { Dump.renderOneLine($0, limit: nil) }
  }
}
