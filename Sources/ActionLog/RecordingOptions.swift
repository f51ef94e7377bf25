import StateStore

/// How an ``ActionLogRecorder`` writes its log.
///
/// ```swift
/// let options = RecordingOptions(checkpointInterval: 50, maximumFileSize: 10 << 20)
/// ```
public struct RecordingOptions: Sendable, Equatable {
  /// Transitions between two full-state checkpoints; 0 writes none. Default 100.
  public var checkpointInterval: Int
  /// The largest the file may grow, in bytes, or `nil` for no limit. When the next line would
  /// pass it, the recorder writes a `stopped` marker instead and stops; the file never passes
  /// the limit (unless the limit is smaller than the header and the marker together).
  public var maximumFileSize: Int?
  /// Whether to redact user names through ``StateStore/Redactable`` (off by default). Secrets are
  /// masked either way.
  public var maskUsernames: Bool
  /// How many transitions may wait for the writer; at most twice this many are in memory
  /// (one batch being written, one filling). Default 4096.
  public var bufferCapacity: Int
  /// How long `send` may wait on the main actor for room in a full buffer before the
  /// recorder drops transitions and writes a `gap` marker. Default 50 ms.
  public var maximumWait: Duration
  /// The longest line the recorder writes, in bytes; by default the limit a reader accepts,
  /// ``ActionLogReadOptions/defaultMaximumLineLength`` (16 MiB). A step whose line would be
  /// longer — a pasted 17 MiB username, say — ends the recording with a `stopped` marker
  /// instead, so every step before it still replays.
  public var maximumLineLength: Int

  /// Creates recording options.
  ///
  /// - Parameters:
  ///   - checkpointInterval: Transitions between checkpoints; 0 for none.
  ///   - maximumFileSize: The file's size limit in bytes, or `nil`.
  ///   - maskUsernames: Whether to redact user names too.
  ///   - bufferCapacity: Transitions that may wait for the writer (at least 1).
  ///   - maximumWait: How long a send may wait when the buffer is full.
  ///   - maximumLineLength: The longest line written, in bytes (at least 1).
  public init(
    checkpointInterval: Int = 100,
    maximumFileSize: Int? = nil,
    maskUsernames: Bool = false,
    bufferCapacity: Int = 4096,
    maximumWait: Duration = .milliseconds(50),
    maximumLineLength: Int = ActionLogReadOptions.defaultMaximumLineLength
  ) {
    self.checkpointInterval = max(0, checkpointInterval)
    self.maximumFileSize = maximumFileSize.map { max(0, $0) }
    self.maskUsernames = maskUsernames
    self.bufferCapacity = max(1, bufferCapacity)
    self.maximumWait = max(.zero, maximumWait)
    self.maximumLineLength = max(1, maximumLineLength)
  }

  var redactionLevel: RedactionLevel { maskUsernames ? .usernames : [] }
}
