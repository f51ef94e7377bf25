import Foundation
import StateStore

/// How a ``FlightRecorder`` rolls its segments.
public struct FlightRecorderOptions: Sendable, Equatable {
  /// The most bytes the folder's segments take together; the oldest are deleted first.
  /// 8 MiB by default.
  public var budget: Int
  /// How many segments the budget is split into: each segment is rolled over once the bytes
  /// handed to its writer reach `budget / segmentCount` (it may pass that by about one line,
  /// the sizes of lines not yet written being estimated). 8 by default.
  public var segmentCount: Int
  /// Checkpoints, redaction and buffering. Its `maximumFileSize` is ignored: segments roll
  /// over instead of stopping. Its `bufferSize` bounds the memory of all segments together.
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
/// kept replays on its own. When the bytes handed to the writer of the segment reach its share
/// of the budget, the next one starts; the oldest are deleted while the folder is over budget,
/// so the folder holds at most the budget and the segment being written. A new recorder on
/// the same folder (the next launch) goes on numbering after the last segment; its steps start
/// again at 1, which is how a replay tells where each launch begins. Segments are created
/// exclusively: processes recording into one folder at once each take numbers of their own and
/// never write into another's segment, and every segment's header names the launch that wrote
/// it (``ActionLogHeader/launch``), so a replay reads each launch whole, in the order the
/// launches began, however their numbers interleave. Numbers have six digits or more (`segment-1000000.jsonl`
/// follows `segment-999999.jsonl`) and are ordered numerically.
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
  /// Written in the header of every segment this recorder opens: its launch, told apart from
  /// others writing into the same folder.
  private let launch = UUID().uuidString.lowercased()
  private let onError: @Sendable (ActionLogError) -> Void
  /// The memory every segment's buffer draws on.
  private let budget: RecorderBudget
  private var isClosed = false
  @usableFromInline var current: RecorderCore<R.State, R.Action, R.Effect>
  /// The segment being written, for the prunes off the main actor: a prune that fails writes
  /// its warning into the segment being written when it fails.
  private let writing: Guarded<WritingSegment<R.State, R.Action, R.Effect>>
  /// What the prunes have said already (``PruneWarnings``).
  private let said = Guarded(PruneWarnings())
  /// Set after `current` when a segment rolls: the prunes then note into the new one.
  private var currentNumber: Int {
    didSet { writing.withLock { $0 = WritingSegment(core: current, number: currentNumber) } }
  }
  @usableFromInline var subscription: StoreSubscription?
  /// The recorded store's state now, while the store lives: the state of steps dropped at the
  /// end, which ``close()`` writes.
  @usableFromInline var currentState: () -> R.State? = { nil }
  private var pruning: Task<Void, Never>?
  /// A segment could not be opened: the current one is written on, past its size, and no other
  /// roll is tried (no file calls on the main actor at every send, one error reported).
  @usableFromInline var rollFailed = false

  /// Starts recording `store` into `folder`, which is created (mode 0700) when missing: only
  /// the folder itself, whose parent must exist (a mistyped path never grows a tree of folders).
  ///
  /// - Parameters:
  ///   - store: The store to record.
  ///   - folder: The folder of segments.
  ///   - feature: The feature's name, written in every segment's header.
  ///   - options: The budget and how segments are recorded.
  ///   - onError: Called, on a background queue, when writing a segment fails; on the main
  ///     actor, once, when the next segment cannot be made: the recorder then writes on in the
  ///     segment it has, past its share of the budget, and rolls no more; and on a background
  ///     task with a ``ActionLogError/folderWarning(_:)``, once for each problem, when the
  ///     folder cannot be kept within its budget (a segment that cannot be deleted, a folder
  ///     that cannot be listed) or holds a file with a segment's name that the package did not
  ///     write (left as it is): recording goes on, and each segment being written meanwhile
  ///     holds the same words in a `warning` line, which `replay` reports
  ///     (``ActionLogError/recorderWarning(line:message:)``).
  /// - Throws: ``ActionLogError/ioError(_:)`` when the folder or the first segment cannot be made.
  @inlinable
  public convenience init(
    store: Store<R>,
    folder: URL,
    feature: String,
    options: FlightRecorderOptions = .init(),
    onError: @escaping @Sendable (ActionLogError) -> Void = { _ in }
  ) throws(ActionLogError) {
    try self.init(
      unsubscribedTo: store, folder: folder, feature: feature, options: options,
      onError: onError)
    // Made here, in the host's module, so each step is buffered by code specialized for its
    // types (as `ActionLogRecorder` does).
    subscription = store.observeSteps { [weak self] step in
      self?.record(step)
    }
    currentState = { [weak store] in store?.state }
  }

  /// Makes the folder, opens the first segment and starts its writer; the public initializer
  /// above subscribes.
  @usableFromInline
  init(
    unsubscribedTo store: Store<R>,
    folder: URL,
    feature: String,
    options: FlightRecorderOptions,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    self.folder = folder
    self.options = options
    self.feature = feature
    self.onError = onError
    budget = RecorderBudget(limit: options.recording.bufferSize)
    try FlightRecording.makeFolder(folder)
    let last = try FlightRecording.segmentNumbers(in: folder).last ?? 0
    let (first, number) = try Self.openSegment(
      after: last, in: folder, feature: feature, launch: launch, state: store.state,
      options: options,
      budget: budget, onError: onError)
    current = first
    currentNumber = number
    writing = Guarded(WritingSegment(core: first, number: number))
  }

  isolated deinit {
    current.finish()
  }

  /// The number of the segment being written.
  public var currentSegment: Int { currentNumber }

  /// Waits until every transition recorded so far is written to its segment, and the oldest
  /// segments are deleted while the folder is over its budget; recording goes on.
  ///
  /// When it returns, the folder holds at most the budget plus the segment being written. A
  /// segment that cannot be deleted is reported through `onError` and in a `warning` line of
  /// the segment being written (written when this returns), and recording goes on. Use it
  /// before copying the folder into a bug report.
  public func flush() async {
    await Self.flush(current)
    // The prunes of the segments rolled so far, then one more: a burst can roll several
    // segments before their prunes run, and they ran in low-priority tasks nobody waited for.
    await pruning?.value
    await prune(keeping: currentNumber)
    // What the prune wrote into the log, if anything.
    await Self.flush(current)
  }

  private static func flush(_ core: RecorderCore<R.State, R.Action, R.Effect>) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      core.flush { continuation.resume() }
    }
  }

  /// Deletes the oldest segments while the folder is over its budget, off the main actor,
  /// never `keeping` or newer; a failure goes to `onError` and into the segment being written.
  private func prune(keeping number: Int, reserving reserved: Int = 0) async {
    let (folder, onError, writing, said) = (folder, onError, writing, said)
    let budget = max(0, options.budget - reserved)
    await Task.detached(priority: .utility) {
      pruneSegments(
        folder, budget: budget, keeping: number, noting: writing, said: said, onError: onError)
    }.value
  }

  /// Flushes and closes the segment being written, and deletes the oldest segments while the
  /// folder is over its budget; nothing is recorded afterwards.
  public func close() async {
    subscription?.cancel()
    subscription = nil
    await pruning?.value
    let core = current
    if !isClosed {
      isClosed = true
      // Pruned before the segment closes, once what it holds is on disk, so that a failure
      // is written into it, before its `closed` line.
      await Self.flush(core)
      // The `closed` line the segment ends with counts: after it the folder is within budget.
      await prune(keeping: currentNumber, reserving: ActionLogFormat.closedLineByteCount)
    }
    let finalState = currentState()
    await withCheckedContinuation { continuation in
      core.finish(finalState: finalState) { continuation.resume() }
    }
  }

  @inlinable
  func record(_ step: StoreStep<R.State, R.Action, R.Effect>) {
    current.enqueue(step)
    // On the bytes handed to the writer, not on those it has written: a writer that is behind
    // must not let a segment grow past its share. The next segment starts from the state after
    // this step, so the recorder never keeps a state of its own.
    if !rollFailed, current.handedBytes >= options.segmentSize {
      roll(from: step.stateAfter)
    }
  }

  @usableFromInline
  func roll(from state: R.State) {
    let segment: RecorderCore<R.State, R.Action, R.Effect>
    let next: Int
    do {
      (segment, next) = try Self.openSegment(
        after: currentNumber, in: folder, feature: feature, launch: launch, state: state,
        options: options,
        budget: budget, onError: onError)
    } catch {
      // Keep writing the current segment; the budget will be passed, not the data lost.
      rollFailed = true
      onError(error)
      return
    }
    let finished = current
    // Steps it dropped at its end led to `state`, which the next segment starts from.
    finished.finish(finalState: state)
    current = segment
    currentNumber = next
    let folder = folder
    let budget = options.budget
    let previous = pruning
    let onError = onError
    let writing = writing
    let said = said
    pruning = Task.detached(priority: .utility) {
      await previous?.value
      // Once the segment just closed is all on disk, so its size counts whole.
      await withCheckedContinuation { continuation in
        finished.finish { continuation.resume() }
      }
      pruneSegments(
        folder, budget: budget, keeping: next, noting: writing, said: said, onError: onError)
    }
  }

  /// Opens the first free segment numbered after `last`. Each is created exclusively: a number
  /// another process (or anything else) has taken is skipped, never written into.
  private static func openSegment(
    after last: Int, in folder: URL, feature: String, launch: String, state: R.State,
    options: FlightRecorderOptions, budget: RecorderBudget,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) -> (RecorderCore<R.State, R.Action, R.Effect>, Int) {
    var recording = options.recording
    recording.maximumFileSize = nil
    let header = ActionLogHeader(
      feature: feature, created: Date(), launch: launch,
      checkpointInterval: recording.checkpointInterval, initialState: state)
    var number = last
    for _ in 0..<maximumSkippedNumbers {
      guard number < Int.max else { break }
      number += 1
      guard let file = try LogFile.createNew(at: FlightRecording.segmentURL(number, in: folder))
      else { continue }
      let core = try RecorderCore<R.State, R.Action, R.Effect>(
        file: file, header: header, options: recording, budget: budget, onError: onError)
      return (core, number)
    }
    throw .ioError(
      "cannot create a segment in \(Sanitized.name(folder.lastPathComponent)): "
        + "the names after \(FlightRecording.segmentName(last)) are taken")
  }

  /// How many taken segment numbers a new segment skips before giving up.
  private static var maximumSkippedNumbers: Int { 1_000 }
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
  ///   - onError: Called, on a background queue, when writing fails or the folder cannot be
  ///     kept within its budget.
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

/// The segment being written, and its number.
private struct WritingSegment<
  State: Encodable & Sendable, Action: Encodable & Sendable, Effect: Encodable & Sendable
>: Sendable {
  var core: RecorderCore<State, Action, Effect>
  var number: Int
}

/// What a flight recorder's prunes have said: each problem is told to the host once, and
/// written once into each segment that is being written while it lasts, so the folder always
/// holds it (a line at every roll took a folder to 2–3.5× its budget).
private struct PruneWarnings {
  /// The problems told to the host (``FlightRecording/PruneWarning/key``).
  var told: Set<String> = []
  /// The segment the problems in `noted` were written into.
  var notedSegment = 0
  var noted: Set<String> = []
}

/// One prune of a flight recorder's folder: each warning is told to the host once, and written
/// once into the segment being written (`writing`), so a person reading the folder, in a bug
/// report, learns why it is over its budget or what it left alone.
private func pruneSegments<State, Action, Effect>(
  _ folder: URL, budget: Int, keeping number: Int,
  noting writing: Guarded<WritingSegment<State, Action, Effect>>,
  said: Guarded<PruneWarnings>,
  onError: @Sendable (ActionLogError) -> Void
) {
  // Held through the prune: two prunes never count and delete at once.
  let (toTell, toNote) = said.withLock { said in
    let warnings = FlightRecording.prune(folder, budget: budget, keeping: number)
    let segment = writing.withLock { $0 }
    if said.notedSegment != segment.number {
      said.notedSegment = segment.number
      said.noted = []
    }
    let toTell = warnings.filter { said.told.insert($0.key).inserted }
    let toNote = warnings.filter { said.noted.insert($0.key).inserted }
    return (toTell, toNote.isEmpty ? nil : (segment.core, toNote))
  }
  for warning in toTell { onError(.folderWarning(warning.message)) }
  if let (core, warnings) = toNote {
    for warning in warnings { core.note(warning.message) }
  }
}
