import ActionLog
import Foundation
import StateStore
import ToolTestSupport

/// A small feature with an effect that answers with an action.
struct Counter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var isLoading = false
  }

  enum Action: Codable, Equatable, Sendable {
    case increment
    case add(Int)
    case loadTapped
    case loaded(Int)
  }

  enum Effect: Codable, Equatable, StoreEffect {
    case load
  }

  /// Adds this much more on every `add`, to make a reducer that diverges from the recording.
  var bug = 0

  func reduce(into state: inout State, action: Action) -> [Effect] {
    switch action {
    case .increment:
      state.count += 1
      return []
    case .add(let amount):
      state.count += amount + bug
      return []
    case .loadTapped:
      state.isLoading = true
      return [.load]
    case .loaded(let value):
      state.isLoading = false
      state.count = value
      return []
    }
  }
}

struct CounterHandler: EffectHandler {
  func handle(_ effect: Counter.Effect, send: Send<Counter.Action>) async {
    switch effect {
    case .load: await send(.loaded(42))
    }
  }
}

/// A header line for hand-written counter logs.
let counterHeader =
  #"{"format":"loginstore.actionlog","version":1,"feature":"counter","#
  + #""created":"2026-11-22T04:56:22Z","checkpointInterval":0,"#
  + #""initialState":{"count":0,"isLoading":false}}"#

/// A transition line for hand-written counter logs, with the right digest.
func counterLine(
  _ seq: Int, _ action: String, count: Int, effects: String = "[]", isLoading: Bool = false
) throws -> String {
  let digest = try StateDigest.of(Counter.State(count: count, isLoading: isLoading))
  return #"{"seq":\#(seq),"origin":"user","action":\#(action),"effects":\#(effects),"#
    + #""digest":"\#(digest)"}"#
}

/// Records `action` sent `sends` times to a counter store into `name` in `folder`, with a
/// checkpoint every `checkpointInterval` steps (0 for none), and returns the closed log.
@MainActor
func recordCounter(
  _ name: String, sends: Int, action: Counter.Action = .increment,
  checkpointInterval: Int = RecordingOptions().checkpointInterval, in folder: TemporaryFolder
) async throws -> URL {
  let url = folder.file(name)
  let store = Store(initialState: Counter.State(), reducer: Counter())
  let recorder = try store.record(
    to: url, feature: "counter", options: RecordingOptions(checkpointInterval: checkpointInterval))
  for _ in 0..<sends { store.send(action) }
  await recorder.close()
  return url
}
