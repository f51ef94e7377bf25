import StateStore

extension RecorderCore {
  /// A recording's state, as one enum: what the main actor (which offers steps) and the writer
  /// thread (which takes them in batches) share, behind the one lock.
  ///
  /// Each event below changes it and returns what the shell (``RecorderCore``) must do next:
  /// the bytes handed to the writer so far (a flight recorder rolls on them), the completions
  /// to call, whether the writer ends. No lock, no I/O, no clock here; the shell holds the lock
  /// around each event and does the rest outside it.
  @usableFromInline
  enum Machine {
    /// Taking steps.
    case recording(Buffer)
    /// `finish` was called: steps are ignored; the writer writes what is buffered and the
    /// `closed` line, closes the file and ends.
    case finishing(Buffer)
    /// The writer has ended: it closed the file, or stopped for good (an error, a limit).
    case ended(droppedCount: Int)
  }

  /// What the main actor and the writer share while the writer runs.
  ///
  /// A buffered step holds its state (copy-on-write: a changed state is a copy of its own), so
  /// it is charged the size of the last state the writer encoded, plus the average step line;
  /// the charge is held until the writer has written the batch it is in (``Handoff``).
  @usableFromInline
  struct Buffer {
    @usableFromInline var queue: Handoff<Item>
    /// Steps dropped since the last gap: no state of theirs is kept (a kept state would make
    /// the store's next write into a collection copy it, at every dropped send).
    @usableFromInline var dropped = 0
    /// Steps dropped in gaps written or owed.
    @usableFromInline var droppedInGaps = 0
    /// What the writer measured so far.
    @usableFromInline var stateBytes = 0
    @usableFromInline var lineCount = 0
    @usableFromInline var lineBytes = 0
    /// The expected size of the segment being written, in three parts: on disk after the last
    /// batch, in the batch being written, and queued.
    @usableFromInline var bytesOnDisk = 0
    @usableFromInline var takenLineBytes = 0
    @usableFromInline var queuedLineBytes = 0
    /// Whether a segment began after the batch being written was taken: its size is the last
    /// segment's.
    var rolledSinceTake = false
    /// Called once everything buffered before them is written (a flush), or the file closed.
    var completions: [@Sendable () -> Void] = []
    /// The warnings written into this segment (``note(_:key:)``), by key.
    var noted: Set<String> = []

    init(limit: Int) {
      queue = Handoff(limit: limit)
    }

    /// A step line's expected size before the writer has written one: a step holds an action,
    /// its effects and a digest, not the state (a checkpoint does, once in a while).
    @inlinable static var firstLineEstimate: Int { 256 }
    /// What a buffered item costs besides its state and its line.
    @inlinable static var itemOverhead: Int { 64 }

    /// How many bytes the segment being written will hold once everything handed over is.
    @inlinable var handedBytes: Int { bytesOnDisk + takenLineBytes + queuedLineBytes }

    /// A step, buffered when the queue has room for it (and for the gap it ends), else
    /// dropped at once: `send` never waits for the writer.
    @inlinable
    mutating func offer(_ step: StoreStep<State, Action, Effect>, time: Duration) {
      let line = lineCount > 0 ? lineBytes / lineCount : Self.firstLineEstimate
      var (memory, expected) = (stateBytes + line + Self.itemOverhead, line)
      if dropped > 0 {
        memory += stateBytes + Self.itemOverhead
        expected += stateBytes + Self.itemOverhead
      }
      guard queue.hasRoom(for: memory) else {
        dropped += 1  // the writer is behind: nothing of the step is kept
        return
      }
      if dropped > 0 {
        // The first step that fits after dropped ones ends their gap: it is dropped too, and
        // its state after is the gap's state, the state before whatever comes next.
        dropped += 1
        appendGap(state: step.stateAfter, cost: memory)
      } else {
        queue.append(.transition(step, time: time), cost: memory)
      }
      queuedLineBytes += expected
    }

    /// The steps dropped so far become one `gap` entry holding `state`, the state after the
    /// last of them, which is the state before whatever comes next.
    @usableFromInline
    mutating func appendGap(state: State, cost: Int) {
      queue.append(.gap(dropped: dropped, state: state), cost: cost)
      droppedInGaps += dropped
      dropped = 0
    }
  }

  /// What the writer does with the batch it took.
  struct Taken {
    /// Call these once the batch is written.
    var completions: [@Sendable () -> Void]
    /// The batch is the last: the `closed` line ends it, and the file is closed.
    var isLast: Bool
  }
}

extension RecorderCore.Machine {
  /// Changes the buffer in place while the writer runs: when recording, or finishing too with
  /// `whileFinishing`; `nil` otherwise. The enum gives the buffer up meanwhile, so that the
  /// buffer is its arrays' only owner (a copy would copy the queue at every send).
  @inlinable
  mutating func withBuffer<T>(
    whileFinishing: Bool = true, _ body: (inout RecorderCore.Buffer) -> T
  ) -> T? {
    var buffer: RecorderCore.Buffer
    let isFinishing: Bool
    switch self {
    case .recording(let current): (buffer, isFinishing) = (current, false)
    case .finishing(let current) where whileFinishing: (buffer, isFinishing) = (current, true)
    case .finishing, .ended: return nil
    }
    self = .ended(droppedCount: 0)
    defer { self = isFinishing ? .finishing(buffer) : .recording(buffer) }
    return body(&buffer)
  }

  // MARK: - Main actor events

  /// A step was sent: buffered, or dropped when the queue has no room. Returns the bytes the
  /// segment being written will hold, `nil` when steps are no longer taken.
  @inlinable
  mutating func send(_ step: StoreStep<State, Action, Effect>, time: Duration) -> Int? {
    withBuffer(whileFinishing: false) { buffer in
      buffer.offer(step, time: time)
      return buffer.handedBytes
    }
  }

  /// A new segment begins with `header`, into `file`: the steps dropped before it end in a gap
  /// holding its state. Whether it was taken (not once the recording stopped).
  mutating func roll(into file: LogFile, header: ActionLogHeader<State>) -> Bool {
    let taken: Void? = withBuffer(whileFinishing: false) { buffer in
      if buffer.dropped > 0 { buffer.appendGap(state: header.initialState, cost: 0) }
      buffer.queue.append(.segment(file, header), cost: 0)
      buffer.bytesOnDisk = 0
      buffer.takenLineBytes = 0
      buffer.queuedLineBytes = buffer.stateBytes + 256
      buffer.rolledSinceTake = true
      buffer.noted = []
    }
    return taken != nil
  }

  /// A warning to write into the log (a `warning` marker), after what is buffered, once in
  /// each segment for each `key`. Counted in the segment's expected size, not in the memory
  /// it may hold (a line of words, not a state).
  mutating func note(_ message: String, key: String) {
    withBuffer(whileFinishing: false) { buffer in
      guard buffer.noted.insert(key).inserted else { return }
      buffer.queue.append(.warning(message), cost: 0)
      buffer.queuedLineBytes +=
        ActionLogFormat.markerOpening(.warning).utf8.count + message.utf8.count + 16
    }
  }

  /// Call `completion` once everything buffered so far is written; returns it when that is
  /// now (the writer has ended).
  mutating func flush(
    _ completion: @escaping @Sendable () -> Void
  ) -> (@Sendable () -> Void)? {
    withBuffer { $0.completions.append(completion) } == nil ? completion : nil
  }

  /// Steps are no longer taken: a gap still owed is buffered, holding `finalState` (the
  /// store's state at the end), or without one a warning says how many steps at the end were
  /// dropped. `completion` is called once the file is closed; returned when that is now.
  mutating func finish(
    finalState: State?, _ completion: (@Sendable () -> Void)?
  ) -> (@Sendable () -> Void)? {
    let wasRecording = isRecording
    let running: Void? = withBuffer { buffer in
      if wasRecording, buffer.dropped > 0 {
        if let finalState {
          buffer.appendGap(state: finalState, cost: 0)
        } else {
          buffer.queue.append(.warning(Self.endDropped(buffer.dropped)), cost: 0)
          buffer.droppedInGaps += buffer.dropped
          buffer.dropped = 0
        }
      }
      if let completion { buffer.completions.append(completion) }
    }
    if case .recording(let buffer) = self { self = .finishing(buffer) }
    return running == nil ? completion : nil
  }

  /// The warning for steps dropped at the end of a recording whose last state is not known.
  static func endDropped(_ count: Int) -> String {
    "the last \(count) steps were dropped (the writer fell behind) and the recording ended "
      + "before one could be written: this log does not hold the state after them"
  }

  // MARK: - Writer events

  /// Whether the writer has something to do: a batch, a flush, the end.
  var hasWork: Bool {
    switch self {
    case .recording(let buffer): !buffer.queue.isEmpty || !buffer.completions.isEmpty
    case .finishing, .ended: true
    }
  }

  /// The writer trades its empty `batch` for everything buffered; when finishing, that is the
  /// last batch.
  mutating func take(into batch: inout [RecorderCore.Item]) -> RecorderCore.Taken {
    let isLast = !isRecording
    return withBuffer { buffer in
      buffer.queue.take(into: &batch)
      buffer.takenLineBytes = buffer.queuedLineBytes
      buffer.queuedLineBytes = 0
      buffer.rolledSinceTake = false
      defer { buffer.completions = [] }
      return RecorderCore.Taken(completions: buffer.completions, isLast: isLast)
    } ?? RecorderCore.Taken(completions: [], isLast: true)
  }

  /// The writer wrote the batch it took (the last one, then closed the file), or stopped for
  /// good: the completions to call now, and when the writer ends, what it discards.
  mutating func written(
    _ outcome: RecorderCore.Writer.Outcome, closed: Bool
  ) -> (completions: [@Sendable () -> Void], discarded: [RecorderCore.Item]?) {
    // `nil` when the writer goes on.
    let ending = withBuffer {
      buffer -> (completions: [@Sendable () -> Void], discarded: [RecorderCore.Item])? in
      guard case .written(let fileSize, let measured) = outcome, !closed else {
        return (buffer.completions, buffer.queue.removeAll())  // stopped, or closed
      }
      buffer.queue.release()
      if !buffer.rolledSinceTake { buffer.bytesOnDisk = fileSize }
      buffer.takenLineBytes = 0
      if let stateBytes = measured.stateBytes { buffer.stateBytes = stateBytes }
      buffer.lineCount += measured.lines
      buffer.lineBytes += measured.bytes
      // A long recording keeps the average of its recent lines, not of its first ones.
      if buffer.lineCount > 4_096 {
        buffer.lineCount /= 2
        buffer.lineBytes /= 2
      }
      return nil
    }
    guard let ended = ending ?? ([], []) else { return ([], nil) }
    self = .ended(droppedCount: droppedCount)
    return ended
  }

  // MARK: - Questions

  var isRecording: Bool {
    if case .recording = self { true } else { false }
  }

  /// Steps dropped for want of room, in gaps written or owed.
  var droppedCount: Int {
    switch self {
    case .recording(let buffer), .finishing(let buffer): buffer.droppedInGaps + buffer.dropped
    case .ended(let count): count
    }
  }
}
