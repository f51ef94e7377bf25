import ActionLog
import Foundation
import StateStore

/// A feature a ``ReplayCommand`` can replay: the name its logs carry in their header, its
/// reducer, and how a generated regression test creates that reducer.
///
/// ```swift
/// let counter = ReplayableFeature(
///   name: "counter", reducer: CounterReducer(),
///   module: "CounterFeature", reducerExpression: "CounterReducer()")
/// ```
///
/// The reducer's state, actions and effects must be `Codable` (the log holds them) and the
/// state `Equatable` (a verified replay compares it).
public struct ReplayableFeature: Sendable {
  /// The feature name in the log header, e.g. `"login"`.
  public let name: String
  /// The module `--emit-test` imports to get the reducer.
  public let module: String
  /// The Swift expression `--emit-test` creates the reducer with.
  public let reducerExpression: String
  let replay: @MainActor @Sendable (URL, ReplayOptions, ReplayOutput) throws(ReplayFailure) -> Void
  let replayFolder:
    @MainActor @Sendable (FlightRecording, ReplayOptions, ReplayOutput) throws(ReplayFailure) ->
      Void

  /// Describes a feature whose logs are replayed with `reducer`.
  ///
  /// - Parameters:
  ///   - name: The feature name in the log header.
  ///   - reducer: The feature's reducer, the one that recorded the logs.
  ///   - module: The module that defines the reducer, for `--emit-test`.
  ///   - reducerExpression: The Swift expression that creates the reducer, for `--emit-test`.
  public init<R: Reducer & Sendable>(
    name: String, reducer: R, module: String, reducerExpression: String
  ) where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
    self.name = name
    self.module = module
    self.reducerExpression = reducerExpression
    self.replay = { url, options, output throws(ReplayFailure) in
      try ReplayRun(reducer: reducer, feature: name, options: options, output: output).run(url)
    }
    self.replayFolder = { recording, options, output throws(ReplayFailure) in
      try ReplayRun(reducer: reducer, feature: name, options: options, output: output)
        .run(recording)
    }
  }
}
