import Dispatch
import Foundation
import StateStore

/// The shared part of a recorder: a buffer bounded in bytes, filled on the main actor under a
/// lock and drained in batches on a serial queue that encodes, digests and writes.
///
/// A thin shell around two parts: the ``Buffer`` the main actor and the writer share, a state
/// machine behind the package's one lock type (`Guarded`), and the ``Writer``, which only the
/// writer queue touches. The main actor appends a `StoreStep` (what a log writes of a transition:
/// values, so no copies of deep data) and, when the writer is idle, schedules one drain; after
/// a drain that wrote, the writer lingers (``linger``) and drains again, so a burst of sends
/// wakes it about once per linger, not once per send. The drain trades the whole buffer for an
/// empty one, and the writer encodes every line into one `Data` and writes it with one call,
/// so lines land whole and in order. `enqueue` never waits: when the ``RecorderBudget`` has no
/// room (the writer is behind), the step is dropped at once and counted, keeping nothing of
/// it, and the next step that fits ends the gap: it is dropped too, and written as a `gap`
/// marker holding its state after. The budget is asked outside the buffer's lock: no lock is
/// taken inside another on the main actor.
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
    case header(ActionLogHeader<State>)
    /// A header encoded before the writer started (to measure the first state), or the error
    /// encoding it threw.
    case headerLine(Result<Data, ActionLogError>)

    var isHeader: Bool {
      switch self {
      case .header, .headerLine: return true
      case .transition, .gap, .warning: return false
      }
    }
  }

  @usableFromInline let buffer = Guarded(Buffer())
  private let writer: Guarded<Writer>
  @usableFromInline let queue = DispatchQueue(label: "loginstore.actionlog.writer")
  @usableFromInline let budget: RecorderBudget
  private let onError: @Sendable (ActionLogError) -> Void
  /// The time since the recording started (the moment its header's `created` names) on the
  /// options' clock: every step's time.
  @usableFromInline let elapsed: @Sendable () -> Duration

  /// Starts a recording into `file`, beginning with `header`.
  ///
  /// When `budget` has measured no state yet, the header is encoded here, once, so the first
  /// transitions are charged the size of a real state; otherwise the writer encodes it, like
  /// every other line (a flight recorder's next segment is opened on the main actor).
  init(
    file: LogFile,
    header: ActionLogHeader<State>,
    options: RecordingOptions,
    budget: RecorderBudget,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    elapsed = options.clock.startStopwatch()
    self.budget = budget
    self.onError = onError
    var writer = try Writer(file: file, options: options)
    var first = Buffer()
    if budget.hasMeasured {
      first.pending.append(.header(header))
      first.pendingCharge.line = budget.headerLineEstimate
    } else {
      let line: Result<Data, ActionLogError>
      do throws(ActionLogError) {
        line = .success(try writer.encode(.header(header)))
      } catch {
        line = .failure(error)
      }
      if case .success(let data) = line {
        budget.measured(stateBytes: data.count, lines: 0, bytes: 0)
        first.pendingCharge.line = data.count + 1
      }
      first.pending.append(.headerLine(line))
    }
    first.wakeups.drainScheduled()
    self.writer = Guarded(writer)
    buffer.withLock { $0 = first }
    queue.async { self.drain() }
  }

  /// Starts a recording into a new file at `url` (or an earlier action log there, replaced).
  convenience init(
    url: URL,
    header: ActionLogHeader<State>,
    options: RecordingOptions,
    budget: RecorderBudget,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    try self.init(
      file: LogFile(url: url), header: header, options: options, budget: budget,
      onError: onError)
  }

  var isRecording: Bool { buffer.withLock { $0.intake == .open } }

  /// How many bytes the file will hold once the writer has written everything handed to it so
  /// far: what it wrote, plus the expected size of every line buffered or being written.
  @usableFromInline var handedBytes: Int { buffer.withLock { $0.handedBytes } }

  var droppedTransitionCount: Int { buffer.withLock { $0.droppedTransitionCount } }

  // MARK: - Main actor side

  // Inlinable, so it runs specialized for the host's state, action and effect types: run
  // generically from this module, 40% of its time went to generic metadata lookups.
  @inlinable
  func enqueue(_ step: StoreStep<State, Action, Effect>) {
    // When the step happened, on the clock the recording started on.
    let time = elapsed()
    guard let owesGap = buffer.withLock({ $0.owesGap }) else { return }
    // Only the main actor offers steps, so what `owesGap` said still holds below; the writer
    // may have stopped meanwhile, and then the charge is given back.
    let charge = budget.admit(withGap: owesGap)
    let outcome = buffer.withLock { $0.enqueue(step, time: time, charge: charge) }
    switch outcome {
    case .buffered, .dropped: break
    case .scheduleDrain: queue.async { self.drain() }
    case .ignored(let bytes): budget.release(bytes)
    }
  }

  /// Writes `message` into the log as a `warning` marker, after what is buffered, so whoever
  /// reads the log hears what the recorder met. Ignored once the recording stopped or is
  /// finishing; any thread may call it.
  func note(_ message: String) {
    let line = ActionLogFormat.markerOpening(.warning).utf8.count + message.utf8.count + 16
    let outcome = buffer.withLock { $0.note(message, lineBytes: line) }
    if case .scheduleDrain = outcome { queue.async { self.drain() } }
  }

  /// Calls `completion` (on the writer queue) once everything enqueued so far is written.
  func flush(_ completion: @escaping @Sendable () -> Void) {
    queue.async {
      self.drain()
      completion()
    }
  }

  /// Stops taking transitions, writes what is buffered and the `closed` marker, closes the
  /// file, then calls `completion` (on the writer queue).
  ///
  /// - Parameter finalState: The store's state now, when the caller knows it: the state of a
  ///   gap still owed (steps dropped at the end). Without it, a warning says they were dropped.
  func finish(finalState: State? = nil, _ completion: (@Sendable () -> Void)? = nil) {
    guard buffer.withLock({ $0.finish(finalState: finalState) }) else {
      queue.async { completion?() }
      return
    }
    queue.async {
      self.drain()
      // Nothing may schedule another drain after the file closes.
      self.buffer.withLock { $0.wakeups.drainScheduled() }
      if let failure = self.writer.withLock({ $0.close() }) { self.onError(failure) }
      completion?()
    }
  }

  // MARK: - Writer side

  /// How long the writer lingers after a drain that wrote (``WriterWakeups``): a line reaches
  /// the file at most this much later than it would if every step woke the writer.
  static var linger: DispatchTimeInterval { .milliseconds(1) }

  private func armLinger() {
    queue.asyncAfter(deadline: .now() + Self.linger) { self.lingerEnded() }
  }

  /// The linger timer fired: drain what the main actor buffered meanwhile; the writer lingers
  /// on if a drain wrote during the linger, and goes idle otherwise.
  private func lingerEnded() {
    if buffer.withLock({ $0.wakeups.lingerEnded(isOpen: $0.intake == .open) }) { armLinger() }
    drain()
  }

  @usableFromInline
  func drain() {
    // The buffer the main actor fills and this one trade places at every batch, each keeping
    // its capacity: appending on the main actor then never grows an array again (a fresh one
    // grew by copying, and past malloc's mmap threshold faulted in new pages, on every drain).
    var batch = writer.withLock { writer in
      defer { writer.spare = [] }
      return writer.spare
    }
    defer { writer.withLock { $0.spare = batch } }
    var wrote = false
    while true {
      // The buffer handed over is as large as the one taken (allocated here, not on the main
      // actor), so sends during the write append without growing it.
      let capacity = buffer.withLock { $0.pending.capacity }
      if batch.capacity < capacity { batch.reserveCapacity(capacity) }
      switch buffer.withLock({ $0.takeBatch(&batch, wrote: wrote) }) {
      case .batch:
        wrote = true
      case .nothing(armingLinger: true):
        armLinger()
        return
      case .nothing(armingLinger: false):
        return
      }
      let outcome = writer.withLock { $0.write(batch, budget: budget) }
      batch.removeAll(keepingCapacity: true)
      switch outcome {
      case .written(let fileSize):
        budget.release(buffer.withLock { $0.batchWritten(fileSize: fileSize) })
      case .stopped(let error):
        let discarded = buffer.withLock { buffer in
          buffer.batchWritten(fileSize: nil) + buffer.stop()
        }
        budget.release(discarded)
        if let error { onError(error) }
      }
    }
  }
}
