import Foundation

/// How an action log is read.
public struct ActionLogReadOptions: Sendable, Equatable {
  /// 16 MiB: far above any real line, far below what would hurt memory.
  public static let defaultMaximumLineLength = 16 * 1024 * 1024

  /// The longest line accepted, in bytes. A longer line stops the read with
  /// ``ActionLogError/lineTooLong(line:limit:)`` after reading at most this much of it.
  public var maximumLineLength: Int
  /// The feature the log must record, or `nil` to accept any.
  public var expectedFeature: String?

  /// Creates read options.
  ///
  /// - Parameters:
  ///   - maximumLineLength: The longest line accepted, in bytes.
  ///   - expectedFeature: The feature the header must name, or `nil` for any.
  public init(
    maximumLineLength: Int = ActionLogReadOptions.defaultMaximumLineLength,
    expectedFeature: String? = nil
  ) {
    self.maximumLineLength = maximumLineLength
    self.expectedFeature = expectedFeature
  }
}

/// An entry of an action log after its header.
public enum ActionLogEntry<State, Action, Effect> {
  /// A reduced action.
  case transition(RecordedTransition<State, Action, Effect>)
  /// The recorder dropped `dropped` transitions here; `state` is the state before the next
  /// transition.
  case gap(line: Int, dropped: Int, state: State)
}

/// Reads an action log one entry at a time, in constant memory whatever the file's size.
///
/// The file is read in 64 KiB chunks; a line longer than
/// ``ActionLogReadOptions/maximumLineLength`` stops the read with an error instead of growing
/// memory. The header is read and checked by the initializer. Every entry that decoded before
/// a failure has already been returned, so bad input never loses the good part.
///
/// ```swift
/// let reader = try ActionLogReader<CounterState, CounterAction, Never>(url: url)
/// while let entry = try reader.next() {
///   if case .transition(let step) = entry { print(step.sequenceNumber, step.action) }
/// }
/// print(reader.warnings)   // for example a truncated last line
/// ```
///
/// A reader is not thread-safe; use it from one task (it does blocking file reads, so not
/// from the main actor).
public final class ActionLogReader<State: Decodable, Action: Decodable, Effect: Decodable> {
  /// The log's header.
  public let header: ActionLogHeader<State>
  /// Warnings met so far: ``ActionLogError/truncatedLastLine(line:)``,
  /// ``ActionLogError/transitionsDropped(line:count:)``,
  /// ``ActionLogError/recordingStopped(line:reason:)``,
  /// ``ActionLogError/recorderWarning(line:message:)``.
  public private(set) var warnings: [ActionLogError] = []

  /// A line read and decoded, its recorded state checked; not yet checked against the
  /// numbers and times of the lines before it.
  private struct ParsedLine {
    var line: LineReader.Line
    var decoded: Result<ActionLogFormat.Line<State, Action, Effect>, any Error>
    /// Where a step line's patch and checkpoint are.
    var parts: RecordedStates.Parts?
    /// A gap marker's state, as its line holds it.
    var gapState: [UInt8]?
    /// The verdict on a step line's recorded state (``RecordedStateCheck``): what is wrong with
    /// its patch or checkpoint, or `nil`.
    var stateFailure: ActionLogError?
  }

  /// What reading a line needs from the lines before it: the values decoded so far, and the
  /// recorded state the line's patch applies to.
  private struct Parsing {
    var values: StepLineLayout.Values<Action, Effect>
    var states: RecordedStateCheck
  }

  /// Where the parsed lines come from: read here, as they are asked for, or ahead on a
  /// background thread.
  private enum Source {
    case lines(LineReader)
    case prefetched(LinePrefetcher<ParsedLine>)
  }

  private var source: Source
  /// The path the log was opened at, for ``isReplaced()``.
  private let path: String
  /// Reads and checks the lines read here (not ahead, on the prefetcher's thread).
  private var parsing: Parsing
  /// Whether the end of the file is only where its writer has got to.
  private let follows: Bool
  /// Reads the values in the canonical form the header names.
  private let decoder: CanonicalJSONDecoder
  private var isFinished = false
  private var lastSequenceNumber: Int?
  /// The time of the last step that had one: the next may not be earlier.
  private var lastTime: Duration?
  /// The recorded state after the last entry, rebuilt from the log's own bytes on demand.
  private var recorded: RecordedStates

  /// Opens the log at `url` and reads its header.
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - options: The line limit and the expected feature.
  /// - Throws: ``ActionLogError/ioError(_:)`` when the file cannot be opened or is not a
  ///   regular file (a FIFO is refused, not waited on), and the header
  ///   errors: ``ActionLogError/emptyFile``, ``ActionLogError/missingHeader(line:)``,
  ///   ``ActionLogError/foreignFormat(_:)``, ``ActionLogError/unsupportedVersion(found:supported:)``,
  ///   ``ActionLogError/featureMismatch(expected:found:)``, ``ActionLogError/notText(line:)``,
  ///   ``ActionLogError/malformedLine(line:reason:)``, ``ActionLogError/lineTooLong(line:limit:)``.
  public convenience init(
    url: URL, options: ActionLogReadOptions = .init()
  ) throws(ActionLogError) {
    try self.init(url: url, options: options, follows: false)
  }

  /// Opens the log at `url` as ``init(url:options:)`` does; with `follows`, the end of the
  /// file is only where its writer has got to: ``next()`` returns `nil` there until more is
  /// appended, and ``hasEnded`` says when the recording itself ended.
  ///
  /// With `prefetches` (and without `follows`), the lines are read and decoded ahead on a
  /// background thread (``LinePrefetcher``) while the caller works on the entries taken: the
  /// entries, warnings and errors are the same, in the same order.
  package init(
    url: URL, options: ActionLogReadOptions, follows: Bool, prefetches: Bool = false
  ) throws(ActionLogError) {
    let lines = try LineReader(url: url, maximumLineLength: options.maximumLineLength)
    lines.follows = follows
    self.follows = follows
    self.path = url.path
    let headerLine: Data
    (header, decoder, headerLine) = try HeaderDecoding.decode(
      ActionLogHeader<State>.self, from: lines, expectedFeature: options.expectedFeature)
    if let expected = options.expectedFeature, expected != header.feature {
      throw .featureMismatch(expected: expected, found: header.feature)
    }
    let initialState = JSONValueBytes.member(
      ActionLogFormat.Key.initialState.rawValue, of: headerLine)
    recorded = RecordedStates(base: initialState)
    parsing = Parsing(
      values: StepLineLayout.Values(decoder: decoder),
      states: RecordedStateCheck(base: initialState))
    if prefetches, !follows {
      var ahead = parsing
      source = .prefetched(LinePrefetcher(lines: lines) { Self.parse($0, with: &ahead) })
    } else {
      source = .lines(lines)
    }
  }

  /// The state the log recorded after the last entry ``next()`` returned: rebuilt from the
  /// header's state, a gap's or a checkpoint, and the patches of the steps since, and checked
  /// against the step's ``StateDigest``. Before the first entry it is the header's state.
  ///
  /// Every step line of a log recorded by this version carries its patch, so the recorded
  /// state is known at every step, whatever the host's `==` says: the patch is made from
  /// canonical bytes. Lines recorded before steps had patches (or written by a tool that
  /// writes none) leave it unknown from such a line up to the next checkpoint or gap.
  ///
  /// ```swift
  /// while case .transition(let step)? = try reader.next() {
  ///   print(step.sequenceNumber, try reader.recordedState() as Any)
  /// }
  /// ```
  ///
  /// - Returns: The recorded state, or `nil` when the log does not hold it at this step.
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` when the state does not decode,
  ///   or when the last step's patch or checkpoint failed its check (``next()`` threw that
  ///   error first, naming the step's line).
  public func recordedState() throws(ActionLogError) -> State? {
    guard let bytes = try recorded.bytes() else { return nil }
    do {
      return try decoder.decode(State.self, from: bytes[...])
    } catch {
      throw .malformedLine(
        line: recorded.line,
        reason: "the recorded state does not decode: \(DecodingErrorReason.describe(error))")
    }
  }

  /// The canonical JSON of the state the log recorded after the last step read, as its lines
  /// rebuild it (a checkpoint, or the patches since one): what a divergence is diffed against.
  /// `nil` when the log does not hold it at this step.
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` when the patches do not rebuild
  ///   the recorded digest.
  package func recordedStateBytes() throws(ActionLogError) -> [UInt8]? {
    try recorded.bytes()
  }

  /// The canonical form the header names: the form the replayed states are encoded in to
  /// verify the log's digests.
  package var form: CanonicalForm { decoder.form }

  /// The number of the last line read.
  public var lineNumber: Int {
    switch source {
    case .lines(let lines): lines.lineNumber
    case .prefetched(let prefetcher): prefetcher.lineNumber
    }
  }

  /// Whether the log ended: its `closed` or `stopped` marker, a cut last line, or (when not
  /// following) the end of the file.
  package var hasEnded: Bool { isFinished }

  /// How many bytes of the file have been read as lines: with the file's size, how far along
  /// the reading is (for progress on long logs).
  package var bytesRead: Int {
    switch source {
    case .lines(let lines): lines.bytesConsumed
    case .prefetched(let prefetcher): prefetcher.bytesConsumed
    }
  }

  /// Whether the path this reader was opened at now holds another recording: another file, or
  /// this one rewritten from the start (see `LineReader.isReplaced(atPath:)`). For
  /// `replay --follow`, which then replays the new one from its header; `false` for a reader
  /// that does not follow (whose lines may be read on another thread).
  package func isReplaced() -> Bool {
    guard follows, case .lines(let lines) = source else { return false }
    return lines.isReplaced(atPath: path)
  }

  /// The next entry, or `nil` at the end of the log (or at its `stopped` / `closed` marker).
  ///
  /// - Returns: The next transition or gap.
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)``,
  ///   ``ActionLogError/unknownAction(line:name:)``, ``ActionLogError/lineTooLong(line:limit:)``,
  ///   ``ActionLogError/notText(line:)``, ``ActionLogError/ioError(_:)``. After an error the
  ///   reader throws it again on every call.
  public func next() throws(ActionLogError) -> ActionLogEntry<State, Action, Effect>? {
    guard !isFinished else { return nil }
    while let parsed = try nextParsedLine() {
      let line = parsed.line
      let decoded: ActionLogFormat.Line<State, Action, Effect>
      let parts = parsed.parts
      switch parsed.decoded {
      case .success(let line): decoded = line
      case .failure(let error):
        if !line.isTerminated {
          warnings.append(.truncatedLastLine(line: line.number))
          isFinished = true
          return nil
        }
        throw LineClassifier.classify(error, line: line)
      }
      switch decoded {
      case .step(var step):
        let number = step.sequenceNumber
        guard number >= 1 else {
          throw .malformedLine(
            line: line.number, reason: "sequence number \(number): steps are numbered from 1")
        }
        // `last == .max` first: a hostile file must not make `last + 1` overflow and trap.
        if let last = lastSequenceNumber, last == .max || number != last + 1 {
          throw .malformedLine(
            line: line.number, reason: "sequence number \(number) does not follow \(last)")
        }
        // Times come from the recorder's monotonic stopwatch: one before the step before's is
        // damage, and would show as a negative gap.
        if let time = step.time {
          if let lastTime, time < lastTime {
            throw .malformedLine(
              line: line.number,
              reason: "step time \(ActionLogFormat.milliseconds(time)) ms is before the "
                + "\(ActionLogFormat.milliseconds(lastTime)) ms of the step before")
          }
          lastTime = time
        }
        lastSequenceNumber = number
        step.line = line.number
        if let failure = parsed.stateFailure {
          recorded.fail(failure, line: line.number)
          throw failure
        }
        recorded.step(
          line: line.number, in: line.bytes, parts: parts ?? RecordedStates.parts(of: line.bytes))
        return .transition(step)
      case .gap(let gap):
        guard gap.dropped >= 1 else {
          throw .malformedLine(
            line: line.number,
            reason: "a gap of \(gap.dropped) dropped transitions: a gap drops at least 1")
        }
        lastSequenceNumber = nil
        warnings.append(.transitionsDropped(line: line.number, count: gap.dropped))
        recorded = RecordedStates(base: parsed.gapState, line: line.number)
        return .gap(line: line.number, dropped: gap.dropped, state: gap.state)
      case .stopped(let marker):
        warnings.append(.recordingStopped(line: line.number, reason: marker.explanation))
        isFinished = true
        try checkNothingFollows(endedAt: line.number, by: "stopped")
        return nil
      case .warning(let marker):
        warnings.append(.recorderWarning(line: line.number, message: marker.message))
      case .closed:
        isFinished = true
        try checkNothingFollows(endedAt: line.number, by: "closed")
        return nil
      case .header:
        throw .malformedLine(line: line.number, reason: "a second header")
      case .unknownKind(let kind):
        throw .malformedLine(line: line.number, reason: "unknown line kind \(Sanitized.name(kind))")
      }
    }
    if !follows { isFinished = true }
    return nil
  }

  /// Checks that no line follows the marker (`closed`, or `stopped`, after which the recorder
  /// writes nothing) on line `end`: whatever does is a second recording (its own header) or
  /// damage, never dropped. A followed log is checked as far as it is written when its marker
  /// is read.
  private func checkNothingFollows(endedAt end: Int, by marker: String) throws(ActionLogError) {
    guard let after = try nextParsedLine() else { return }
    if case .success(.header) = after.decoded {
      throw .malformedLine(
        line: after.line.number,
        reason: "a second recording begins here, after the '\(marker)' marker on line \(end): "
          + "a log file holds one recording; split the file at this line to read each")
    }
    throw .malformedLine(
      line: after.line.number,
      reason: "a line after the '\(marker)' marker on line \(end), which ends the recording")
  }

  /// The next non-empty line, read and decoded.
  private func nextParsedLine() throws(ActionLogError) -> ParsedLine? {
    switch source {
    case .prefetched(let prefetcher):
      return try prefetcher.take()
    case .lines(let lines):
      while let line = try lines.next() {
        if line.bytes.isEmpty { continue }
        return Self.parse(line, with: &parsing)
      }
      return nil
    }
  }

  /// Reads `line` as a log line: by the step line's layout when it has it, else whole; and
  /// checks a step's recorded state, or takes a gap's, in `parsing`.
  private static func parse(_ line: LineReader.Line, with parsing: inout Parsing) -> ParsedLine {
    if let read: StepLineLayout.Read<State, Action, Effect> = StepLineLayout.read(
      in: line.bytes, using: &parsing.values)
    {
      let parts = (read.patch, read.checkpoint)
      return ParsedLine(
        line: line, decoded: .success(.step(read.step)), parts: parts,
        stateFailure: parsing.states.check(
          step: line.number, digest: read.step.digest, in: line.bytes, parts: parts))
    }
    let decoded: ActionLogFormat.Line<State, Action, Effect>
    do {
      decoded = try parsing.values.decoder.decode(
        ActionLogFormat.Line<State, Action, Effect>.self, from: line.bytes)
    } catch {
      return ParsedLine(line: line, decoded: .failure(error))
    }
    var parsed = ParsedLine(line: line, decoded: .success(decoded))
    switch decoded {
    case .step(let step):
      let parts = RecordedStates.parts(of: line.bytes)
      parsed.parts = parts
      parsed.stateFailure = parsing.states.check(
        step: line.number, digest: step.digest, in: line.bytes, parts: parts)
    case .gap:
      parsed.gapState = JSONValueBytes.member(ActionLogFormat.Key.state.rawValue, of: line.bytes)
      parsing.states.restart(from: parsed.gapState)
    default:
      break
    }
    return parsed
  }
}
