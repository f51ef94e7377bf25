import Foundation
import StateStore

/// The shared part of a recorder: a queue bounded in bytes, filled on the main actor and
/// drained in batches by a writer thread that encodes, digests and writes.
///
/// A thin shell around one state, the ``Machine``, behind the package's one lock type
/// (`Guarded`), in the style of swift-async-algorithms' `DebounceStorage`: each call takes
/// the lock once, hands the machine one event, and does what the event returns outside the
/// lock. The ``Writer`` belongs to the writer thread alone.
///
/// `send` takes the lock once per step, and never waits: the gap owed, the bytes the step is
/// charged and the queue are all in the one state. When the queue has no room (the writer is
/// behind), the step is dropped at once and counted, keeping nothing of it, and the next step
/// that fits ends the gap: it is dropped too, and written as a `gap` marker holding its state
/// after. The writer trades the whole queue for an empty one at each batch, encodes every line
/// into one `Data` and writes it with one call, so lines land whole and in order; after a
/// batch it lingers (``linger``) before taking the next, so a burst of sends wakes it about
/// once per linger, not once per send. A writer with nothing to do sleeps in
/// `Guarded.withLock(when:_:)` until a step, a flush or the end wakes it.
@usableFromInline
final class RecorderCore<
  State: Encodable & Sendable, Action: Encodable & Sendable,
  Effect: Encodable & Sendable
>: Sendable {
  @usableFromInline
  enum Item {
    /// A step, and when it was enqueued: the time since the recording started. Not the state
    /// before it, which a log does not hold.
    case transition(StoreStep<State, Action, Effect>, time: Duration)
    case gap(dropped: Int, state: State)
    /// A problem the recorder met and writes into its own log (a `warning` marker).
    case warning(String)
    /// The first header, encoded before the writer started (to measure the first state), or
    /// the error encoding it threw.
    case headerLine(Result<Data, ActionLogError>)
    /// A flight recorder's next segment: the file, opened on the main actor, and its header.
    /// The segment before it ends with its `closed` line.
    case segment(LogFile, ActionLogHeader<State>)

    var isHeader: Bool {
      switch self {
      case .headerLine, .segment: return true
      case .transition, .gap, .warning: return false
      }
    }
  }

  @usableFromInline let machine: Guarded<Machine>
  private let onError: @Sendable (ActionLogError) -> Void
  /// The time since the recording started (the moment its header's `created` names) on the
  /// options' clock: every step's time.
  @usableFromInline let elapsed: @Sendable () -> Duration

  /// Starts a recording into `file`, beginning with `header`, and its writer thread.
  ///
  /// The header is encoded here, once, so the first steps are charged the size of a real
  /// state.
  init(
    file: LogFile,
    header: ActionLogHeader<State>,
    options: RecordingOptions,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    elapsed = options.clock.startStopwatch()
    self.onError = onError
    var writer = try Writer(file: file, options: options)
    var buffer = Buffer(limit: options.bufferSize)
    let line: Result<Data, ActionLogError>
    do throws(ActionLogError) {
      line = .success(try writer.header(header))
    } catch {
      line = .failure(error)
    }
    if case .success(let data) = line {
      buffer.stateBytes = data.count
      buffer.queuedLineBytes = data.count + 1
    }
    buffer.queue.append(.headerLine(line), cost: 0)
    machine = Guarded(.recording(buffer))
    // The writer's, from now on.
    let owned = Guarded(writer)
    Thread.detachNewThread { [self] in
      Thread.current.name = "loginstore.actionlog.writer"
      runWriter(owned)
    }
  }

  /// Starts a recording into a new file at `url` (or an earlier action log there, replaced).
  convenience init(
    url: URL,
    header: ActionLogHeader<State>,
    options: RecordingOptions,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    try self.init(file: LogFile(url: url), header: header, options: options, onError: onError)
  }

  var isRecording: Bool { machine.withLock { $0.isRecording } }

  var droppedTransitionCount: Int { machine.withLock { $0.droppedCount } }

  // MARK: - Main actor side

  /// Offers a step: buffered, or dropped at once when the writer is behind. Returns the bytes
  /// the segment being written will hold once the writer has written everything handed to it,
  /// or `nil` once the recording takes no steps.
  ///
  /// One lock acquisition, one event (``Machine/send(_:time:)``), and nothing else: no I/O,
  /// no wake-up call (a waiting writer is woken by the lock itself).
  // Inlinable, so it runs specialized for the host's state, action and effect types: run
  // generically from this module, 40% of its time went to generic metadata lookups.
  @inlinable
  @discardableResult
  func send(_ step: StoreStep<State, Action, Effect>) -> Int? {
    // When the step happened, on the clock the recording started on.
    let time = elapsed()
    return machine.withLock { $0.send(step, time: time) }
  }

  /// Begins a flight recorder's next segment, into `file`: the one being written ends with its
  /// `closed` line once what it was handed is written. Once the recording stopped, `file` is
  /// deleted (it holds nothing) and `false` returned.
  func roll(into file: LogFile, header: ActionLogHeader<State>) -> Bool {
    if machine.withLock({ $0.roll(into: file, header: header) }) { return true }
    file.removeIfUnwritten()
    return false
  }

  /// Writes `message` into the log as a `warning` marker, after what is buffered, once in each
  /// segment for each `key`, so whoever reads the log hears what the recorder met. Ignored once
  /// the recording stopped or is finishing; any thread may call it.
  func note(_ message: String, key: String) {
    machine.withLock { $0.note(message, key: key) }
  }

  /// Returns once everything enqueued so far is written.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      machine.withLock { $0.flush { continuation.resume() } }?()
    }
  }

  /// Stops taking steps; the writer writes what is buffered and the `closed` marker, and
  /// closes the file, in the background.
  ///
  /// - Parameter finalState: The store's state now, when the caller knows it: the state of a
  ///   gap still owed (steps dropped at the end). Without it, a warning says they were dropped.
  func finish(finalState: State? = nil) {
    machine.withLock { $0.finish(finalState: finalState, nil) }?()
  }

  /// Finishes (``finish(finalState:)``), and returns once the file is closed.
  func close(finalState: State?) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      machine.withLock { $0.finish(finalState: finalState) { continuation.resume() } }?()
    }
  }

  // MARK: - Writer side

  /// How long the writer lingers after writing a batch: a line reaches the file at most this
  /// much later than it would if every step woke the writer.
  static var linger: TimeInterval { 0.001 }

  /// The writer thread: takes batches and writes them until the recording ends.
  private func runWriter(_ writer: Guarded<Writer>) {
    var batch: [Item] = []
    while true {
      let taken = machine.withLock(when: \.hasWork) { $0.take(into: &batch) }
      let wrote = !batch.isEmpty
      let outcome = writer.withLock { $0.write(batch, closing: taken.isLast) }
      let done = machine.withLock { $0.written(outcome, closed: taken.isLast) }
      if case .stopped(let error) = outcome {
        if let error { onError(error) }
        for case .segment(let file, _) in batch + (done.discarded ?? []) {
          file.removeIfUnwritten()
        }
      }
      batch.removeAll(keepingCapacity: true)
      for completion in taken.completions + done.completions { completion() }
      if done.discarded != nil { return }
      if wrote { Thread.sleep(forTimeInterval: Self.linger) }
    }
  }
}
