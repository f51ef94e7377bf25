import ActionLog
import Foundation
import StateStore

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
