import Dispatch
import StateStore

/// Builds the page's data on a background queue while the replay goes on, so rendering the
/// states (the larger half of the work) overlaps reading and reducing the log.
///
/// Steps are handed over in batches, in order; at most ``maximumBatchesInFlight`` wait, so
/// memory stays bounded when the replay runs ahead. The builder is touched only on the
/// queue, and by ``finish()`` after the queue has drained; it sits behind the package's lock
/// type all the same, so nothing rests on that rule being kept. The worker itself is used by
/// the replaying thread only.
final class TimelineWorker<R: Reducer & Sendable, Screen: TimelineScreenRenderer>
where
  R.State: Equatable & Encodable,
  Screen.State == R.State, Screen.Action == R.Action, Screen.Effect == R.Effect
{
  /// What the builder is told, in order.
  enum Command: Sendable {
    case step(
      Transition<R.State, R.Action, R.Effect>, StepTexts, gap: TimelineGap?,
      check: RecordingCheck? = nil)
    case trailingGap(TimelineGap, resumedState: R.State)
  }

  static var batchSize: Int { 256 }
  /// A batch is handed over early once its steps' texts reach this many bytes: steps with
  /// long values (a 10 KB username in the action, its JSON, its label) must not pile up.
  static var batchBytes: Int { 64 * 1_024 }
  static var maximumBatchesInFlight: Int { 64 }

  private let queue = DispatchQueue(label: "ReplayTool.TimelineWorker")
  private let slots = DispatchSemaphore(value: maximumBatchesInFlight)
  private let builder: Guarded<TimelineBuilder<R, Screen>>
  private var pending: [Command] = []
  private var pendingBytes = 0

  init(_ builder: TimelineBuilder<R, Screen>) {
    self.builder = Guarded(builder)
    pending.reserveCapacity(Self.batchSize)
  }

  /// Queues a command (from the replaying thread only).
  func send(_ command: Command) {
    pending.append(command)
    if case .step(_, let texts, _, _) = command { pendingBytes += texts.byteCount }
    if pending.count >= Self.batchSize || pendingBytes >= Self.batchBytes { flush() }
  }

  /// Waits for every queued command and returns the builder.
  func finish() -> TimelineBuilder<R, Screen> {
    flush()
    return queue.sync { builder.withLock { $0 } }
  }

  private func flush() {
    guard !pending.isEmpty else { return }
    let batch = pending
    pending.removeAll(keepingCapacity: true)
    pendingBytes = 0
    slots.wait()
    queue.async { [builder, slots] in
      builder.withLock { builder in
        for command in batch {
          switch command {
          case .step(let transition, let texts, let gap, let check):
            builder.add(transition, texts: texts, gap: gap, check: check)
          case .trailingGap(let gap, let state): builder.addGap(gap, resumedState: state)
          }
        }
      }
      slots.signal()
    }
  }
}
