import StateStore
import Testing
import ToolTestSupport

/// A small feature that exercises every part of the runtime: queued actions, effects that
/// answer, effects that wait until released or cancelled, and cancellation groups.
struct Journal: Reducer {
  /// When set, every reduced action is recorded here, so a test can prove what was reduced.
  var witness: Probe?

  struct State: Equatable, Sendable {
    var entries: [String] = []
  }

  enum Action: Equatable, Sendable {
    case append(String)
    case emit([Effect])
    case answered(String)
  }

  enum Effect: StoreEffect, Equatable {
    /// Answers with `answered(name)` at once.
    case echo(String)
    /// Waits until the test releases `name` (or the task is cancelled), then answers.
    case held(String)
    /// Like `held`, but in the "request" group; a new one cancels the one in flight.
    case request(String)
    /// Cancels the "request" group.
    case cancelRequests
    /// Answers with `answered("\(name).1")` and then `answered("\(name).2")`.
    case twice(String)
    /// Answers with `emit([.echo(name)])`, so the effect tree grows a level.
    case chain(String)
    /// Like `held`, but ignores cancellation and answers anyway once released.
    case stubborn(String)

    var cancellation: EffectCancellation {
      switch self {
      case .request: .group("request", cancelInFlight: true)
      case .cancelRequests: .cancels("request")
      default: .none
      }
    }
  }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    witness?.start("reduced \(action)")
    switch action {
    case .append(let entry):
      state.entries.append(entry)
      return []
    case .emit(let effects):
      return effects
    case .answered(let name):
      state.entries.append("answered \(name)")
      return []
    }
  }
}

/// Records what the handler did and holds `held`/`request` effects until released.
final class Probe: Sendable {
  private struct Contents {
    var started: [String] = []
    var cancelled: [String] = []
    var gates: [String: CheckedContinuation<Void, Never>] = [:]
    var released: Set<String> = []
    var startWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
  }

  private let contents = Guarded(Contents())

  var started: [String] { contents.withLock { $0.started } }
  var cancelled: [String] { contents.withLock { $0.cancelled.sorted() } }

  func start(_ name: String) {
    let waiters = contents.withLock { contents in
      contents.started.append(name)
      return contents.startWaiters.removeValue(forKey: name) ?? []
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until `release(name)` or cancellation; returns whether it was released.
  func wait(_ name: String) async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let resumeNow = contents.withLock { contents -> Bool in
          if contents.released.contains(name) || Task.isCancelled { return true }
          contents.gates[name] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
      let released = contents.withLock { $0.released.contains(name) }
      if !released { contents.withLock { $0.cancelled.append(name) } }
      return released
    } onCancel: {
      let gate = contents.withLock { $0.gates.removeValue(forKey: name) }
      gate?.resume()
    }
  }

  /// Suspends until `release(name)`, whatever happens to the task meanwhile.
  func waitIgnoringCancellation(_ name: String) async {
    await withCheckedContinuation { continuation in
      let resumeNow = contents.withLock { contents -> Bool in
        if contents.released.contains(name) { return true }
        contents.gates[name] = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func release(_ name: String) {
    let gate = contents.withLock { contents in
      contents.released.insert(name)
      return contents.gates.removeValue(forKey: name)
    }
    gate?.resume()
  }

  /// Waits until `name` has started: woken by `start(name)`, never by polling. Bounded: after
  /// a minute the test fails here instead of hanging the suite.
  func waitUntilStarted(
    _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let started = Task { [contents] in
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let startedAlready = contents.withLock { contents -> Bool in
          if contents.started.contains(name) { return true }
          contents.startWaiters[name, default: []].append(continuation)
          return false
        }
        if startedAlready { continuation.resume() }
      }
    }
    if await started.outcome(within: .seconds(60)) == nil {
      Issue.record("'\(name)' did not start within a minute", sourceLocation: sourceLocation)
    }
  }

}

struct JournalHandler: EffectHandler {
  let probe: Probe

  func handle(_ effect: Journal.Effect, send: Send<Journal.Action>) async {
    switch effect {
    case .echo(let name):
      probe.start(name)
      await send(.answered(name))
    case .held(let name), .request(let name):
      probe.start(name)
      if await probe.wait(name) { await send(.answered(name)) }
    case .cancelRequests:
      probe.start("cancelRequests")
    case .twice(let name):
      probe.start(name)
      await send(.answered("\(name).1"))
      await send(.answered("\(name).2"))
    case .chain(let name):
      probe.start(name)
      await send(.emit([.echo("\(name).child")]))
    case .stubborn(let name):
      probe.start(name)
      await probe.waitIgnoringCancellation(name)
      await send(.answered(name))
      probe.start("\(name) sent")
    }
  }
}

@MainActor
func makeJournalStore(probe: Probe = Probe(), witness: Probe? = nil) -> Store<Journal> {
  Store(
    initialState: Journal.State(), reducer: Journal(witness: witness),
    handler: JournalHandler(probe: probe))
}

extension StoreTask {
  /// `finish()`, bounded by a minute: an effect a regression leaves running fails the test here
  /// instead of hanging the suite.
  @MainActor func finishOrFail(sourceLocation: SourceLocation = #_sourceLocation) async {
    if await !finish(within: .seconds(60)) {
      Issue.record("effects still running after a minute", sourceLocation: sourceLocation)
    }
  }
}
