import Dispatch
import Foundation
import StateStore

/// The shared part of a recorder: a bounded, lock-protected buffer filled on the main actor and
/// drained in batches on a serial queue that encodes, digests and writes.
///
/// The main actor only appends a `Transition` (values, so no copies of deep data) under a lock
/// and, when the buffer was empty, schedules one drain. The drain swaps the whole buffer out,
/// encodes every line into one `Data` and writes it with one call, so lines land whole and in
/// order. When the buffer is full, `enqueue` waits up to `maximumWait` for the writer; if there
/// is still no room it drops the transition and counts it, and the next transition that fits
/// is preceded by a `gap` marker holding the state before it.
final class RecorderCore<
  State: Encodable & Sendable, Action: Encodable & Sendable,
  Effect: Encodable & Sendable
>: @unchecked Sendable {
  enum Item {
    case transition(Transition<State, Action, Effect>)
    case gap(dropped: Int, state: State)
    case header(ActionLogHeader<State>)

    var isHeader: Bool {
      if case .header = self { return true }
      return false
    }
  }

  // Guarded by `condition`.
  private let condition = NSCondition()
  private var pending: [Item] = []
  private var isDrainScheduled = false
  private var isStopped = false
  private var isFinishing = false
  private var droppedCount = 0
  private var lastDroppedState: State?
  private var totalDropped = 0
  private var bytesOnDisk = 0

  // Used on `queue` only (and in `init`, before the queue sees the core).
  private let queue = DispatchQueue(label: "loginstore.actionlog.writer")
  private let file: LogFile
  private let canonicalEncoder = CanonicalJSONEncoder()
  // The state after every transition: a step changes a field or two, and the encoder copies
  // the bytes of the nested values that did not change.
  private let stateEncoder = CanonicalJSONEncoder(remembersTopLevelValues: true)
  private var output = Data()
  private var transitionsWritten = 0
  private var linesWritten = 0
  private var writerStopped = false

  private let options: RecordingOptions
  private let level: RedactionLevel
  private let onError: @Sendable (ActionLogError) -> Void
  /// The `stopped` markers the writer may need, made once.
  private let stoppedMarker: Data
  private let lineTooLongMarker: Data

  init(
    url: URL,
    header: ActionLogHeader<State>,
    options: RecordingOptions,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    self.options = options
    self.level = options.redactionLevel
    self.onError = onError
    stoppedMarker = try Self.line(
      ActionLogFormat.Stopped(reason: .maximumFileSize, limit: options.maximumFileSize))
    lineTooLongMarker = try Self.line(
      ActionLogFormat.Stopped(reason: .lineTooLong, limit: options.maximumLineLength))
    pending.reserveCapacity(options.bufferCapacity)
    file = try LogFile(url: url)
    // The header is encoded and written by the writer, like every other line.
    pending.append(.header(header))
    isDrainScheduled = true
    queue.async { self.drain() }
  }

  var isRecording: Bool {
    condition.lock()
    defer { condition.unlock() }
    return !isStopped
  }

  /// How many bytes the writer has put in the file so far (it lags the enqueued transitions by
  /// the batch in flight).
  var writtenBytes: Int {
    condition.lock()
    defer { condition.unlock() }
    return bytesOnDisk
  }

  var droppedTransitionCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return totalDropped + droppedCount
  }

  // MARK: - Main actor side

  func enqueue(_ transition: Transition<State, Action, Effect>) {
    condition.lock()
    if isStopped {
      condition.unlock()
      return
    }
    if pending.count >= options.bufferCapacity, !waitForRoom() {
      droppedCount += 1
      lastDroppedState = transition.stateAfter
      condition.unlock()
      return
    }
    appendGapIfNeeded()
    pending.append(.transition(transition))
    let schedule = !isDrainScheduled
    isDrainScheduled = true
    condition.unlock()
    if schedule { queue.async { self.drain() } }
  }

  /// Called with the lock held: the transitions dropped so far become one `gap` entry holding
  /// the state after the last of them, which is the state before whatever comes next.
  private func appendGapIfNeeded() {
    guard droppedCount > 0, let state = lastDroppedState else { return }
    pending.append(.gap(dropped: droppedCount, state: state))
    totalDropped += droppedCount
    droppedCount = 0
    lastDroppedState = nil
  }

  /// Called with the lock held and the buffer full. Waits only at the start of an overflow:
  /// once transitions are being dropped, later sends do not wait again until there is room.
  private func waitForRoom() -> Bool {
    if droppedCount == 0 {
      let wait = options.maximumWait.components
      let seconds = Double(wait.seconds) + Double(wait.attoseconds) / 1e18
      let deadline = Date(timeIntervalSinceNow: seconds)
      while pending.count >= options.bufferCapacity, !isStopped {
        if !condition.wait(until: deadline) { break }
      }
    }
    return pending.count < options.bufferCapacity && !isStopped
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
    condition.broadcast()
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

  private func drain() {
    var batch: [Item] = []
    batch.reserveCapacity(options.bufferCapacity)
    while true {
      condition.lock()
      swap(&batch, &pending)
      if batch.isEmpty {
        isDrainScheduled = false
        condition.unlock()
        return
      }
      condition.broadcast()
      condition.unlock()
      write(batch)
      batch.removeAll(keepingCapacity: true)
    }
  }

  private func write(_ batch: [Item]) {
    guard !writerStopped else { return }
    output.removeAll(keepingCapacity: true)
    for item in batch {
      let line: Data
      do {
        line = try encode(item)
      } catch {
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
      output.append(line)
      output.append(CanonicalJSON.newline)
      linesWritten += 1
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
  /// always gives the same bytes; secrets are redacted here, before anything is encoded.
  private func encode(_ item: Item) throws(ActionLogError) -> Data {
    var line = Data()
    switch item {
    case .transition(let transition):
      let state = try canonical(Redaction.apply(transition.stateAfter, level), using: stateEncoder)
      transitionsWritten += 1
      let isCheckpoint =
        options.checkpointInterval > 0 && transitionsWritten % options.checkpointInterval == 0
      try RecordedTransition<State, Action, Effect>.appendLine(
        sequenceNumber: transition.sequenceNumber, origin: transition.origin,
        action: Redaction.apply(transition.action, level),
        effects: level.isEmpty || transition.effects.isEmpty
          ? transition.effects : transition.effects.map { Redaction.apply($0, level) },
        digest: StateDigest.hex(StateDigest.fnv1a(state)),
        checkpointJSON: isCheckpoint ? state : nil, to: &line, using: canonicalEncoder)
    case .gap(let dropped, let state):
      try ActionLogFormat.Gap(dropped: dropped, state: Redaction.apply(state, level))
        .appendLine(to: &line, using: canonicalEncoder)
    case .header(var header):
      header.initialState = Redaction.apply(header.initialState, level)
      try header.appendLine(to: &line, using: canonicalEncoder)
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

  private func canonical<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) -> Data {
    var data = Data()
    try ActionLogFormat.appendCanonical(value, to: &data, using: encoder)
    return data
  }

  /// Stops for good: later transitions are ignored; an error is reported once.
  private func stop(reporting error: ActionLogError?) {
    writerStopped = true
    condition.lock()
    isStopped = true
    pending.removeAll()
    condition.broadcast()
    condition.unlock()
    file.close()
    if let error { onError(error) }
  }
}
