import Foundation

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
  /// How the steps' digests are computed (``ActionLogFormat/digestAlgorithm``).
  public var digestAlgorithm: String
  /// Transitions between checkpoints; 0 for none.
  public var checkpointInterval: Int
  /// The launch that wrote it, for a flight recorder's segment (``ActionLogHeader/launch``).
  public var launch: String?

  /// Reads the header of the log at `url`, checking format and version.
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - maximumLineLength: The longest header line accepted, in bytes.
  /// - Throws: ``ActionLogError/ioError(_:)`` when the file cannot be opened or is not a
  ///   regular file, and the header errors: ``ActionLogError/emptyFile``,
  ///   ``ActionLogError/missingHeader(line:)``, ``ActionLogError/foreignFormat(_:)``,
  ///   ``ActionLogError/unsupportedVersion(found:supported:)``, and the line errors.
  public init(
    contentsOf url: URL,
    maximumLineLength: Int = ActionLogReadOptions.defaultMaximumLineLength
  ) throws(ActionLogError) {
    let lines = try LineReader(url: url, maximumLineLength: maximumLineLength)
    let header = try HeaderDecoding.decode(ActionLogHeader<SkippedValue>.self, from: lines)
      .header
    self.feature = header.feature
    self.version = header.version
    self.created = header.created
    self.digestAlgorithm = header.digestAlgorithm
    self.checkpointInterval = header.checkpointInterval
    self.launch = header.launch
  }
}

/// Decodes anything and keeps nothing: the state of a header read without its type.
struct SkippedValue: Codable {
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {}
}
