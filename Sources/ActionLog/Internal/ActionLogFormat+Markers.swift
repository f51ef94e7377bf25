import Foundation
import StateStore

// The marker lines: a gap, a stopped, a warning and a closed marker (see `ActionLogFormat`).

extension ActionLogFormat {
  /// A gap marker: the recorder fell behind and dropped transitions here.
  ///
  /// A replay resumes from `state`, the state after the last dropped transition, which is the
  /// state before the next step line.
  ///
  /// <!-- sample: gap-marker -->
  /// ```text
  /// {"kind":"gap","dropped":12,"state":{"count":40}}
  /// ```
  package struct Gap<State> {
    /// How many transitions were dropped; at least 1.
    package var dropped: Int
    /// The state before the next step line.
    package var state: State

    /// Creates a gap marker.
    ///
    /// - Parameters:
    ///   - dropped: How many transitions were dropped.
    ///   - state: The state before the next step.
    package init(dropped: Int, state: State) {
      self.dropped = dropped
      self.state = state
    }
  }

  /// A stopped marker: the recorder stopped before its file would break a limit. It is the
  /// last line of its log.
  ///
  /// <!-- sample: stopped-marker -->
  /// ```text
  /// {"kind":"stopped","reason":"maximumFileSize","limit":1048576}
  /// ```
  package struct Stopped: Sendable, Equatable {
    /// Why the recorder stopped, as the file says it: a ``StopReason`` raw value from this
    /// build, any text from another (a reader keeps it rather than failing).
    package var reason: String
    /// The limit that was reached, in bytes, when the recorder had one.
    package var limit: Int?

    /// Creates a stopped marker.
    ///
    /// - Parameters:
    ///   - reason: Why the recorder stopped.
    ///   - limit: The limit that was reached, in bytes.
    package init(reason: StopReason, limit: Int?) {
      self.reason = reason.rawValue
      self.limit = limit
    }

    /// The reason as this build knows it, or `nil` for a reason it does not know.
    package var stopReason: StopReason? { StopReason(rawValue: reason) }
  }

  /// A warning marker: the recorder met a problem that did not stop it — a flight recorder's
  /// old segment it could not delete to keep its folder within budget — and wrote it into the
  /// log, so whoever reads the log hears it too. Steps go on after it.
  ///
  /// <!-- sample: warning-marker -->
  /// ```text
  /// {"kind":"warning","reason":"I\/O error: cannot delete segment-000001.jsonl to keep 'flight' within its budget of 10240 bytes: Operation not permitted"}
  /// ```
  package struct Warning: Sendable, Equatable {
    /// What the recorder met, in words; no secrets (it names files and system errors).
    package var message: String

    /// Creates a warning marker.
    ///
    /// - Parameter message: What the recorder met.
    package init(message: String) {
      self.message = message
    }
  }

  /// The closed marker: the recorder was closed normally. It is the last line of its log.
  ///
  /// <!-- sample: lines of Tests/ActionLogTests/Fixtures/login.jsonl -->
  /// ```text
  /// {"kind":"closed"}
  /// ```
  package struct Closed: Sendable, Equatable {
    /// Creates the closed marker.
    package init() {}
  }
}

extension ActionLogFormat.Gap: Sendable where State: Sendable {}
extension ActionLogFormat.Gap: Equatable where State: Equatable {}

extension ActionLogFormat.Gap: Decodable where State: Decodable {
  /// Decodes a gap marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind or a field is wrong.
  package init(from decoder: any Decoder) throws {
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

extension ActionLogFormat.Gap: ActionLogFormat.WritableLine where State: Encodable {
  /// The gap marker's fields, in the documented order.
  package func writeFields<Sink: ActionLogFormat.Fields>(
    to fields: inout Sink
  ) throws(Sink.Failure) {
    try fields.text(ActionLogFormat.MarkerKind.gap.rawValue, for: .kind)
    try fields.number(dropped, for: .dropped)
    try fields.value(state, for: .state)
  }
}

extension ActionLogFormat.Stopped: Decodable, ActionLogFormat.WritableLine {
  /// Decodes a stopped marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind or a field is wrong.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    try ActionLogFormat.expectKind(.stopped, in: container)
    try self.init(fields: container)
  }

  /// Decodes a stopped marker's fields from a line whose `kind` the reader has read.
  init(fields container: KeyedDecodingContainer<ActionLogFormat.Key>) throws {
    reason = try container.decode(String.self, forKey: .reason)
    limit = try container.decodeIfPresent(Int.self, forKey: .limit)
  }

  /// The stopped marker's fields, in the documented order.
  package func writeFields<Sink: ActionLogFormat.Fields>(
    to fields: inout Sink
  ) throws(Sink.Failure) {
    try fields.text(ActionLogFormat.MarkerKind.stopped.rawValue, for: .kind)
    try fields.text(reason, for: .reason)
    if let limit { try fields.number(limit, for: .limit) }
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

extension ActionLogFormat.Warning: Decodable, ActionLogFormat.WritableLine {
  /// Decodes a warning marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind or a field is wrong.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    try ActionLogFormat.expectKind(.warning, in: container)
    try self.init(fields: container)
  }

  /// Decodes a warning marker's fields from a line whose `kind` the reader has read.
  init(fields container: KeyedDecodingContainer<ActionLogFormat.Key>) throws {
    message = try container.decode(String.self, forKey: .reason)
  }

  /// The warning marker's fields, in the documented order.
  package func writeFields<Sink: ActionLogFormat.Fields>(
    to fields: inout Sink
  ) throws(Sink.Failure) {
    try fields.text(ActionLogFormat.MarkerKind.warning.rawValue, for: .kind)
    try fields.text(message, for: .reason)
  }
}

extension ActionLogFormat.Closed: Decodable, ActionLogFormat.WritableLine {
  /// Decodes the closed marker line.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the line is another kind.
  package init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: ActionLogFormat.Key.self)
    try ActionLogFormat.expectKind(.closed, in: container)
  }

  /// The closed marker's one field.
  package func writeFields<Sink: ActionLogFormat.Fields>(
    to fields: inout Sink
  ) throws(Sink.Failure) {
    try fields.text(ActionLogFormat.MarkerKind.closed.rawValue, for: .kind)
  }
}
