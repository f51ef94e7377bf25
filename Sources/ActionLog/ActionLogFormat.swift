import Foundation
import StateStore

/// The on-disk format of an action log, version 1: JSON Lines, one JSON object per line.
///
/// This file is the whole format. Each kind of line is one type, and the type reads itself
/// (`Decodable`) and writes itself: the recorder's fast writer stands next to the type's
/// `Encodable` conformance, and the two give the same JSON object. Every key of every line is
/// a case of ``Key``, and nothing else in the package spells one. To add a field, add its key
/// to ``Key`` and the field to its line type, in this file.
///
/// - The header, ``ActionLogHeader``: the first line.
/// - A step, ``RecordedTransition``: one reduced action. A checkpoint is a step that also
///   carries the full state.
/// - A gap marker, ``Gap``: transitions the recorder dropped.
/// - A stopped marker, ``Stopped``: the recorder stopped early.
/// - The closed marker, ``Closed``: the recorder was closed normally.
///
/// The header is a versioned envelope that a reader checks before anything else:
///
/// ```text
/// {"format":"loginstore.actionlog","version":1,"feature":"counter","created":"2026-11-22T04:56:22Z","checkpointInterval":100,"initialState":{"count":0}}
/// ```
///
/// A step line (no `kind` key) records one reduced action: its sequence number, who sent it,
/// the action, the effects the reducer returned, and the ``StateDigest`` of the state after
/// it. Every `checkpointInterval`-th step also carries the full state after it, in canonical
/// JSON, under `checkpoint`:
///
/// ```text
/// {"seq":1,"origin":"user","action":{"increment":{}},"effects":[],"digest":"a3f0c9e2d4b61785"}
/// {"seq":100,"origin":"effect","action":{"loaded":{"_0":7}},"effects":[],"digest":"…","checkpoint":{"count":7}}
/// ```
///
/// Marker lines have a `kind` (``MarkerKind``):
///
/// - `{"kind":"gap","dropped":12,"state":{…}}` — the recorder fell behind and dropped 12
///   transitions; `state` is the state before the next step line, so a replay resumes there.
/// - `{"kind":"stopped","reason":"maximumFileSize","limit":1048576}` — the recorder stopped
///   because the next line would have passed the maximum file size. Nothing follows.
/// - `{"kind":"stopped","reason":"lineTooLong","limit":16777216}` — the recorder stopped
///   because the next line would have been longer than a reader accepts
///   (``RecordingOptions/maximumLineLength``). Nothing follows.
/// - `{"kind":"closed"}` — the recorder was closed normally. Nothing follows.
///
/// Keys come in the order shown, and values are canonical JSON: `JSONEncoder` with sorted keys
/// and otherwise default strategies, so any `Codable` state, action and effect fits and the
/// same session always gives the same bytes. A ``StateStore/Secret`` encodes as its shape mask:
/// the password itself never reaches the file, and a replay re-validates the mask exactly as
/// the original run validated the password.
///
/// ```swift
/// let line = #"{"kind":"gap","dropped":3,"state":{"count":7}}"#
/// let gap = try JSONDecoder().decode(
///   ActionLogFormat.Gap<CounterState>.self, from: Data(line.utf8))
/// print(gap.dropped)   // 3
/// ```
public enum ActionLogFormat {
  /// The header's `format` value.
  public static let name = "loginstore.actionlog"
  /// The version this build writes and reads.
  public static let version = 1

  /// Every key of every line: the one place a key is spelled.
  ///
  /// The line types decode and encode with these keys, the recorder's writer builds its
  /// fixed fragments from them, and the reader's messages name them.
  ///
  /// ```swift
  /// ActionLogFormat.Key.seq.rawValue   // "seq"
  /// ```
  public enum Key: String, CodingKey, CaseIterable, Sendable {
    /// Header: the format's name, ``ActionLogFormat/name``.
    case format
    /// Header: the format's version, ``ActionLogFormat/version``.
    case version
    /// Header: the recorded feature's name.
    case feature
    /// Header: when recording started, ISO 8601, to the second.
    case created
    /// Header: how many steps lie between two checkpoints; 0 for none.
    case checkpointInterval
    /// Header: the state before the first step.
    case initialState
    /// Step: the store's sequence number of the action.
    case seq
    /// Step: `user` or `effect` (``StateStore/ActionOrigin``).
    case origin
    /// Step: the action.
    case action
    /// Step: the effects the reducer returned.
    case effects
    /// Step: the ``StateDigest`` of the state after the action, 16 hex digits.
    case digest
    /// Step: the full state after the action, on checkpoint steps only.
    case checkpoint
    /// Marker: what kind of marker the line is (``MarkerKind``).
    case kind
    /// Gap marker: how many transitions were dropped.
    case dropped
    /// Gap marker: the state before the next step.
    case state
    /// Stopped marker: why the recorder stopped (``StopReason``).
    case reason
    /// Stopped marker: the limit that was reached, in bytes.
    case limit
  }

  /// The `kind` of a marker line. A step line and the header have no `kind`.
  public enum MarkerKind: String, Codable, CaseIterable, Sendable {
    /// ``Gap``: transitions were dropped here.
    case gap
    /// ``Stopped``: the recorder stopped early; nothing follows.
    case stopped
    /// ``Closed``: the recorder was closed normally; nothing follows.
    case closed
  }

  /// Why a recorder stopped early: the `reason` of a ``Stopped`` marker.
  public enum StopReason: String, CaseIterable, Sendable {
    /// The next line would have passed ``RecordingOptions/maximumFileSize``.
    case maximumFileSize
    /// The next line would have been longer than ``RecordingOptions/maximumLineLength``, the
    /// longest line a reader accepts.
    case lineTooLong
  }

  /// A gap marker: the recorder fell behind and dropped transitions here.
  ///
  /// A replay resumes from `state`, the state after the last dropped transition, which is the
  /// state before the next step line.
  ///
  /// ```text
  /// {"kind":"gap","dropped":12,"state":{"count":40}}
  /// ```
  public struct Gap<State> {
    /// How many transitions were dropped; at least 1.
    public var dropped: Int
    /// The state before the next step line.
    public var state: State

    /// Creates a gap marker.
    ///
    /// - Parameters:
    ///   - dropped: How many transitions were dropped.
    ///   - state: The state before the next step.
    public init(dropped: Int, state: State) {
      self.dropped = dropped
      self.state = state
    }
  }

  /// A stopped marker: the recorder stopped before its file would break a limit. It is the
  /// last line of its log.
  ///
  /// ```text
  /// {"kind":"stopped","reason":"maximumFileSize","limit":1048576}
  /// ```
  public struct Stopped: Sendable, Equatable {
    /// Why the recorder stopped, as the file says it: a ``StopReason`` raw value from this
    /// build, any text from another (a reader keeps it rather than failing).
    public var reason: String
    /// The limit that was reached, in bytes, when the recorder had one.
    public var limit: Int?

    /// Creates a stopped marker.
    ///
    /// - Parameters:
    ///   - reason: Why the recorder stopped.
    ///   - limit: The limit that was reached, in bytes.
    public init(reason: StopReason, limit: Int?) {
      self.reason = reason.rawValue
      self.limit = limit
    }

    /// The reason as this build knows it, or `nil` for a reason it does not know.
    public var stopReason: StopReason? { StopReason(rawValue: reason) }
  }

  /// The closed marker: the recorder was closed normally. It is the last line of its log.
  ///
  /// ```text
  /// {"kind":"closed"}
  /// ```
  public struct Closed: Sendable, Equatable {
    /// Creates the closed marker.
    public init() {}
  }
}

// MARK: - The header

/// The first line of an action log: what it is, which feature it records, and where it starts.
///
/// ```swift
/// let reader = try ActionLogReader<CounterState, CounterAction, Never>(url: url)
/// print(reader.header.feature, reader.header.created)
/// ```
public struct ActionLogHeader<State> {
  /// Always ``ActionLogFormat/name`` in a file this build accepts.
  public var format: String
  /// The format version; this build reads ``ActionLogFormat/version``.
  public var version: Int
  /// The name the recorder was given for the feature, for example `"login"`.
  public var feature: String
  /// When recording started, to the second.
  public var created: Date
  /// How many transitions lie between two checkpoints; 0 means none.
  public var checkpointInterval: Int
  /// The store's state when recording started.
  public var initialState: State

  /// Creates a header for version ``ActionLogFormat/version``.
  ///
  /// - Parameters:
  ///   - feature: The feature's name.
  ///   - created: When recording started.
  ///   - checkpointInterval: Transitions between checkpoints; 0 for none.
  ///   - initialState: The state before the first transition.
  public init(feature: String, created: Date, checkpointInterval: Int, initialState: State) {
    self.format = ActionLogFormat.name
    self.version = ActionLogFormat.version
    self.feature = feature
    self.created = created
    self.checkpointInterval = checkpointInterval
    self.initialState = initialState
  }
}

extension ActionLogHeader: Sendable where State: Sendable {}
extension ActionLogHeader: Equatable where State: Equatable {}

extension ActionLogHeader: Decodable where State: Decodable {
  /// Decodes a header; `created` is an ISO 8601 string.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a field is missing or has the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    format = try container.decode(String.self, forKey: .format)
    version = try container.decode(Int.self, forKey: .version)
    feature = try container.decode(String.self, forKey: .feature)
    let createdText = try container.decode(String.self, forKey: .created)
    guard let created = try? Date(createdText, strategy: .iso8601) else {
      throw DecodingError.dataCorruptedError(
        forKey: .created, in: container, debugDescription: "not an ISO 8601 date")
    }
    self.created = created
    checkpointInterval = try container.decode(Int.self, forKey: .checkpointInterval)
    initialState = try container.decode(State.self, forKey: .initialState)
  }
}

extension ActionLogHeader: Encodable where State: Encodable {
  /// Encodes the header, in the documented key order, with `created` as an ISO 8601 string.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever encoding the initial state throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ActionLogFormat.Key.self)
    try container.encode(format, forKey: .format)
    try container.encode(version, forKey: .version)
    try container.encode(feature, forKey: .feature)
    try container.encode(created.formatted(.iso8601), forKey: .created)
    try container.encode(checkpointInterval, forKey: .checkpointInterval)
    try container.encode(initialState, forKey: .initialState)
  }

  /// Appends the header line, without its newline: the recorder's fast writer.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming a type that cannot be encoded.
  package func appendLine(
    to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    typealias Format = ActionLogFormat
    line.append(contentsOf: Format.opening(.format).utf8)
    try Format.appendCanonical(format, to: &line, using: encoder)
    line.append(contentsOf: Format.separator(.version).utf8)
    Format.append(version, to: &line)
    line.append(contentsOf: Format.separator(.feature).utf8)
    try Format.appendCanonical(feature, to: &line, using: encoder)
    line.append(contentsOf: Format.separator(.created).utf8)
    line.append(Format.quote)
    line.append(contentsOf: created.formatted(.iso8601).utf8)
    line.append(Format.quote)
    line.append(contentsOf: Format.separator(.checkpointInterval).utf8)
    Format.append(checkpointInterval, to: &line)
    line.append(contentsOf: Format.separator(.initialState).utf8)
    try Format.appendCanonical(initialState, to: &line, using: encoder)
    line.append(Format.closingBrace)
  }
}

// MARK: - A step

/// One step as the log records it: a reduced action. A checkpoint is a step that also carries
/// the full state after it.
///
/// A reader returns these with ``line``, the line the step was read from. The step line itself
/// does not hold it: decoding a line on its own gives 0, and encoding leaves it out.
///
/// ```swift
/// let step = try JSONDecoder().decode(
///   RecordedTransition<CounterState, CounterAction, Never>.self, from: Data(line.utf8))
/// print(step.sequenceNumber, step.action)
/// ```
public struct RecordedTransition<State, Action, Effect> {
  /// The line it was read from, 1-based; 0 for a step not read from a log.
  public var line: Int
  /// The store's sequence number for the action.
  public var sequenceNumber: Int
  /// Whether a user or an effect sent the action.
  public var origin: ActionOrigin
  /// The action, with secrets as their masks.
  public var action: Action
  /// The effects the reducer returned when it was recorded.
  public var effects: [Effect]
  /// The ``StateDigest`` of the state after the action.
  public var digest: String
  /// The full state after the action, on checkpoint lines only.
  public var checkpoint: State?

  /// Creates a step.
  ///
  /// - Parameters:
  ///   - line: The line it was read from; 0 for none.
  ///   - sequenceNumber: The store's sequence number for the action.
  ///   - origin: Whether a user or an effect sent the action.
  ///   - action: The action.
  ///   - effects: The effects the reducer returned.
  ///   - digest: The ``StateDigest`` of the state after the action.
  ///   - checkpoint: The full state after the action, for a checkpoint.
  public init(
    line: Int = 0, sequenceNumber: Int, origin: ActionOrigin, action: Action, effects: [Effect],
    digest: String, checkpoint: State? = nil
  ) {
    self.line = line
    self.sequenceNumber = sequenceNumber
    self.origin = origin
    self.action = action
    self.effects = effects
    self.digest = digest
    self.checkpoint = checkpoint
  }
}

extension RecordedTransition: Sendable where State: Sendable, Action: Sendable, Effect: Sendable {}
extension RecordedTransition: Equatable
where State: Equatable, Action: Equatable, Effect: Equatable {}

extension RecordedTransition: Decodable
where State: Decodable, Action: Decodable, Effect: Decodable {
  /// Decodes a step line; ``line`` is 0.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a field is missing or has the wrong type.
  public init(from decoder: any Decoder) throws {
    try self.init(fields: decoder.container(keyedBy: ActionLogFormat.Key.self))
  }

  /// Decodes a step's fields from a line's container, which the reader has opened once.
  init(fields container: KeyedDecodingContainer<ActionLogFormat.Key>) throws {
    self.init(
      sequenceNumber: try container.decode(Int.self, forKey: .seq),
      origin: try container.decode(ActionOrigin.self, forKey: .origin),
      action: try container.decode(Action.self, forKey: .action),
      effects: try container.decode([Effect].self, forKey: .effects),
      digest: try container.decode(String.self, forKey: .digest),
      checkpoint: try container.decodeIfPresent(State.self, forKey: .checkpoint))
  }
}

extension RecordedTransition: Encodable
where State: Encodable, Action: Encodable, Effect: Encodable {
  /// Encodes the step line, in the documented key order; ``line`` is left out.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever encoding the action, the effects or the checkpoint throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ActionLogFormat.Key.self)
    try container.encode(sequenceNumber, forKey: .seq)
    try container.encode(origin, forKey: .origin)
    try container.encode(action, forKey: .action)
    try container.encode(effects, forKey: .effects)
    try container.encode(digest, forKey: .digest)
    try container.encodeIfPresent(checkpoint, forKey: .checkpoint)
  }

  /// Appends the step line, without its newline (see
  /// ``appendLine(sequenceNumber:origin:action:effects:digest:checkpointJSON:to:using:)``).
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming a type that cannot be encoded.
  package func appendLine(
    to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    var checkpointJSON: Data?
    if let checkpoint {
      var json = Data()
      try ActionLogFormat.appendCanonical(checkpoint, to: &json, using: encoder)
      checkpointJSON = json
    }
    try Self.appendLine(
      sequenceNumber: sequenceNumber, origin: origin, action: action, effects: effects,
      digest: digest, checkpointJSON: checkpointJSON, to: &line, using: encoder)
  }
}

extension RecordedTransition where Action: Encodable, Effect: Encodable {
  /// Appends a step line, without its newline: the recorder's fast writer.
  ///
  /// The checkpoint comes already encoded, because the recorder encodes the state once for
  /// both its digest and its checkpoint. The digest is written as it is (16 hex digits).
  ///
  /// - Parameter checkpointJSON: The canonical JSON of the state, for a checkpoint step.
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming a type that cannot be encoded.
  package static func appendLine(
    sequenceNumber: Int, origin: ActionOrigin, action: Action, effects: [Effect],
    digest: String, checkpointJSON: Data?, to line: inout Data,
    using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    typealias Fragment = ActionLogFormat.StepFragment
    line.append(Fragment.seq)
    ActionLogFormat.append(sequenceNumber, to: &line)
    line.append(Fragment.origin)
    line.append(contentsOf: origin.rawValue.utf8)
    line.append(Fragment.action)
    try ActionLogFormat.appendCanonical(action, to: &line, using: encoder)
    line.append(Fragment.effects)
    if effects.isEmpty {
      line.append(Fragment.noEffects)
    } else {
      try ActionLogFormat.appendCanonical(effects, to: &line, using: encoder)
    }
    line.append(Fragment.digest)
    line.append(contentsOf: digest.utf8)
    line.append(ActionLogFormat.quote)
    if let checkpointJSON {
      line.append(Fragment.checkpoint)
      line.append(checkpointJSON)
    }
    line.append(ActionLogFormat.closingBrace)
  }
}

// MARK: - Markers

extension ActionLogFormat.Gap: Sendable where State: Sendable {}
extension ActionLogFormat.Gap: Equatable where State: Equatable {}

extension ActionLogFormat.Gap: Decodable where State: Decodable {
  /// Decodes a gap marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind or a field is wrong.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    try ActionLogFormat.expectKind(.gap, in: container)
    try self.init(fields: container)
  }

  /// Decodes a gap's fields from a line whose `kind` the reader has read.
  init(fields container: KeyedDecodingContainer<ActionLogFormat.Key>) throws {
    dropped = try container.decode(Int.self, forKey: .dropped)
    state = try container.decode(State.self, forKey: .state)
  }
}

extension ActionLogFormat.Gap: Encodable where State: Encodable {
  /// Encodes the gap marker line, in the documented key order.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever encoding the state throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ActionLogFormat.Key.self)
    try container.encode(ActionLogFormat.MarkerKind.gap, forKey: .kind)
    try container.encode(dropped, forKey: .dropped)
    try container.encode(state, forKey: .state)
  }

  /// Appends the gap marker line, without its newline: the recorder's writer.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming a type that cannot be encoded.
  package func appendLine(
    to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    line.append(contentsOf: ActionLogFormat.markerOpening(.gap).utf8)
    line.append(contentsOf: ActionLogFormat.separator(.dropped).utf8)
    ActionLogFormat.append(dropped, to: &line)
    line.append(contentsOf: ActionLogFormat.separator(.state).utf8)
    try ActionLogFormat.appendCanonical(state, to: &line, using: encoder)
    line.append(ActionLogFormat.closingBrace)
  }
}

extension ActionLogFormat.Stopped: Codable {
  /// Decodes a stopped marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind or a field is wrong.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    try ActionLogFormat.expectKind(.stopped, in: container)
    try self.init(fields: container)
  }

  /// Decodes a stopped marker's fields from a line whose `kind` the reader has read.
  init(fields container: KeyedDecodingContainer<ActionLogFormat.Key>) throws {
    reason = try container.decode(String.self, forKey: .reason)
    limit = try container.decodeIfPresent(Int.self, forKey: .limit)
  }

  /// Encodes the stopped marker line, in the documented key order.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ActionLogFormat.Key.self)
    try container.encode(ActionLogFormat.MarkerKind.stopped, forKey: .kind)
    try container.encode(reason, forKey: .reason)
    try container.encodeIfPresent(limit, forKey: .limit)
  }

  /// Appends the stopped marker line, without its newline: the recorder's writer.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` (it cannot happen for a string).
  package func appendLine(
    to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    line.append(contentsOf: ActionLogFormat.markerOpening(.stopped).utf8)
    line.append(contentsOf: ActionLogFormat.separator(.reason).utf8)
    try ActionLogFormat.appendCanonical(reason, to: &line, using: encoder)
    if let limit {
      line.append(contentsOf: ActionLogFormat.separator(.limit).utf8)
      ActionLogFormat.append(limit, to: &line)
    }
    line.append(ActionLogFormat.closingBrace)
  }

  /// The words for the reason and the limit, as warnings and errors say them.
  var explanation: String {
    let bytes = limit.map { " of \($0) bytes" } ?? ""
    switch stopReason {
    case .maximumFileSize?:
      return "the file reached its size limit" + bytes
    case .lineTooLong?:
      return "a step's line would have been longer than the limit" + bytes + " a reader accepts"
    case nil:
      return Sanitized.name(reason)
    }
  }
}

extension ActionLogFormat.Closed: Codable {
  /// Decodes the closed marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    try ActionLogFormat.expectKind(.closed, in: container)
  }

  /// Encodes the closed marker line.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ActionLogFormat.Key.self)
    try container.encode(ActionLogFormat.MarkerKind.closed, forKey: .kind)
  }

  /// Appends the closed marker line, without its newline: the recorder's writer.
  package func appendLine(to line: inout Data) {
    line.append(contentsOf: ActionLogFormat.markerOpening(.closed).utf8)
    line.append(ActionLogFormat.closingBrace)
  }
}

// MARK: - Reading a line

extension ActionLogFormat {
  /// One line after the header, decoded in a single pass: the line's container is opened
  /// once, its `kind` read first, and the line type it names decodes its fields from it.
  enum Line<State: Decodable, Action: Decodable, Effect: Decodable>: Decodable {
    case step(RecordedTransition<State, Action, Effect>)
    case gap(Gap<State>)
    case stopped(Stopped)
    case closed
    case header
    case unknownKind(String)

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      guard let kind = try container.decodeIfPresent(String.self, forKey: .kind) else {
        if container.contains(.format) {
          self = .header
          return
        }
        self = .step(try RecordedTransition(fields: container))
        return
      }
      switch MarkerKind(rawValue: kind) {
      case .gap?: self = .gap(try Gap(fields: container))
      case .stopped?: self = .stopped(try Stopped(fields: container))
      case .closed?: self = .closed
      case nil: self = .unknownKind(kind)
      }
    }
  }

  /// Throws unless the line's `kind` is `expected`.
  static func expectKind(
    _ expected: MarkerKind, in container: KeyedDecodingContainer<Key>
  ) throws {
    guard try container.decode(MarkerKind.self, forKey: .kind) == expected else {
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "not a \(expected.rawValue) marker")
    }
  }
}

// MARK: - Writing a line

extension ActionLogFormat {
  /// How every header this build writes begins: `{"format":"loginstore.actionlog"`.
  ///
  /// A file that begins otherwise is not an action log, and the recorder does not replace it.
  static let headerOpening = opening(.format) + "\"" + name + "\""

  /// `{"key":`: the start of a line whose first key is `key`.
  static func opening(_ key: Key) -> String { "{\"" + key.rawValue + "\":" }

  /// `,"key":`: what comes between a value and the next key.
  static func separator(_ key: Key) -> String { ",\"" + key.rawValue + "\":" }

  /// `{"kind":"gap"`: the start of a marker line.
  static func markerOpening(_ kind: MarkerKind) -> String {
    opening(.kind) + "\"" + kind.rawValue + "\""
  }

  static let quote = UInt8(ascii: "\"")
  static let closingBrace = UInt8(ascii: "}")

  /// The fixed parts of a step line, made once: the recorder writes one per transition, and
  /// the reader's shortcut for step lines (`StepLineLayout`) looks for exactly these.
  enum StepFragment {
    /// `{"seq":`
    static let seq = Data(opening(.seq).utf8)
    /// `,"origin":"`: the origin is a bare name, written between quotes.
    static let origin = Data((separator(.origin) + "\"").utf8)
    /// `","action":`: closes the origin's quotes.
    static let action = Data(("\"" + separator(.action)).utf8)
    /// `,"effects":`
    static let effects = Data(separator(.effects).utf8)
    /// `[]`: most steps return no effects.
    static let noEffects = Data("[]".utf8)
    /// `,"digest":"`
    static let digest = Data((separator(.digest) + "\"").utf8)
    /// `,"checkpoint":`
    static let checkpoint = Data(separator(.checkpoint).utf8)
  }

  /// Appends a number in decimal (a short `String` does not allocate).
  static func append(_ number: Int, to line: inout Data) {
    line.append(contentsOf: String(number).utf8)
  }

  /// Appends the canonical JSON of `value` (see ``CanonicalJSON``).
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming `Value`.
  static func appendCanonical<Value: Encodable>(
    _ value: Value, to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    do {
      try CanonicalJSON.append(value, to: &line, using: encoder)
    } catch {
      throw .encodingFailed(String(describing: Value.self))
    }
  }
}
