import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// The line types of `ActionLogFormat.swift`: for each, the recorder's writer and the type's
/// `Decodable` agree (the bytes read back as the same value, on their own and through
/// `ActionLogReader`), and for the header and the step, whose `Encodable` conformances are
/// public, the writer and `encode(to:)` give the same bytes, keys in the same order.
struct ActionLogFormatTests {
  typealias Step = RecordedTransition<Counter.State, Counter.Action, Counter.Effect>
  typealias Gap = ActionLogFormat.Gap<Counter.State>

  static let header = ActionLogHeader(
    feature: #"count"er/\é"#, created: Date(timeIntervalSince1970: 1_800_000_000),
    checkpointInterval: 3, initialState: Counter.State(count: -2, isLoading: true))

  static let steps = [
    Step(
      sequenceNumber: 1, origin: .user, action: .increment, effects: [], digest: "a3f0c9e2d4b61785"),
    Step(
      sequenceNumber: 2, time: .milliseconds(1_250), origin: .user, action: .loadTapped,
      effects: [.load, .load], digest: "0123456789abcdef"),
    Step(
      sequenceNumber: 3, origin: .effect, action: .loaded(7), effects: [],
      // The checkpoint's own digest: the reader checks it.
      digest: "bfa42bd052549478",
      checkpoint: Counter.State(count: 7, isLoading: false)),
  ]

  static let gap = Gap(dropped: 12, state: Counter.State(count: 40, isLoading: false))

  @Test func headerWriterAgreesWithDecodableAndEncodable() throws {
    let line = try Self.written(Self.header.appendLine)
    try expectAgreement(Self.header, line)
    #expect(
      String(decoding: line, as: UTF8.self)
        == #"{"format":"loginstore.actionlog","version":1,"feature":"count\"er\/\\é","#
        + #""created":"2027-01-15T08:00:00Z","digest":"fnv1a64-canonical-v2","#
        + #""checkpointInterval":3,"#
        + #""initialState":{"count":-2,"isLoading":true}}"#)
  }

  /// A flight recorder's segment names its launch, after the digest algorithm.
  @Test func aHeaderWithItsLaunchAgreesWithDecodableAndEncodable() throws {
    var header = Self.header
    header.launch = "5b0e7c1a-launch"
    let line = try Self.written(header.appendLine)
    try expectAgreement(header, line)
    #expect(
      String(decoding: line, as: UTF8.self).contains(
        #""digest":"fnv1a64-canonical-v2","launch":"5b0e7c1a-launch","checkpointInterval":3,"#))
  }

  @Test func stepWriterAgreesWithDecodableAndEncodable() throws {
    for step in Self.steps {
      try expectAgreement(step, try Self.written(step.appendLine))
    }
    #expect(
      String(decoding: try Self.written(Self.steps[0].appendLine), as: UTF8.self)
        == #"{"seq":1,"origin":"user","action":{"increment":{}},"effects":[],"#
        + #""digest":"a3f0c9e2d4b61785"}"#)
    #expect(
      String(decoding: try Self.written(Self.steps[2].appendLine), as: UTF8.self)
        == #"{"seq":3,"origin":"effect","action":{"loaded":{"_0":7}},"effects":[],"#
        + #""digest":"bfa42bd052549478","checkpoint":{"count":7,"isLoading":false}}"#)
  }

  /// A step's time is whole milliseconds after `seq`; the reader's shortcut for the recorder's
  /// layout reads it, and a line without one (an older log) reads as no time.
  @Test func aStepsTimeIsWrittenAndReadInMilliseconds() throws {
    let line = try Self.written(Self.steps[1].appendLine)
    #expect(
      String(decoding: line, as: UTF8.self)
        == #"{"seq":2,"time":1250,"origin":"user","action":{"loadTapped":{}},"#
        + #""effects":[{"load":{}},{"load":{}}],"digest":"0123456789abcdef"}"#)
    let quick: Step? = StepLineLayout.step(in: line, using: CanonicalJSONDecoder())
    #expect(quick?.time == .milliseconds(1_250))
    #expect(try JSONDecoder().decode(Step.self, from: line).time == .milliseconds(1_250))
    let zero = Step(
      sequenceNumber: 5, time: .zero, origin: .effect, action: .increment, effects: [],
      digest: "a3f0c9e2d4b61785")
    let zeroLine = try Self.written(zero.appendLine)
    #expect(String(decoding: zeroLine, as: UTF8.self).hasPrefix(#"{"seq":5,"time":0,"origin""#))
    #expect(
      (StepLineLayout.step(in: zeroLine, using: CanonicalJSONDecoder()) as Step?)?.time == .zero)
    let old = Data(
      #"{"seq":1,"origin":"user","action":{"increment":{}},"effects":[],"digest":"a3f0c9e2d4b61785"}"#
        .utf8)
    #expect((StepLineLayout.step(in: old, using: CanonicalJSONDecoder()) as Step?)?.time == nil)
    // Sub-millisecond parts are cut, not rounded.
    let fine = Step(
      sequenceNumber: 6, time: .microseconds(2_999), origin: .user, action: .increment,
      effects: [], digest: "a3f0c9e2d4b61785")
    #expect(
      String(decoding: try Self.written(fine.appendLine), as: UTF8.self).contains(#""time":2,"#))
  }

  @Test func gapWriterAgreesWithDecodable() throws {
    let line = try Self.written(Self.gap.appendLine)
    try expectDecodes(Self.gap, line)
    #expect(
      String(decoding: line, as: UTF8.self)
        == #"{"kind":"gap","dropped":12,"state":{"count":40,"isLoading":false}}"#)
  }

  @Test func stoppedWriterAgreesWithDecodable() throws {
    let expected = [
      #"{"kind":"stopped","reason":"maximumFileSize","limit":1048576}"#,
      #"{"kind":"stopped","reason":"maximumFileSize"}"#,
      #"{"kind":"stopped","reason":"lineTooLong","limit":16777216}"#,
    ]
    let markers = [
      ActionLogFormat.Stopped(reason: .maximumFileSize, limit: 1_048_576),
      ActionLogFormat.Stopped(reason: .maximumFileSize, limit: nil),
      ActionLogFormat.Stopped(reason: .lineTooLong, limit: 16_777_216),
    ]
    for (marker, text) in zip(markers, expected) {
      let line = try Self.written(marker.appendLine)
      try expectDecodes(marker, line)
      #expect(String(decoding: line, as: UTF8.self) == text)
    }
  }

  @Test func closedWriterAgreesWithDecodable() throws {
    let line = try Self.written(ActionLogFormat.Closed().appendLine)
    try expectDecodes(ActionLogFormat.Closed(), line)
    #expect(String(decoding: line, as: UTF8.self) == #"{"kind":"closed"}"#)
  }

  @Test func aMarkerTypeRefusesAnotherKindOfLine() throws {
    let stopped = try Self.written(
      ActionLogFormat.Stopped(reason: .lineTooLong, limit: 1).appendLine)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Gap.self, from: stopped) }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ActionLogFormat.Closed.self, from: stopped)
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ActionLogFormat.Stopped.self, from: Data(#"{"kind":"closed"}"#.utf8))
    }
  }

  /// Every line type's writer, one after the other, read back through `ActionLogReader`.
  @Test func aLogOfEveryLineTypeReadsBackThroughTheReader() throws {
    let folder = try TemporaryFolder()
    let afterGap = Step(
      sequenceNumber: 20, origin: .user, action: .add(3), effects: [], digest: "00000000000000ff")
    let stopped = ActionLogFormat.Stopped(reason: .maximumFileSize, limit: 4096)
    let warning = ActionLogFormat.Warning(message: "cannot delete segment-000001.jsonl")
    var writers: [Writer] = [Self.header.appendLine]
    writers += Self.steps.map { $0.appendLine }
    writers += [Self.gap.appendLine, warning.appendLine, afterGap.appendLine, stopped.appendLine]
    var log = Data()
    for writer in writers {
      log.append(try Self.written(writer))
      log.append(UInt8(ascii: "\n"))
    }
    let url = folder.file("every-line.jsonl")
    try log.write(to: url)

    let reader = try ActionLogReader<Counter.State, Counter.Action, Counter.Effect>(url: url)
    #expect(reader.header == Self.header)
    var read: [Step] = []
    var gaps: [Gap] = []
    while let entry = try reader.next() {
      switch entry {
      case .transition(let step): read.append(step)
      case .gap(let line, let dropped, let state):
        #expect(line == 5)
        gaps.append(Gap(dropped: dropped, state: state))
      }
    }
    let expected = (Self.steps + [afterGap]).enumerated().map { index, step in
      var step = step
      step.line = index < 3 ? index + 2 : 7
      return step
    }
    #expect(read == expected)
    #expect(gaps == [Self.gap])
    #expect(
      reader.warnings == [
        .transitionsDropped(line: 5, count: 12),
        .recorderWarning(line: 6, message: "cannot delete segment-000001.jsonl"),
        .recordingStopped(line: 8, reason: "the file reached its size limit of 4096 bytes"),
      ])
  }

  /// The recorder's `warning` line: written as specified, read back as a warning, and its
  /// words — which come from a file — shown with their control characters visible.
  @Test func aWarningLineIsReadAsAWarningItsTextShownSafely() throws {
    let line = try Self.written(
      ActionLogFormat.Warning(message: "cannot delete 'a\u{1B}[2Jb': \"busy\"").appendLine)
    #expect(
      String(decoding: line, as: UTF8.self)
        == #"{"kind":"warning","reason":"cannot delete 'a\u001b[2Jb': \"busy\""}"#)
    let folder = try TemporaryFolder()
    var log = try Self.written(Self.header.appendLine) + Data("\n".utf8) + line
    log.append(contentsOf: "\n".utf8)
    try log.write(to: folder.file("warned.jsonl"))
    let reader = try ActionLogReader<Counter.State, Counter.Action, Counter.Effect>(
      url: folder.file("warned.jsonl"))
    while try reader.next() != nil {}
    let warning = try #require(reader.warnings.first)
    #expect(warning.isWarning)
    #expect(
      warning.description
        == #"line 2: the recorder warned: cannot delete 'a\u{1B}[2Jb': "busy""#)

    // A warning line without its words, or with words that are not text, is a bad line.
    for bad in [#"{"kind":"warning"}"#, #"{"kind":"warning","reason":7}"#] {
      let damaged = try Self.written(Self.header.appendLine) + Data("\n\(bad)\n".utf8)
      try damaged.write(to: folder.file("bad.jsonl"))
      let badReader = try ActionLogReader<Counter.State, Counter.Action, Counter.Effect>(
        url: folder.file("bad.jsonl"))
      #expect(throws: ActionLogError.self) { try badReader.next() }
      #expect(badReader.warnings.isEmpty)
    }
  }

  /// What follows the `closed` marker is not dropped: it is an error that names its line.
  @Test func theClosedMarkerEndsALogReadThroughTheReader() throws {
    let folder = try TemporaryFolder()
    var log = try Self.written(Self.header.appendLine)
    log.append(UInt8(ascii: "\n"))
    log.append(try Self.written(Self.steps[0].appendLine))
    log.append(UInt8(ascii: "\n"))
    log.append(try Self.written(ActionLogFormat.Closed().appendLine))
    log.append(contentsOf: "\nwritten after the closed marker\n".utf8)
    let url = folder.file("closed.jsonl")
    try log.write(to: url)

    let reader = try ActionLogReader<Counter.State, Counter.Action, Counter.Effect>(url: url)
    guard case .transition(let step)? = try reader.next() else {
      Issue.record("expected the step")
      return
    }
    #expect(step.sequenceNumber == 1)
    #expect(
      throws: ActionLogError.malformedLine(
        line: 4, reason: "a line after the 'closed' marker on line 3, which ends the recording")
    ) { try reader.next() }
    #expect(try reader.next() == nil)
    #expect(reader.warnings.isEmpty)
  }

  /// The committed login logs read with the line types (the `replay` goldens read them too).
  @Test(arguments: [
    ("login.jsonl", 10, [ActionLogError]()),
    ("login-divergent.jsonl", 10, []),
    ("login-truncated.jsonl", 9, [.truncatedLastLine(line: 11)]),
  ])
  func committedFixturesStillRead(name: String, steps: Int, warnings: [ActionLogError]) throws {
    let reader = try ActionLogReader<LoginState, LoginAction, LoginEffect>(
      url: ReplayProcess.fixtures.appendingPathComponent(name))
    #expect(reader.header.feature == LoginReducer.actionLogFeature)
    #expect(reader.header.checkpointInterval == 4)
    var count = 0
    var checkpoints = 0
    while let entry = try reader.next() {
      guard case .transition(let step) = entry else { continue }
      count += 1
      #expect(step.sequenceNumber == count)
      if step.checkpoint != nil { checkpoints += 1 }
    }
    #expect(count == steps)
    #expect(checkpoints == steps / 4)
    #expect(reader.warnings == warnings)
  }

  // MARK: - Helpers

  /// A line type's writer, as the recorder writes it: `appendLine(to:using:)`.
  typealias Writer = (inout Data, CanonicalJSONEncoder) throws(ActionLogError) -> Void

  /// What a line type's writer writes, without the newline.
  static func written(_ append: Writer) throws -> Data {
    var line = Data()
    try append(&line, CanonicalJSONEncoder())
    return line
  }

  /// The written line decodes to `value`, and `encode(to:)` writes the same JSON object with
  /// its keys in the same order.
  func expectAgreement<Line: Codable & Equatable>(
    _ value: Line, _ written: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try expectDecodes(value, written, sourceLocation: sourceLocation)
    #expect(
      try Self.object(JSONEncoder().encode(value)) == Self.object(written),
      sourceLocation: sourceLocation)
    let encodedOrder = try Self.keyOrder(value)
    let writtenOrder = Self.keys(ofLine: written)
    #expect(encodedOrder == writtenOrder, sourceLocation: sourceLocation)
  }

  /// The written line decodes to `value`.
  func expectDecodes<Line: Decodable & Equatable>(
    _ value: Line, _ written: Data, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(
      try JSONDecoder().decode(Line.self, from: written) == value, sourceLocation: sourceLocation)
  }

  /// The JSON object of `data`, re-serialized with sorted keys.
  static func object(_ data: Data) throws -> String {
    let object = try JSONSerialization.jsonObject(with: data)
    return String(
      decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
      as: UTF8.self)
  }

  /// The keys `value`'s `encode(to:)` writes into its top-level container, in the order it
  /// writes them. (`JSONEncoder`'s output does not show that order: it keeps an object's
  /// members in a dictionary. Its key strategy is called as each key is encoded.)
  static func keyOrder(_ value: some Encodable) throws -> [String] {
    let keys = Guarded<[String]>([])
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .custom { path in
      if path.count == 1 { keys.withLock { $0.append(path[0].stringValue) } }
      return path[path.count - 1]
    }
    _ = try encoder.encode(value)
    return keys.withLock { $0 }
  }

  /// The keys of a line's top-level object, in the order the line has them.
  static func keys(ofLine line: Data) -> [String] {
    var nesting = JSONNesting()
    var keys: [String] = []
    var string: [UInt8] = []
    var lastString: [UInt8]?
    for byte in line {
      let wasInString = nesting.isInString
      nesting.take(byte)
      if wasInString {
        if nesting.isInString { string.append(byte) } else { lastString = string }
        continue
      }
      if nesting.isInString {
        string = []
        continue
      }
      if byte == UInt8(ascii: ":"), nesting.depth == 1, let key = lastString {
        keys.append(String(decoding: key, as: UTF8.self))
      }
      lastString = nil
    }
    return keys
  }
}
