import Foundation
import StateStore

/// Records every transition of a ``StateStore/Store`` to an action log file, off the main actor.
///
/// The recorder is a transition observer. On the main actor it only appends what the log
/// writes of each `Transition` (its action, effects and state after) to a bounded buffer, in
/// code specialized for the host's types; a serial background queue encodes the lines,
/// computes the ``StateDigest``s and writes them in batches, one write call per batch, in
/// order. Each line lands whole. See ``ActionLogFormat`` for the file format.
///
/// Recording never stops the app: if a write fails (disk full, file removed), the error is
/// reported once through `onError` and recording stops. `send` never waits for the writer:
/// when it falls behind and the buffer (``RecordingOptions/bufferSize``, in bytes) is full,
/// transitions are dropped at once, counted, and replaced in the file by one `gap` marker with
/// the state to resume from — memory stays bounded and no loss is silent.
///
/// Starting a recorder encodes the store's current state once, on the calling actor, for the
/// header: that measures the size of a state, which every buffered transition is charged.
///
/// ```swift
/// let recorder = try store.record(to: logURL, feature: "login")
/// store.send(.edit(.set(\.username, to: "demo")))
/// await recorder.close()   // flushes and writes the `closed` marker
/// ```
///
/// Secrets are written as their shape masks; with ``RecordingOptions/masksPersonalData`` every
/// ``StateStore/PersonalData`` is written as its mask too.
@MainActor
public final class ActionLogRecorder<R: Reducer>
where R.State: Encodable, R.Action: Encodable, R.Effect: Encodable {
  /// Where the log is written.
  public let url: URL
  /// The options the recorder was created with.
  public let options: RecordingOptions

  @usableFromInline let core: RecorderCore<R.State, R.Action, R.Effect>
  @usableFromInline var subscription: StoreSubscription?
  /// The recorded store's state now, while the store lives: the state of steps dropped at the
  /// end, which ``close()`` writes.
  @usableFromInline var currentState: () -> R.State? = { nil }

  /// Starts recording `store` to a new file at `url`, beginning with a header that holds the
  /// store's current state.
  ///
  /// The log is readable by its owner only (mode 0600). An earlier action log or an empty file
  /// at `url` is replaced (and made 0600); a device or a pipe is written to. A symbolic link is
  /// never followed, and any other file is left as it was: both are an error.
  ///
  /// - Parameters:
  ///   - store: The store to record.
  ///   - url: A file URL: a new file, an earlier action log, an empty file or a device.
  ///   - feature: The feature's name, written in the header, for example `"login"`.
  ///   - options: Checkpoints, size limit, redaction and buffering.
  ///   - onError: Called at most once, on a background queue, when writing or encoding fails
  ///     (the header included); recording has stopped by then.
  /// - Throws: ``ActionLogError/ioError(_:)`` when the file cannot be created, is a symbolic
  ///   link, or is a file other than an action log. Everything
  ///   after that, the header included, is written in the background and reported through
  ///   `onError`.
  @inlinable
  public convenience init(
    store: Store<R>,
    url: URL,
    feature: String,
    options: RecordingOptions = .init(),
    onError: @escaping @Sendable (ActionLogError) -> Void = { _ in }
  ) throws(ActionLogError) {
    try self.init(
      unsubscribedTo: store, url: url, feature: feature, options: options, onError: onError)
    // Made here, in the host's module, so the step the store hands over is buffered by code
    // specialized for its types.
    let core = core
    // Steps, not transitions: the store then never keeps the state before an action, so a
    // reducer that changes one item of a long list writes it in place.
    subscription = store.observeSteps { step in
      core.enqueue(step)
    }
    currentState = { [weak store] in store?.state }
  }

  /// Opens the log and starts its writer; the public initializer above subscribes.
  @usableFromInline
  init(
    unsubscribedTo store: Store<R>,
    url: URL,
    feature: String,
    options: RecordingOptions,
    onError: @escaping @Sendable (ActionLogError) -> Void
  ) throws(ActionLogError) {
    self.url = url
    self.options = options
    let header = ActionLogHeader(
      feature: feature, created: Date(), checkpointInterval: options.checkpointInterval,
      initialState: store.state)
    let core = try RecorderCore<R.State, R.Action, R.Effect>(
      url: url, header: header, options: options,
      budget: RecorderBudget(limit: options.bufferSize), onError: onError)
    self.core = core
  }

  deinit {
    core.finish()
  }

  /// Whether transitions are still being recorded: `false` after ``close()``, a write error or
  /// the size limit.
  public var isRecording: Bool { core.isRecording }

  /// How many transitions were dropped because the writer fell behind.
  public var droppedTransitionCount: Int { core.droppedTransitionCount }

  /// Waits until every transition recorded so far is written to the file; recording goes on.
  ///
  /// Use it before attaching a log that is still being recorded to a bug report.
  public func flush() async {
    let core = core
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      core.flush { continuation.resume() }
    }
  }

  /// Stops recording, writes everything buffered and the `closed` marker, and closes the file.
  ///
  /// Calling it again does nothing. A recorder that is released without `close()` still
  /// flushes and closes its file, in the background.
  public func close() async {
    subscription?.cancel()
    subscription = nil
    let core = core
    let finalState = currentState()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      core.finish(finalState: finalState) { continuation.resume() }
    }
  }
}

extension Store where R.State: Encodable, R.Action: Encodable, R.Effect: Encodable {
  /// Records this store's transitions to an action log at `url` until the returned recorder is
  /// closed or released.
  ///
  /// ```swift
  /// let recorder = try store.record(to: logURL, feature: "login") { error in
  ///   print("action log stopped: \(error)")
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - url: A file URL: a new file, an earlier action log, an empty file or a device.
  ///   - feature: The feature's name, written in the header.
  ///   - options: Checkpoints, size limit, redaction and buffering.
  ///   - onError: Called at most once, on a background queue, when writing fails.
  /// - Returns: The recorder; keep it, and `await close()` it to flush.
  /// - Throws: What ``ActionLog/ActionLogRecorder/init(store:url:feature:options:onError:)`` throws.
  public func record(
    to url: URL,
    feature: String,
    options: RecordingOptions = .init(),
    onError: @escaping @Sendable (ActionLogError) -> Void = { _ in }
  ) throws(ActionLogError) -> ActionLogRecorder<R> {
    try ActionLogRecorder(
      store: self, url: url, feature: feature, options: options, onError: onError)
  }
}
