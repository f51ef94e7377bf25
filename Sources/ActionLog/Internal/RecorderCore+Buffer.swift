import StateStore

extension RecorderCore {
  /// What the main actor and the writer share, as a state machine: each event changes it and
  /// says what the shell (``RecorderCore``) must do — schedule a drain, give bytes back to the
  /// budget. No lock, no I/O, no clock here: the shell holds the one lock around each event and
  /// does the rest outside it.
  @usableFromInline
  struct Buffer {
    /// Whether steps are still taken.
    @usableFromInline
    enum Intake: Equatable {
      /// Recording.
      case open
      /// The writer stopped (an error, a limit): steps are ignored.
      case stopped
      /// `finish()` was called: steps are ignored, and the file is being closed.
      case finishing
    }

    /// What the shell does after a step was offered.
    @usableFromInline
    enum Enqueued {
      /// Nothing more: the step is buffered and a drain is already on its way.
      case buffered
      /// Buffered, and the writer is idle: schedule a drain.
      case scheduleDrain
      /// The budget had no room: the step was counted as dropped.
      case dropped
      /// The recording no longer takes steps: give the charge back to the budget.
      case ignored(releasing: Int)
    }

    @usableFromInline var intake = Intake.open
    @usableFromInline var pending: [Item] = []
    /// What the items in `pending` were charged.
    @usableFromInline var pendingCharge = RecorderBudget.Charge(memory: 0, line: 0)
    /// What the batch being written was charged.
    var inFlightCharge = RecorderBudget.Charge(memory: 0, line: 0)
    /// When the writer must be woken.
    @usableFromInline var wakeups = WriterWakeups()
    /// Steps dropped since the last gap: no state of theirs is kept (a kept state would make
    /// the store's next write into a collection copy it, at every dropped send).
    @usableFromInline var droppedCount = 0
    var totalDropped = 0
    var bytesOnDisk = 0

    /// Before a step is offered: `nil` when steps are ignored, else whether a `gap` marker is
    /// owed first (so that the budget charges it too).
    @inlinable var owesGap: Bool? {
      intake == .open ? droppedCount > 0 : nil
    }

    /// A step, when it happened, and what the budget admitted for it (`nil`: no room).
    @inlinable
    mutating func enqueue(
      _ step: StoreStep<State, Action, Effect>, time: Duration,
      charge: (transition: RecorderBudget.Charge, gap: RecorderBudget.Charge?)?
    ) -> Enqueued {
      guard intake == .open else {
        return .ignored(releasing: (charge?.transition.memory ?? 0) + (charge?.gap?.memory ?? 0))
      }
      guard let charge else {
        // The writer is behind: drop at once, never wait for it, keep nothing of it.
        droppedCount += 1
        return .dropped
      }
      if droppedCount > 0 {
        // The first step that fits after dropped ones ends their gap: it is dropped too, and
        // its state after is the gap's state, the state before whatever comes next.
        droppedCount += 1
        appendGap(state: step.stateAfter)
      } else {
        pending.append(.transition(step, time: time))
      }
      if let gap = charge.gap { add(gap) }
      add(charge.transition)
      return wakeups.buffered() ? .scheduleDrain : .buffered
    }

    /// A warning the recorder writes into its log: buffered after what is pending, counted in
    /// the file's expected size but not in the memory budget (a line of words, not a state).
    mutating func note(_ message: String, lineBytes: Int) -> Enqueued {
      guard intake == .open else { return .ignored(releasing: 0) }
      pending.append(.warning(message))
      pendingCharge.line += lineBytes
      return wakeups.buffered() ? .scheduleDrain : .buffered
    }

    @inlinable
    mutating func add(_ charge: RecorderBudget.Charge) {
      pendingCharge.memory += charge.memory
      pendingCharge.line += charge.line
    }

    /// The steps dropped so far become one `gap` entry holding `state`, the state after the
    /// last of them, which is the state before whatever comes next.
    @usableFromInline
    mutating func appendGap(state: State) {
      pending.append(.gap(dropped: droppedCount, state: state))
      totalDropped += droppedCount
      droppedCount = 0
    }

    /// What a drain does after trading buffers.
    enum Taken: Equatable {
      /// Write the batch.
      case batch
      /// Nothing was pending: the drain ends. With `armingLinger`, the writer wrote in this
      /// drain and arms its linger timer (``WriterWakeups``).
      case nothing(armingLinger: Bool)
    }

    /// The writer trades its empty `batch` for the pending items; when there were none the
    /// drain ends, lingering when it wrote (`wrote`).
    mutating func takeBatch(_ batch: inout [Item], wrote: Bool) -> Taken {
      swap(&batch, &pending)
      guard batch.isEmpty else {
        inFlightCharge = pendingCharge
        pendingCharge = .init(memory: 0, line: 0)
        return .batch
      }
      return .nothing(armingLinger: wakeups.drainEnded(wrote: wrote, isOpen: intake == .open))
    }

    /// The batch is written: the file's size now, and the bytes to give back to the budget.
    mutating func batchWritten(fileSize: Int?) -> Int {
      if let fileSize { bytesOnDisk = fileSize }
      let written = inFlightCharge.memory
      inFlightCharge = .init(memory: 0, line: 0)
      return written
    }

    /// `finish()` was called: whether for the first time. A gap still owed is buffered first,
    /// holding `finalState` (the store's state at the end); without one, a warning says how
    /// many steps at the end were dropped.
    mutating func finish(finalState: State?) -> Bool {
      if intake == .finishing { return false }
      if intake == .open, droppedCount > 0 {
        if let finalState {
          appendGap(state: finalState)
        } else {
          pending.append(.warning(Self.endDropped(droppedCount)))
          totalDropped += droppedCount
          droppedCount = 0
        }
      }
      intake = .finishing
      return true
    }

    /// The warning for steps dropped at the end of a recording whose last state is not known.
    static func endDropped(_ count: Int) -> String {
      "the last \(count) steps were dropped (the writer fell behind) and the recording ended "
        + "before one could be written: this log does not hold the state after them"
    }

    /// The writer stopped for good: what was buffered is discarded; the bytes to give back.
    mutating func stop() -> Int {
      if intake == .open { intake = .stopped }
      pending.removeAll()
      let discarded = pendingCharge.memory
      pendingCharge = .init(memory: 0, line: 0)
      return discarded
    }

    /// How many bytes the file will hold once everything handed over is written.
    var handedBytes: Int { bytesOnDisk + inFlightCharge.line + pendingCharge.line }

    /// Steps dropped for want of room, in gaps written or owed.
    var droppedTransitionCount: Int { totalDropped + droppedCount }
  }
}
