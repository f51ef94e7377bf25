import Dispatch
import Foundation
import StateStore

/// The shared part of a recorder: a buffer bounded in bytes, filled on the main actor under a
/// lock and drained in batches on a serial queue that encodes, digests and writes.
///
/// The main actor only appends a ``Step`` (what a log writes of a transition: values, so no
/// copies of deep data) under a lock and, when the buffer was empty, schedules one drain. The drain swaps the whole buffer out,
/// encodes every line into one `Data` and writes it with one call, so lines land whole and in
/// order. `enqueue` never waits: when the ``RecorderBudget`` has no room (the writer is
/// behind), it drops the transition at once and counts it, and the next transition that fits
/// is preceded by a `gap` marker holding the state before it.
@usableFromInline
final class RecorderCore<
  State: Encodable & Sendable, Action: Encodable & Sendable,
  Effect: Encodable & Sendable
>: @unchecked Sendable {
  /// What the writer needs of a transition. Not the state before it, which a log does not
  /// hold: leaving it out halves what `enqueue` copies into the buffer.
  @usableFromInline
  struct Step {
    @usableFromInline let sequenceNumber: Int
    @usableFromInline let origin: ActionOrigin
    @usableFromInline let action: Action
    @usableFromInline let effects: [Effect]
    @usableFromInline let stateAfter: State
    /// When it was enqueued: the time since the recording started.
    @usableFromInline let time: Duration

    @inlinable
    init(_ step: StoreStep<State, Action, Effect>, time: Duration) {
      sequenceNumber = step.sequenceNumber
      origin = step.origin
      action = step.action
      effects = step.effects
      stateAfter = step.stateAfter
      self.time = time
    }
  }

  @usableFromInline
  enum Item {
    case transition(Step)
    case gap(dropped: Int, state: State)
    case header(ActionLogHeader<State>)
    /// A header encoded before the writer started (to measure the first state), or the error
    /// encoding it threw.
    case headerLine(Result<Data, ActionLogError>)

    var isHeader: Bool {
      switch self {
      case .header, .headerLine: return true
      case .transition, .gap: return false
      }
    }
  }

  // Guarded by `condition`: every access is made with the lock held.
  @usableFromInline let condition = NSLock()
  @usableFromInline var pending: [Item] = []
  /// What the items in `pending`, and those of the batch being written, were charged.
  @usableFromInline var pendingCharge = RecorderBudget.Charge(
    memory: 0, line: 0)
  private var inFlightCharge = RecorderBudget.Charge(memory: 0, line: 0)
  @usableFromInline var isDrainScheduled = false
  @usableFromInline var isStopped = false
  private var isFinishing = false
  @usableFromInline var droppedCount = 0
  @usableFromInline var lastDroppedState: State?
  @usableFromInline var totalDropped = 0
  private var bytesOnDisk = 0

  // Used on `queue` only (and in `init`, before the queue sees the core).
  @usableFromInline let queue = DispatchQueue(label: "loginstore.actionlog.writer")
  private let file: LogFile
  // Both encoders write every `PersonalData` as its mask when the options mask usernames, at
  // any depth of a state, an action or an effect: nothing is redacted value by value.
  private let canonicalEncoder: CanonicalJSONEncoder
  // The state after every transition, encoded whole every time: a log must hold the state the
  // app had, so nothing is copied from an earlier encoding on the word of the host's `==` (a
  // type whose `==` looks at an `id` only was logged with its old fields). It encodes the
  // header's and the gaps' states too, so one encoder, not two, holds buffers the size of a
  // state.
  private let stateEncoder: CanonicalJSONEncoder
  private var output = Data()
  /// The most bytes of a written batch whose buffer is kept for the next one.
  private static var keptOutputBytes: Int { 1 << 20 }
  /// The emptied buffer of the last batch, kept with its capacity for the next drain.
  private var spare: [Item] = []
  private var transitionsWritten = 0
  private var linesWritten = 0
  private var writerStopped = false
  // What the batch being written measured, for the budget.
  private var stepLines = 0
  private var stepBytes = 0
  private var lastStateBytes: Int?

  private let options: RecordingOptions
  @usableFromInline let budget: RecorderBudget
  private let onError: @Sendable (ActionLogError) -> Void
  /// The `stopped` markers the writer may need, made once.
  private let stoppedMarker: Data
  private let lineTooLongMarker: Data

  /// Starts a recording into `file`, beginning with `header`.
  ///
  /// When `budget` has measured no state yet, the header is encoded here, once, so the first
  /// transitions are charged the size of a real state; otherwise the writer encodes it, like
  /// every other line (a flight recorder's next segment is opened on the main actor).
  /// The time since the recording started (the moment its header's `created` names) on the
  /// options' clock: every step's time.
  @usableFromInline let elapsed: @Sendable () -> Duration

  init(
    file: LogFile,
    header: ActionLogHeader<State>,
    options: RecordingOptions,
    budget: RecorderBudget,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    elapsed = options.clock.startStopwatch()
    self.options = options
    self.budget = budget
    canonicalEncoder = CanonicalJSONEncoder(masksPersonalData: options.masksPersonalData)
    stateEncoder = CanonicalJSONEncoder(masksPersonalData: options.masksPersonalData)
    self.onError = onError
    self.file = file
    stoppedMarker = try Self.line(
      ActionLogFormat.Stopped(reason: .maximumFileSize, limit: options.maximumFileSize))
    lineTooLongMarker = try Self.line(
      ActionLogFormat.Stopped(reason: .lineTooLong, limit: options.maximumLineLength))
    if budget.hasMeasured {
      pending.append(.header(header))
      pendingCharge.line = budget.headerLineEstimate
    } else {
      let line: Result<Data, ActionLogError>
      do throws(ActionLogError) {
        line = .success(try encode(.header(header)))
      } catch {
        line = .failure(error)
      }
      if case .success(let data) = line {
        budget.measured(stateBytes: data.count, lines: 0, bytes: 0)
        pendingCharge.line = data.count + 1
      }
      pending.append(.headerLine(line))
    }
    isDrainScheduled = true
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

  var isRecording: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !isStopped
  }

  /// How many bytes the file will hold once the writer has written everything handed to it so
  /// far: what it wrote, plus the expected size of every line buffered or being written.
  @usableFromInline var handedBytes: Int {
    condition.lock()
    defer { condition.unlock() }
    return bytesOnDisk + inFlightCharge.line + pendingCharge.line
  }

  var droppedTransitionCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return totalDropped + droppedCount
  }

  // MARK: - Main actor side

  // Inlinable, so it runs specialized for the host's state, action and effect types: run
  // generically from this module, 40% of its time went to generic metadata lookups.
  @inlinable
  func enqueue(_ step: StoreStep<State, Action, Effect>) {
    // When the step happened, on the clock the recording started on.
    let time = elapsed()
    condition.lock()
    if isStopped {
      condition.unlock()
      return
    }
    guard let charge = budget.admit(withGap: droppedCount > 0) else {
      // The writer is behind: drop at once, never wait for it.
      droppedCount += 1
      lastDroppedState = step.stateAfter
      condition.unlock()
      return
    }
    if let gap = charge.gap {
      add(gap)
      appendGapIfNeeded()
    }
    pending.append(.transition(Step(step, time: time)))
    add(charge.transition)
    let schedule = !isDrainScheduled
    isDrainScheduled = true
    condition.unlock()
    if schedule { queue.async { self.drain() } }
  }

  /// Called with the lock held.
  @inlinable
  func add(_ charge: RecorderBudget.Charge) {
    pendingCharge.memory += charge.memory
    pendingCharge.line += charge.line
  }

  /// Called with the lock held: the transitions dropped so far become one `gap` entry holding
  /// the state after the last of them, which is the state before whatever comes next.
  @usableFromInline
  func appendGapIfNeeded() {
    guard droppedCount > 0, let state = lastDroppedState else { return }
    pending.append(.gap(dropped: droppedCount, state: state))
    totalDropped += droppedCount
    droppedCount = 0
    lastDroppedState = nil
  }

  /// The capacities of the buffer being filled and of the writer's spare one, in items, once
  /// everything enqueued so far is written: both keep what they grew to, so a burst of sends
  /// appends without growing an array.
  package func bufferCapacities() -> (filling: Int, spare: Int) {
    queue.sync {
      drain()
      condition.lock()
      defer { condition.unlock() }
      return (pending.capacity, spare.capacity)
    }
  }

  /// The bytes the writer's two encoders hold on to, once everything enqueued so far is
  /// written: the one for actions and effects, and the one for states.
  package func encoderBufferBytes() -> (lines: Int, states: Int) {
    queue.sync {
      drain()
      return (canonicalEncoder.retainedBufferBytes, stateEncoder.retainedBufferBytes)
    }
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
  func finish(_ completion: (@Sendable () -> Void)? = nil) {
    condition.lock()
    let first = !isFinishing
    isFinishing = true
    if !isStopped { appendGapIfNeeded() }
    isStopped = true
    condition.unlock()
    guard first else {
      queue.async { completion?() }
      return
    }
    queue.async {
      self.drain()
      self.condition.lock()
      self.isDrainScheduled = true  // nothing may schedule another drain after the file closes
      self.condition.unlock()
      if !self.writerStopped {
        self.writerStopped = true
        do throws(ActionLogError) {
          var closed = Data()
          ActionLogFormat.Closed().appendLine(to: &closed)
          closed.append(CanonicalJSON.newline)
          try self.file.write(closed)
        } catch {
          self.onError(error)
        }
      }
      self.file.close()
      completion?()
    }
  }

  // MARK: - Writer side

  @usableFromInline
  func drain() {
    // The buffer the main actor fills and this one trade places at every batch, each keeping
    // its capacity: appending on the main actor then never grows an array again (a fresh one
    // grew by copying, and past malloc's mmap threshold faulted in new pages, on every drain).
    var batch = spare
    defer { spare = batch }
    while true {
      condition.lock()
      if batch.capacity < pending.capacity {
        // The buffer handed over is as large as the one taken (allocated here, not on the
        // main actor), so sends during the write append without growing it.
        let capacity = pending.capacity
        condition.unlock()
        batch.reserveCapacity(capacity)
        condition.lock()
      }
      swap(&batch, &pending)
      if batch.isEmpty {
        isDrainScheduled = false
        condition.unlock()
        return
      }
      inFlightCharge = pendingCharge
      pendingCharge = .init(memory: 0, line: 0)
      condition.unlock()
      write(batch)
      batch.removeAll(keepingCapacity: true)
      condition.lock()
      let written = inFlightCharge.memory
      inFlightCharge = .init(memory: 0, line: 0)
      condition.unlock()
      budget.release(written)
    }
  }

  private func write(_ batch: [Item]) {
    guard !writerStopped else { return }
    // A batch of small lines reuses the buffer; one that held a large state gives it back.
    output.removeAll(keepingCapacity: output.count <= Self.keptOutputBytes)
    stepLines = 0
    stepBytes = 0
    lastStateBytes = nil
    defer {
      budget.measured(stateBytes: lastStateBytes, lines: stepLines, bytes: stepBytes)
    }
    for item in batch {
      let line: Data
      do {
        line = try encode(item)
      } catch {
        // The lines before it in this batch are whole and readable: they are kept.
        flush()
        guard !writerStopped else { return }  // the flush failed and said so
        stop(reporting: error)
        return
      }
      if line.count > options.maximumLineLength {
        // A reader would refuse the line and everything after it: end the log before it.
        let limit = options.maximumLineLength
        guard !item.isHeader else {
          stop(
            reporting: .recordingStopped(
              line: 1,
              reason: "the header would have been longer than the limit of \(limit) bytes a "
                + "reader accepts; nothing was recorded"))
          return
        }
        output.append(lineTooLongMarker)
        flush()
        guard !writerStopped else { return }  // the flush failed and said so
        stop(
          reporting: .recordingStopped(
            line: linesWritten + 1,
            reason: ActionLogFormat.Stopped(reason: .lineTooLong, limit: limit).explanation))
        return
      }
      if let maximum = options.maximumFileSize, !item.isHeader,
        file.size + output.count + line.count + 1 + stoppedMarker.count > maximum
      {
        output.append(stoppedMarker)
        flush()
        stop(reporting: nil)
        return
      }
      if output.isEmpty {
        output = line  // no copy: a line holding a large state is megabytes
      } else {
        output.append(line)
      }
      output.append(CanonicalJSON.newline)
      linesWritten += 1
      if case .transition = item {
        stepLines += 1
        stepBytes += line.count + 1
      }
    }
    flush()
  }

  private func flush() {
    do {
      try file.write(output)
    } catch {
      stop(reporting: error)
      return
    }
    condition.lock()
    bytesOnDisk = file.size
    condition.unlock()
  }

  /// One line, without its newline. The line types in ActionLogFormat.swift assemble it, in
  /// the documented key order, around canonical (sorted-key) JSON values, so the same session
  /// always gives the same bytes. Secrets encode as their masks, and personal data too when the
  /// options say so (the encoders' `userInfo`).
  private func encode(_ item: Item) throws(ActionLogError) -> Data {
    var line = Data()
    switch item {
    case .transition(let step):
      transitionsWritten += 1
      let isCheckpoint =
        options.checkpointInterval > 0 && transitionsWritten % options.checkpointInterval == 0
      // The digest is hashed from the encoder's own buffer: only a checkpoint copies the
      // state's JSON out (a state of 100,000 items is megabytes).
      let state: (bytes: Int, digest: UInt64, checkpoint: Data?)
      do {
        state = try stateEncoder.withEncoded(step.stateAfter) {
          ($0.count, StateDigest.fnv1a(UnsafeRawBufferPointer($0)), isCheckpoint ? Data($0) : nil)
        }
      } catch {
        throw .encodingFailed(CanonicalJSON.failure(error, encoding: State.self))
      }
      lastStateBytes = state.bytes
      try RecordedTransition<State, Action, Effect>.appendLine(
        sequenceNumber: step.sequenceNumber, time: step.time, origin: step.origin,
        action: step.action, effects: step.effects,
        digest: StateDigest.hex(state.digest),
        checkpointJSON: state.checkpoint, to: &line, using: canonicalEncoder)
    case .gap(let dropped, let state):
      try ActionLogFormat.Gap(dropped: dropped, state: state)
        .appendLine(to: &line, using: stateEncoder)
    case .header(let header):
      try header.appendLine(to: &line, using: stateEncoder)
    case .headerLine(let result):
      return try result.get()
    }
    return line
  }

  /// A `stopped` marker's whole line, newline included.
  private static func line(_ marker: ActionLogFormat.Stopped) throws(ActionLogError) -> Data {
    var line = Data()
    try marker.appendLine(to: &line, using: CanonicalJSONEncoder())
    line.append(CanonicalJSON.newline)
    return line
  }

  /// Stops for good: later transitions are ignored; an error is reported once.
  private func stop(reporting error: ActionLogError?) {
    writerStopped = true
    condition.lock()
    isStopped = true
    pending.removeAll()
    let discarded = pendingCharge.memory
    pendingCharge = .init(memory: 0, line: 0)
    condition.unlock()
    budget.release(discarded)
    file.close()
    if let error { onError(error) }
  }
}
