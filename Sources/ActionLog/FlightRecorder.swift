import Foundation
import StateStore

/// How a ``FlightRecorder`` rolls its segments.
public struct FlightRecorderOptions: Sendable, Equatable {
  /// The most bytes the folder's segments take together; the oldest are deleted first.
  /// 8 MiB by default.
  public var budget: Int
  /// How many segments the budget is split into: each segment is rolled over at
  /// `budget / segmentCount` bytes (it may pass that by the batch being written). 8 by default.
  public var segmentCount: Int
  /// Checkpoints, redaction and buffering of each segment. Its `maximumFileSize` is ignored:
  /// segments roll over instead of stopping.
  public var recording: RecordingOptions

  /// Creates options.
  ///
  /// - Parameters:
  ///   - budget: The most bytes the segments take together; at least 1 KiB.
  ///   - segmentCount: How many segments the budget is split into; at least 2.
  ///   - recording: How each segment is recorded.
  public init(
    budget: Int = 8 * 1024 * 1024, segmentCount: Int = 8, recording: RecordingOptions = .init()
  ) {
    self.budget = max(1_024, budget)
    self.segmentCount = max(2, segmentCount)
    self.recording = recording
  }

  /// The size at which a segment rolls over.
  public var segmentSize: Int { budget / segmentCount }
}

/// Records a store into a folder of rolling segments within a fixed byte budget: the last
/// minutes before a bug, across launches, like an aircraft's flight recorder.
///
/// Each segment (`segment-000001.jsonl`, `segment-000002.jsonl`, …) is a complete action log:
/// its header holds the state before its first step — a checkpoint — so the oldest segment
/// kept replays on its own. When the segment being written passes its share of the budget, the
/// next one starts; the oldest are deleted while the folder is over budget. A new recorder on
/// the same folder (the next launch) goes on numbering after the last segment; its steps start
/// again at 1, which is how a replay tells where each launch begins.
///
/// Lines are written in batches by a background writer, as ``ActionLogRecorder`` does: killing
/// the process loses at most the batch in flight, and leaves a segment whose last line may be
/// cut — which a replay reports and gets past.
///
/// ```swift
/// let recorder = try FlightRecorder(
///   store: store, folder: logsFolder, feature: AppReducer.actionLogFeature)
/// // … replay later with `replay logsFolder`, or `FlightRecording(folder:)`.
/// ```
@MainActor
public final class FlightRecorder<R: Reducer>
where R.State: Encodable & Sendable, R.Action: Encodable, R.Effect: Encodable {
  /// The folder of segments.
  public let folder: URL
  /// How segments roll.
  public let options: FlightRecorderOptions

  private let feature: String
  private let onError: @Sendable (ActionLogError) -> Void
  private var current: RecorderCore<R.State, R.Action, R.Effect>
  private var currentNumber: Int
  private var subscription: StoreSubscription?
  private var pruning: Task<Void, Never>?
  /// A segment could not be opened: the current one is written on, past its size, and no other
  /// roll is tried (no file calls on the main actor at every send, one error reported).
  private var rollFailed = false

  /// Starts recording `store` into `folder`, which is created (mode 0700) when missing.
  ///
  /// - Parameters:
  ///   - store: The store to record.
  ///   - folder: The folder of segments.
  ///   - feature: The feature's name, written in every segment's header.
  ///   - options: The budget and how segments are recorded.
  ///   - onError: Called, on a background queue, when writing a segment fails, and on the main
  ///     actor, once, when the next segment cannot be made: the recorder then writes on in the
  ///     segment it has, past its share of the budget, and rolls no more.
  /// - Throws: ``ActionLogError/ioError(_:)`` when the folder or the first segment cannot be made.
  public init(
    store: Store<R>,
    folder: URL,
    feature: String,
    options: FlightRecorderOptions = .init(),
    onError: @escaping @Sendable (ActionLogError) -> Void = { _ in }
  ) throws(ActionLogError) {
    self.folder = folder
    self.options = options
    self.feature = feature
    self.onError = onError
    try FlightRecording.makeFolder(folder)
    let number = (try FlightRecording.segmentNumbers(in: folder).last ?? 0) + 1
    currentNumber = number
    current = try Self.openSegment(
      number, in: folder, feature: feature, state: store.state, options: options,
      onError: onError)
    subscription = store.observeTransitions { [weak self] transition in
      self?.record(transition)
    }
  }

  isolated deinit {
    current.finish()
  }

  /// The number of the segment being written.
  public var currentSegment: Int { currentNumber }

  /// Flushes and closes the segment being written; nothing is recorded afterwards.
  public func close() async {
    subscription?.cancel()
    subscription = nil
    await pruning?.value
    let core = current
    await withCheckedContinuation { continuation in
      core.finish { continuation.resume() }
    }
  }

  private func record(_ transition: Transition<R.State, R.Action, R.Effect>) {
    if !rollFailed, current.writtenBytes >= options.segmentSize {
      roll(from: transition.stateBefore)
    }
    current.enqueue(transition)
  }

  private func roll(from state: R.State) {
    let next = currentNumber + 1
    let segment: RecorderCore<R.State, R.Action, R.Effect>
    do {
      segment = try Self.openSegment(
        next, in: folder, feature: feature, state: state, options: options, onError: onError)
    } catch {
      // Keep writing the current segment; the budget will be passed, not the data lost.
      rollFailed = true
      onError(error)
      return
    }
    current.finish()
    current = segment
    currentNumber = next
    let folder = folder
    let budget = options.budget
    let previous = pruning
    pruning = Task.detached(priority: .utility) {
      await previous?.value
      FlightRecording.prune(folder, budget: budget, keeping: next)
    }
  }

  private static func openSegment(
    _ number: Int, in folder: URL, feature: String, state: R.State,
    options: FlightRecorderOptions, onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) -> RecorderCore<R.State, R.Action, R.Effect> {
    var recording = options.recording
    recording.maximumFileSize = nil
    let header = ActionLogHeader(
      feature: feature, created: Date(), checkpointInterval: recording.checkpointInterval,
      initialState: state)
    return try RecorderCore(
      url: FlightRecording.segmentURL(number, in: folder), header: header, options: recording,
      onError: onError)
  }
}

extension Store where R.State: Encodable & Sendable, R.Action: Encodable, R.Effect: Encodable {
  /// Starts a ``ActionLog/FlightRecorder``: rolling segments in `folder` within a byte budget.
  ///
  /// ```swift
  /// let recorder = try store.recordFlight(to: folder, feature: "app")
  /// ```
  ///
  /// - Parameters:
  ///   - folder: The folder of segments.
  ///   - feature: The feature's name, written in every segment's header.
  ///   - options: The budget and how segments are recorded.
  ///   - onError: Called, on a background queue, when writing fails.
  /// - Returns: The recorder; keep it, and `await close()` it to flush.
  /// - Throws: What ``ActionLog/FlightRecorder/init(store:folder:feature:options:onError:)`` throws.
  public func recordFlight(
    to folder: URL,
    feature: String,
    options: FlightRecorderOptions = .init(),
    onError: @escaping @Sendable (ActionLogError) -> Void = { _ in }
  ) throws(ActionLogError) -> FlightRecorder<R> {
    try FlightRecorder(
      store: self, folder: folder, feature: feature, options: options, onError: onError)
  }
}
