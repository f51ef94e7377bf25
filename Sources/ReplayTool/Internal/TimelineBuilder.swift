import ActionLog
import StateStore

/// Collects what the HTML timeline embeds, one replayed step at a time, in a compact form.
///
/// A page for 100,000 steps must stay smaller than twice its log, so no step carries a full
/// state. A state travels as the log's own currency: canonical JSON. A step holds the patch
/// (``StatePatch``) from the state before it, made from the two states' canonical bytes, and
/// the page holds a whole state now and then (a *checkpoint*: once the patches since the last
/// one outweigh the state, or after ``maximumStepsBetweenCheckpoints``), so its script
/// rebuilds any state from the checkpoint before it and renders it as fields when the step is
/// opened, never up front. Every canonical JSON value is held once in the string table, as is
/// every other text; screens are deduplicated the same way: a screen is a list of
/// widget numbers, a step names its screen.
struct TimelineBuilder<R: Reducer, Screen: TimelineScreenRenderer>
where
  R.State: Equatable & Encodable,
  Screen.State == R.State, Screen.Action == R.Action, Screen.Effect == R.Effect
{
  /// The most steps between two whole states in the page: the most patches its script applies
  /// to show a step.
  static var maximumStepsBetweenCheckpoints: Int { 1000 }

  private(set) var stepCount = 0
  private var strings = Interner()
  /// Encodes a state in canonical JSON when the replay did not keep its bytes: the current
  /// form, whatever form the log was written in, so a log of an earlier form shows the same
  /// page.
  private let encoder: CanonicalJSONEncoder
  private var partIDs: [TimelineScreenJSON.Part: Int] = [:]
  /// The number of a part with a long run, by its JSON as the page holds it (the run shared):
  /// not by the part, which would keep every long value whole.
  private var longPartIDs: [String: Int] = [:]
  private var partTexts: [String] = []
  private var screenIDs: [[Int]: Int] = [:]
  private var screenTexts: [String] = []
  private var lastScreen: (screen: TimelineScreen, id: Int)?
  private var renderer: Screen?
  /// The canonical JSON of the state after the last step (or before the first).
  private var stateBytes: [UInt8]
  /// The patch bytes since the last whole state the page holds, and the steps.
  private var sinceCheckpoint = (bytes: 0, steps: 0)

  private var sequenceColumn = ""
  private var originColumn = ""
  private var actionColumn = ""
  private var actionJSONColumn = ""
  private var effectsColumn = ""
  private var patchColumn = ""
  private var screenColumn = ""
  private var clockColumn = ""
  private var sinceColumn = ""
  private var repeatsColumn = ""
  /// One character per step: how it compares with the recording (see ``RecordingCheck``).
  private var recordingColumn = ""
  private var isCheckedStepByStep = false
  private var recordingDifferences: [String] = []
  private var labels: [Int: String] = [:]
  private var notes: [String] = []
  private var hasTimes = false
  private var lastStep: (actionID: Int, effectIDs: [Int], time: Duration?)?
  /// Boolean fields that turned true, by their path: when and at which step.
  private var flagsRaised: [[String]: (time: Duration, number: Int)] = [:]
  /// `[step index, value number]` of each whole state after the initial one.
  private var checkpoints: [String] = []
  private var gaps: [String] = []
  private var initialState = 0
  private var initialScreen: Int?
  /// The renderer's facts about the log's initial state, for the page's header.
  let facts: [TimelineFact]

  init(initialState: R.State, screen: Screen?) {
    facts = screen?.facts(about: initialState) ?? []
    renderer = screen
    renderer?.reset(to: initialState)
    encoder = CanonicalJSONEncoder()
    stateBytes = Self.canonicalBytes(of: initialState, encoder: encoder)
    self.initialState = value(stateBytes)
    if let renderer { initialScreen = internScreen(renderer.screen(for: initialState)) }
  }

  /// Adds the next replayed step.
  ///
  /// - Parameters:
  ///   - transition: The step as replayed: its action and effects, the states around it.
  ///   - texts: Its action and effects on one line each, with their labels (``StepTexts``).
  ///   - gap: The transitions the recorder dropped just before it, if any.
  ///   - check: How it compares with the recording, for a step the verified replay did not
  ///     check (from the first divergence on); `nil` for a step it checked.
  mutating func add(
    _ transition: Transition<R.State, R.Action, R.Effect>, texts: StepTexts, gap: TimelineGap?,
    check: RecordingCheck? = nil
  ) {
    if let gap {
      addGap(gap, resumedState: transition.stateBefore)
    }
    let separator = stepCount == 0 ? "" : ","
    sequenceColumn += separator + String(transition.sequenceNumber)
    originColumn += transition.origin == .user ? "u" : "e"
    let actionID = strings.id(texts.action.text)
    actionColumn += separator + String(actionID)
    actionJSONColumn += separator + String(texts.actionJSON.map { strings.id($0) } ?? -1)
    if labels[actionID] == nil { labels[actionID] = label(of: texts.action) }
    let effectIDs = texts.effects.map { strings.id($0.text) }
    for (id, effect) in zip(effectIDs, texts.effects) where labels[id] == nil {
      labels[id] = label(of: effect)
    }
    effectsColumn += separator
    JSONText.appendArray(effectIDs, to: &effectsColumn)
    addTime(texts.time, separator: separator)

    // Compared by their canonical bytes at every step, never skipped on the host's `==`: an
    // unchanged state has no patch (-1).
    let newBytes = texts.stateBytes ?? canonicalBytes(of: transition.stateAfter)
    var changes: [StatePatch.Change] = []
    if newBytes == stateBytes {
      patchColumn += separator + "-1"
    } else {
      let patch = StatePatch.patch(from: stateBytes, to: newBytes)
      patchColumn += separator + String(value(patch))
      changes = StatePatch.changes(in: patch) ?? []
      sinceCheckpoint.bytes += patch.count
      sinceCheckpoint.steps += 1
      stateBytes = newBytes
    }
    let repeats =
      gap == nil && lastStep?.actionID == actionID && lastStep?.effectIDs == effectIDs
      && !changes.isEmpty && changes.allSatisfy(\.setsANumber)
    repeatsColumn += repeats ? "1" : "0"
    addCheck(check)
    if let time = texts.time {
      noteFlags(changes, time: time, number: transition.sequenceNumber)
    }
    lastStep = (actionID, effectIDs, texts.time)
    if sinceCheckpoint.bytes >= max(stateBytes.count, 1024)
      || sinceCheckpoint.steps >= Self.maximumStepsBetweenCheckpoints
    {
      checkpoints.append("[\(stepCount),\(value(stateBytes))]")
      sinceCheckpoint = (0, 0)
    }

    if renderer != nil {
      renderer?.apply(transition, at: texts.time)
      let id = renderer.map { internScreen($0.screen(for: transition.stateAfter)) } ?? 0
      screenColumn += separator + String(id)
    }
    stepCount += 1
  }

  /// Records transitions dropped before the step that comes next (or at the end of the log).
  mutating func addGap(_ gap: TimelineGap, resumedState: R.State) {
    renderer?.reset(to: resumedState)
    stateBytes = canonicalBytes(of: resumedState)
    sinceCheckpoint = (0, 0)
    var json = "{\"before\":\(stepCount),\"line\":\(gap.line),\"count\":\(gap.dropped),"
    if let text = gap.text { json += "\"mark\":\"launch\",\"text\":" + JSONText.string(text) + "," }
    gaps.append(json + "\"resumed\":\(value(stateBytes))}")
  }

  /// The number of `bytes`, a canonical JSON value (a state, a patch), in the string table: the
  /// page's script parses it when a step needs it, keeping every number and string as
  /// written, and a long string in it is kept once with the other texts that hold it.
  private mutating func value(_ bytes: [UInt8]) -> Int {
    strings.id(String(decoding: bytes, as: UTF8.self))
  }

  /// `state`'s canonical JSON in the current form; for a state that has none, a JSON string
  /// that says why, which the page shows in its place.
  private func canonicalBytes(of state: R.State) -> [UInt8] {
    Self.canonicalBytes(of: state, encoder: encoder)
  }

  private static func canonicalBytes(
    of state: R.State, encoder: CanonicalJSONEncoder
  ) -> [UInt8] {
    do {
      return try encoder.encode(state)
    } catch {
      var bytes: [UInt8] = []
      JSONString.append(
        "(no canonical JSON: \(CanonicalJSON.failure(error, encoding: R.State.self)))",
        escaping: .encoder, to: &bytes)
      return bytes
    }
  }

  private mutating func internScreen(_ screen: TimelineScreen) -> Int {
    if let lastScreen, lastScreen.screen == screen { return lastScreen.id }
    var ids: [Int] = []
    for part in TimelineScreenJSON.parts(of: screen) {
      if let id = partIDs[part] {
        ids.append(id)
        continue
      }
      let json = TimelineScreenJSON.json(part)
      guard json.utf8.count >= Interner.longRun else {
        partIDs[part] = partTexts.count
        ids.append(partTexts.count)
        partTexts.append(json)
        continue
      }
      let shared = strings.sharingRuns(inJSON: json)
      if let id = longPartIDs[shared] {
        ids.append(id)
      } else {
        longPartIDs[shared] = partTexts.count
        ids.append(partTexts.count)
        partTexts.append(shared)
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

  // MARK: - Rows: labels, times, repeats, checks

  /// Notes how the step compares with the recording; a step that differs keeps the fields and
  /// effects that differ, as string numbers.
  private mutating func addCheck(_ check: RecordingCheck?) {
    guard let check else {
      recordingColumn += "v"
      return
    }
    isCheckedStepByStep = true
    recordingColumn.append(check.verdict.rawValue)
    guard
      !check.fieldDiff.isEmpty || !check.recordedEffects.isEmpty || !check.replayedEffects.isEmpty
        || check.note != nil
    else { return }
    var json = "[\(stepCount),"
    JSONText.appendArray(check.fieldDiff.map { strings.id($0) }, to: &json)
    json += ","
    JSONText.appendArray(check.recordedEffects.map { strings.id($0) }, to: &json)
    json += ","
    JSONText.appendArray(check.replayedEffects.map { strings.id($0) }, to: &json)
    json += "," + (check.note.map { String(strings.id($0)) } ?? "-1") + "]"
    recordingDifferences.append(json)
  }

  /// `[breadcrumb, leaf]` of an action or effect, as string numbers; the breadcrumb is -1
  /// without a path.
  private mutating func label(of value: ShownValue) -> String {
    let path = value.breadcrumb.isEmpty ? -1 : strings.id(value.breadcrumb)
    return "[\(path),\(strings.id(value.leaf))]"
  }

  /// The step's time since the start (`m:ss.SSS`) and, in words, since the step before.
  private mutating func addTime(_ time: Duration?, separator: String) {
    guard let time else {
      clockColumn += separator + "null"
      sinceColumn += separator + "-1"
      return
    }
    hasTimes = true
    clockColumn += separator + JSONText.string(TransitionFormatter.clock(time))
    if let previous = lastStep?.time {
      sinceColumn += separator + String(strings.id((time - previous).inWords))
    } else {
      sinceColumn += separator + "-1"
    }
  }

  /// Notes how long a boolean field was true when it turns false again: how long the spinner
  /// ran (`isLoading`), how long a lockout lasted (`isLocked`).
  private mutating func noteFlags(_ changes: [StatePatch.Change], time: Duration, number: Int) {
    for change in changes {
      switch change.value {
      case Self.trueBytes?:
        flagsRaised[change.path] = (time, number)
      case Self.falseBytes?:
        guard let raised = flagsRaised.removeValue(forKey: change.path) else { continue }
        let name = change.name
        let note =
          "\(name) was true for \((time - raised.time).inWords) (from #\(raised.number))"
        notes.append("[\(stepCount),\(strings.id(note))]")
      default:
        continue
      }
    }
  }

  private static var trueBytes: [UInt8] { Array("true".utf8) }
  private static var falseBytes: [UInt8] { Array("false".utf8) }

  /// The long runs the strings and screen parts share (``TimelinePage/runs``).
  var runs: [String] { strings.runs }

  /// The JSON object the page reads, without the verification and end fields and the runs
  /// (see ``TimelinePage``).
  func json(feature: String, created: String, checkpointInterval: Int) -> [(String, String)] {
    let stepFields =
      "{\"number\":[\(sequenceColumn)],\"sender\":" + JSONText.string(originColumn)
      + ",\"actionID\":[\(actionColumn)],\"actionJSON\":[\(actionJSONColumn)]"
      + ",\"effectIDs\":[\(effectsColumn)]"
      + ",\"changes\":[\(patchColumn)],\"screen\":[\(screenColumn)]"
      + ",\"repeats\":" + JSONText.string(repeatsColumn)
      + (isCheckedStepByStep ? ",\"recording\":" + JSONText.string(recordingColumn) : "")
      + (hasTimes ? ",\"clock\":[\(clockColumn)],\"since\":[\(sinceColumn)]" : "") + "}"
    let labelFields = labels.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }
    return [
      ("featureName", JSONText.string(feature)),
      ("createdAt", JSONText.string(created)),
      ("logCheckpointInterval", String(checkpointInterval)),
      (
        "facts",
        "[" + facts.map { JSONText.array([$0.label, $0.value]) }.joined(separator: ",") + "]"
      ),
      ("stepCount", String(stepCount)),
      ("strings", strings.json()),
      ("initial", String(initialState)),
      ("initialScreen", initialScreen.map(String.init) ?? "null"),
      ("steps", stepFields),
      ("checkpoints", "[" + checkpoints.joined(separator: ",") + "]"),
      ("parts", "[" + partTexts.joined(separator: ",") + "]"),
      ("screens", "[" + screenTexts.joined(separator: ",") + "]"),
      ("gaps", "[" + gaps.joined(separator: ",") + "]"),
      ("labels", "{" + labelFields.joined(separator: ",") + "}"),
      ("notes", "[" + notes.joined(separator: ",") + "]"),
      ("recordingDifferences", "[" + recordingDifferences.joined(separator: ",") + "]"),
    ]
  }
}

/// Numbers texts in order of first appearance, and keeps each long run of text once.
///
/// A long value — a 10 KB username — shows up in several texts of a step: the action on one
/// line, its raw JSON, its label, the state's line, the screen's field. Each text is split at
/// its quotes and parentheses, and every run between two of them of at least ``longRun`` UTF-8
/// bytes is kept once, in ``runs``, and referred to by number: a text is then its pieces, the short ones
/// inline and the long ones by number, and the page joins them back. The pieces of a text
/// always join back to exactly the text, whatever its quotes and escapes: a run is a substring,
/// never a value decoded from it.
package struct Interner {
  /// How long a run between quotes must be, in UTF-8 bytes, to be kept once and shared.
  package static var longRun: Int { 256 }

  /// A part of a text: short text kept inline (its own copy: a slice would keep the whole
  /// text alive), or a long run by its number in ``runs``.
  package enum Piece: Hashable, Sendable {
    case text(String)
    case run(Int)
  }

  /// A text as the table keeps it.
  private enum Entry: Hashable {
    case whole(String)
    case pieces([Piece])
  }

  private var entries: [Entry] = []
  private var ids: [Entry: Int] = [:]
  /// The long runs, in order of first appearance: a run's number is its index.
  package private(set) var runs: [String] = []
  private var runIDs: [Substring: Int] = [:]

  /// Creates an empty table.
  package init() {}

  /// How many texts the table holds.
  package var count: Int { entries.count }

  /// The number of `text`, added if new.
  package mutating func id(_ text: String) -> Int {
    let entry = self.entry(text)
    if let id = ids[entry] { return id }
    let id = entries.count
    entries.append(entry)
    ids[entry] = id
    return id
  }

  /// The text numbered `id`, whole.
  package func text(_ id: Int) -> String {
    switch entries[id] {
    case .whole(let text): return text
    case .pieces(let pieces): return joined(pieces)
    }
  }

  /// The texts as the page's `strings` array: a text without long runs as a JSON string, one
  /// with them as an array of its pieces (strings inline, numbers for runs).
  package func json() -> String {
    var json = "["
    for (index, entry) in entries.enumerated() {
      if index > 0 { json += "," }
      switch entry {
      case .whole(let text): json += JSONText.string(text)
      case .pieces(let pieces): json += Self.json(pieces)
      }
    }
    return json + "]"
  }

  /// `json` — JSON text the page reads — with every string literal that holds a long run and no
  /// escape replaced by `{"$":[pieces]}`, which the page joins back into the string.
  package mutating func sharingRuns(inJSON json: String) -> String {
    guard json.utf8.count >= Self.longRun else { return json }
    // Scanned by UTF-8 bytes: a quote is one byte, and a combining mark after it must not hide
    // it (as it would in a `Character`).
    let quote = UInt8(ascii: "\"")
    let backslash = UInt8(ascii: "\\")
    var result = ""
    var rest = Substring(json)
    while let open = rest.utf8.firstIndex(of: quote) {
      result += rest[..<open]
      let afterOpen = rest.utf8.index(after: open)
      guard
        let close = rest.utf8[afterOpen...].firstIndex(where: { $0 == quote || $0 == backslash }),
        rest.utf8[close] == quote
      else {
        // An escape inside: the literal is kept as it is, up to its end.
        let end = Self.endOfLiteral(in: rest, from: afterOpen)
        result += rest[open..<end]
        rest = rest[end...]
        continue
      }
      let content = rest[afterOpen..<close]
      if content.utf8.count >= Self.longRun {
        result += "{\"$\":" + Self.json(pieces(of: content)) + "}"
      } else {
        result += rest[open...close]
      }
      rest = rest[rest.utf8.index(after: close)...]
    }
    return result + rest
  }

  // MARK: - Pieces

  private mutating func entry(_ text: String) -> Entry {
    guard text.utf8.count >= Self.longRun else { return .whole(text) }
    let pieces = pieces(of: Substring(text))
    if pieces.count == 1, case .text = pieces[0] { return .whole(text) }
    return .pieces(pieces)
  }

  /// `text` split at its quotes and parentheses, each run of at least ``longRun`` bytes
  /// between two of them (or before the first, or after the last) kept once.
  private mutating func pieces(of text: Substring) -> [Piece] {
    var pieces: [Piece] = []
    var inline = text.startIndex
    var start = text.startIndex
    func take(_ end: Substring.Index) {
      guard text[start..<end].utf8.count >= Self.longRun else { return }
      if inline < start { pieces.append(.text(String(text[inline..<start]))) }
      let run = text[start..<end]
      if let id = runIDs[run] {
        pieces.append(.run(id))
      } else {
        let owned = String(run)
        runIDs[Substring(owned)] = runs.count
        pieces.append(.run(runs.count))
        runs.append(owned)
      }
      inline = end
    }
    var index = text.startIndex
    while index < text.endIndex {
      if Self.isBoundary(text.utf8[index]) {
        take(index)
        start = text.utf8.index(after: index)
      }
      index = text.utf8.index(after: index)
    }
    take(text.endIndex)
    if inline < text.endIndex { pieces.append(.text(String(text[inline...]))) }
    return pieces
  }

  /// Where runs end: quotes, around a string's text, and parentheses, around a secret's mask
  /// (`Secret(Aaaa0a)`).
  private static func isBoundary(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")")
  }

  private func joined(_ pieces: [Piece]) -> String {
    var text = ""
    for piece in pieces {
      switch piece {
      case .text(let inline): text += inline
      case .run(let id): text += runs[id]
      }
    }
    return text
  }

  private static func json(_ pieces: [Piece]) -> String {
    "["
      + pieces.map { piece in
        switch piece {
        case .text(let inline): JSONText.string(inline)
        case .run(let id): String(id)
        }
      }.joined(separator: ",") + "]"
  }

  /// Just past the closing quote of the JSON string literal whose content starts at `start`.
  private static func endOfLiteral(
    in text: Substring, from start: Substring.Index
  ) -> Substring.Index {
    var index = start
    while index < text.endIndex {
      let byte = text.utf8[index]
      index = text.utf8.index(after: index)
      if byte == UInt8(ascii: "\\"), index < text.endIndex {
        index = text.utf8.index(after: index)
      } else if byte == UInt8(ascii: "\"") {
        return index
      }
    }
    return text.endIndex
  }
}

/// A break in the timeline before a step: transitions the recorder dropped (where its marker
/// was, and how many), or a new launch in a flight recorder's folder (its text). The step
/// after it starts from its own recorded state.
struct TimelineGap: Sendable, Equatable {
  var line: Int
  var dropped: Int
  /// What the row says, for a launch; `nil` for dropped transitions (the page words them).
  var text: String?

  init(line: Int, dropped: Int) {
    self.line = line
    self.dropped = dropped
  }

  /// A launch boundary (and what was rotated out before it).
  init(launch text: String) {
    line = 0
    dropped = 0
    self.text = text
  }
}

/// How a step that the verified replay did not check — the first divergent step and every step
/// after it — compares with the recording: its replayed state against the state the log
/// records (by digest), its replayed effects against the recorded ones (as rendered).
///
/// From the first divergence on, the page shows what the log records (the state its patches
/// rebuild, the recorded effects) and, where the replay differs, the replayed fields and
/// effects beside it.
struct RecordingCheck: Sendable, Equatable {
  enum Verdict: Character, Sendable {
    /// The replayed state has the recorded digest and the effects render the same.
    case same = "s"
    /// The replayed state or effects differ from the recording.
    case differs = "x"
    /// The log holds no state to check the replayed one against (a log recorded before steps
    /// had patches, between its checkpoints), or the check could not be made (see `note`).
    case unknown = "u"
  }

  var verdict: Verdict
  /// The fields that differ, recorded − and replayed + (`CanonicalJSONText`); empty when the states
  /// agree or the recorded state is not known.
  var fieldDiff: [String] = []
  /// The recorded effects, each marked − when the replay did not return it.
  var recordedEffects: [String] = []
  /// The replayed effects, each marked + when the log does not record it.
  var replayedEffects: [String] = []
  /// Why the check is incomplete, when it is.
  var note: String?
}

/// What the page shows of a step, made on the replaying thread (``StepTextMaker``) from
/// canonical JSON: its action and effects on one line each, with their row labels, so that the
/// two halves of the work — reading and reducing the log, building the page — take about as
/// long as each other.
struct StepTexts: Sendable {
  var action: ShownValue
  var effects: [ShownValue]
  /// Its action as the log holds it (see ``StepTextMaker``); `nil` when it has no JSON.
  var actionJSON: String?
  /// When the step happened, since the recording started; `nil` in logs without times.
  var time: Duration?
  /// The canonical bytes, in the current form, of the state after the step, which the verified
  /// replay checked the step's digest over; `nil` when the page must encode the state itself.
  var stateBytes: [UInt8]?

  /// About how many bytes the texts hold (what a batch of steps in flight weighs).
  var byteCount: Int {
    action.text.utf8.count + (actionJSON?.utf8.count ?? 0)
      + effects.reduce(0) { $0 + $1.text.utf8.count } + (stateBytes?.count ?? 0)
  }
}
