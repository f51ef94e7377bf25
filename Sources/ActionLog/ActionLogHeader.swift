import Foundation
import StateStore

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
  /// How the steps' digests are computed, and so how the log's values are written: the
  /// canonical form's version. This build writes ``ActionLogFormat/digestAlgorithm``
  /// (`fnv1a64-canonical-v2`) and reads and verifies that and `fnv1a64-canonical-v1`.
  public var digestAlgorithm: String
  /// The launch that wrote the log, for a ``FlightRecorder``'s segment: one identifier for
  /// every segment one recorder writes, so a replay tells apart launches that wrote into one
  /// folder at the same time. `nil` for a plain log, and for segments recorded before launches
  /// were named (a replay then orders them by number alone).
  public var launch: String?
  /// How many transitions lie between two checkpoints; 0 means none.
  public var checkpointInterval: Int
  /// The store's state when recording started.
  public var initialState: State

  /// Creates a header for version ``ActionLogFormat/version``.
  ///
  /// - Parameters:
  ///   - feature: The feature's name.
  ///   - created: When recording started.
  ///   - launch: The launch that writes it, for a flight recorder's segment.
  ///   - checkpointInterval: Transitions between checkpoints; 0 for none.
  ///   - initialState: The state before the first transition.
  public init(
    feature: String, created: Date, launch: String? = nil, checkpointInterval: Int,
    initialState: State
  ) {
    self.format = ActionLogFormat.name
    self.version = ActionLogFormat.version
    self.feature = feature
    self.created = created
    self.launch = launch
    self.digestAlgorithm = ActionLogFormat.digestAlgorithm
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
    // Logs recorded before the header named the algorithm digested in the first version.
    digestAlgorithm =
      try container.decodeIfPresent(String.self, forKey: .digest)
      ?? CanonicalForm.v1.digestAlgorithm
    launch = try container.decodeIfPresent(String.self, forKey: .launch)
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
    var fields = ActionLogFormat.KeyedFields<State>(encoder)
    try writeFields(to: &fields)
  }
}

extension ActionLogHeader: ActionLogFormat.WritableLine where State: Encodable {
  /// The header's fields, in the documented order: what ``encode(to:)`` and the recorder's
  /// writer write.
  package func writeFields<Sink: ActionLogFormat.Fields>(
    to fields: inout Sink
  ) throws(Sink.Failure) {
    try fields.text(format, for: .format)
    try fields.number(version, for: .version)
    try fields.text(feature, for: .feature)
    try fields.text(created.formatted(.iso8601), for: .created)
    try fields.text(digestAlgorithm, for: .digest)
    if let launch { try fields.text(launch, for: .launch) }
    try fields.number(checkpointInterval, for: .checkpointInterval)
    try fields.value(initialState, for: .initialState)
  }
}
