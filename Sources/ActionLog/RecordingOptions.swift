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
  /// Whether to write every ``StateStore/PersonalData`` — usernames, emails, display names — as
  /// its mask, wherever it sits in a state, an action or an effect (off by default). Secrets are
  /// masked either way.
  public var masksPersonalData: Bool
  /// The most bytes the transitions waiting for the writer may hold — the batch being written
  /// and the one filling together. Default 8 MiB (``defaultBufferSize``).
  ///
  /// `send` never waits for the writer: a transition that does not fit is dropped at once, and
  /// the log holds a `gap` marker saying how many were dropped, with the state to resume from.
  /// Nothing of a dropped transition is kept (a kept state would make the store's next write
  /// into a collection copy it): the first transition that fits again ends the gap, dropped
  /// too, and its state after is the gap's state. Steps dropped at the end get the store's
  /// state from `close()`; a recorder released without it (or whose store is gone) writes a
  /// `warning` line that says how many were dropped instead.
  /// Each waiting transition is charged the size of the last state the writer encoded (in
  /// canonical JSON, about what a state of numbers and short strings takes in memory) plus
  /// the average line, so the bound holds whatever the state's size: a state of 100,000 items
  /// buffers a few transitions, a login form thousands. One transition always fits when nothing
  /// is waiting. Raise it for bursts of large states; to lose nothing in a test, `await` the
  /// recorder's `flush()` between sends.
  public var bufferSize: Int
  /// The longest line the recorder writes, in bytes; by default the limit a reader accepts,
  /// ``ActionLogReadOptions/defaultMaximumLineLength`` (16 MiB). A step whose line would be
  /// longer — a pasted 17 MiB username, say — ends the recording with a `stopped` marker
  /// instead, so every step before it still replays.
  public var maximumLineLength: Int
  /// The clock each step's time is measured on, from the moment the recording (or a flight
  /// recorder's segment) starts; ``RecordingClock/continuous`` by default.
  public var clock: RecordingClock

  /// Creates recording options.
  ///
  /// - Parameters:
  ///   - checkpointInterval: Transitions between checkpoints; 0 for none.
  ///   - maximumFileSize: The file's size limit in bytes, or `nil`.
  ///   - masksPersonalData: Whether to mask personal data (usernames, emails, display names)
  ///     too.
  ///   - bufferSize: The bytes transitions waiting for the writer may hold (at least 1).
  ///   - maximumLineLength: The longest line written, in bytes (at least 1).
  ///   - clock: The clock step times are measured on.
  public init(
    checkpointInterval: Int = 100,
    maximumFileSize: Int? = nil,
    masksPersonalData: Bool = false,
    bufferSize: Int = RecordingOptions.defaultBufferSize,
    maximumLineLength: Int = ActionLogReadOptions.defaultMaximumLineLength,
    clock: RecordingClock = .continuous
  ) {
    self.checkpointInterval = max(0, checkpointInterval)
    self.maximumFileSize = maximumFileSize.map { max(0, $0) }
    self.masksPersonalData = masksPersonalData
    self.bufferSize = max(1, bufferSize)
    self.maximumLineLength = max(1, maximumLineLength)
    self.clock = clock
  }

  /// The default ``bufferSize``: 8 MiB.
  public static let defaultBufferSize = 8 << 20

  /// The old name of ``masksPersonalData``: it masks every ``StateStore/PersonalData``, not
  /// only usernames.
  @available(*, deprecated, renamed: "masksPersonalData")
  public var maskUsernames: Bool {
    get { masksPersonalData }
    set { masksPersonalData = newValue }
  }

  /// Creates recording options with the old name of `masksPersonalData`.
  ///
  /// - Parameters:
  ///   - checkpointInterval: Transitions between checkpoints; 0 for none.
  ///   - maximumFileSize: The file's size limit in bytes, or `nil`.
  ///   - maskUsernames: Whether to mask personal data too.
  ///   - bufferSize: The bytes transitions waiting for the writer may hold (at least 1).
  ///   - maximumLineLength: The longest line written, in bytes (at least 1).
  ///   - clock: The clock step times are measured on.
  @available(
    *, deprecated,
    renamed:
      "init(checkpointInterval:maximumFileSize:masksPersonalData:bufferSize:maximumLineLength:clock:)"
  )
  public init(
    checkpointInterval: Int = 100,
    maximumFileSize: Int? = nil,
    maskUsernames: Bool,
    bufferSize: Int = RecordingOptions.defaultBufferSize,
    maximumLineLength: Int = ActionLogReadOptions.defaultMaximumLineLength,
    clock: RecordingClock = .continuous
  ) {
    self.init(
      checkpointInterval: checkpointInterval, maximumFileSize: maximumFileSize,
      masksPersonalData: maskUsernames, bufferSize: bufferSize,
      maximumLineLength: maximumLineLength, clock: clock)
  }
}
