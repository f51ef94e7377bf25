import Foundation

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

  enum CodingKeys: String, CodingKey {
    case format, version, feature, created, checkpointInterval, initialState
  }

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
    let container = try decoder.container(keyedBy: CodingKeys.self)
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
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(format, forKey: .format)
    try container.encode(version, forKey: .version)
    try container.encode(feature, forKey: .feature)
    try container.encode(created.formatted(.iso8601), forKey: .created)
    try container.encode(checkpointInterval, forKey: .checkpointInterval)
    try container.encode(initialState, forKey: .initialState)
  }
}

/// The parts of a header that do not depend on the feature's types.
///
/// Read it first to choose the reducer for a log (the `replay` tool does), or to show what a
/// file is without decoding its state.
///
/// ```swift
/// let info = try ActionLogHeaderInfo(contentsOf: url)
/// guard info.feature == "login" else { … }
/// ```
public struct ActionLogHeaderInfo: Sendable, Equatable {
  /// The feature's name.
  public var feature: String
  /// The format version.
  public var version: Int
  /// When recording started.
  public var created: Date
  /// Transitions between checkpoints; 0 for none.
  public var checkpointInterval: Int

  /// Reads the header of the log at `url`, checking format and version.
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - maximumLineLength: The longest header line accepted, in bytes.
  /// - Throws: The header errors of ``ActionLogError``: ``ActionLogError/emptyFile``,
  ///   ``ActionLogError/missingHeader(line:)``, ``ActionLogError/foreignFormat(_:)``,
  ///   ``ActionLogError/unsupportedVersion(found:supported:)``, and the line errors.
  public init(
    contentsOf url: URL,
    maximumLineLength: Int = ActionLogReadOptions.defaultMaximumLineLength
  ) throws(ActionLogError) {
    let lines = try LineReader(url: url, maximumLineLength: maximumLineLength)
    let header = try HeaderDecoding.decode(
      ActionLogHeader<SkippedValue>.self, from: lines, decoder: JSONDecoder())
    self.feature = header.feature
    self.version = header.version
    self.created = header.created
    self.checkpointInterval = header.checkpointInterval
  }
}

/// Decodes anything and keeps nothing: the state of a header read without its type.
struct SkippedValue: Codable {
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {}
}
