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
/// state `Equatable` (a verified replay compares it). A feature may also bring a
/// ``TimelineScreenRenderer``, so its HTML timeline (`replay --html`) shows a mock of the
/// screen at every step.
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
  /// `--follow`: the log or the folder (`true`) at the URL, as it is written.
  let follow:
    @MainActor @Sendable (URL, Bool, ReplayOptions, ReplayOutput) throws(ReplayFailure) -> Void
  /// `--serve`: the log or the folder (`true`) at the URL, its page served as it is written.
  let serve:
    @MainActor @Sendable (URL, Bool, ReplayOptions, ReplayOutput) throws(ReplayFailure) -> Void

  /// Describes a feature whose logs are replayed with `reducer`; its HTML timeline shows the
  /// state tree of every step, without a mock screen.
  ///
  /// - Parameters:
  ///   - name: The feature name in the log header.
  ///   - reducer: The feature's reducer, the one that recorded the logs.
  ///   - module: The module that defines the reducer, for `--emit-test`.
  ///   - reducerExpression: The Swift expression that creates the reducer, for `--emit-test`.
  public init<R: Reducer & Sendable>(
    name: String, reducer: R, module: String, reducerExpression: String
  ) where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
    self.init(
      name: name, reducer: reducer, module: module, reducerExpression: reducerExpression,
      renderer: NoTimelineScreen<R.State, R.Action, R.Effect>?.none)
  }

  /// Describes a feature whose logs are replayed with `reducer`, and whose HTML timeline
  /// (`--html`) draws a mock of its screen at every step with `screen`.
  ///
  /// ```swift
  /// ReplayableFeature(
  ///   name: "login", reducer: LoginReducer(),
  ///   module: "LoginFeature", reducerExpression: "LoginReducer()",
  ///   screen: LoginTimelineScreen())
  /// ```
  ///
  /// - Parameters:
  ///   - name: The feature name in the log header.
  ///   - reducer: The feature's reducer, the one that recorded the logs.
  ///   - module: The module that defines the reducer, for `--emit-test`.
  ///   - reducerExpression: The Swift expression that creates the reducer, for `--emit-test`.
  ///   - screen: Turns a replayed state, and the steps so far, into a screen description.
  public init<R: Reducer & Sendable, S: TimelineScreenRenderer>(
    name: String, reducer: R, module: String, reducerExpression: String, screen: S
  )
  where
    R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable,
    S.State == R.State, S.Action == R.Action, S.Effect == R.Effect
  {
    self.init(
      name: name, reducer: reducer, module: module, reducerExpression: reducerExpression,
      renderer: Optional(screen))
  }

  private init<R: Reducer & Sendable, S: TimelineScreenRenderer>(
    name: String, reducer: R, module: String, reducerExpression: String, renderer: S?
  )
  where
    R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable,
    S.State == R.State, S.Action == R.Action, S.Effect == R.Effect
  {
    self.name = name
    self.module = module
    self.reducerExpression = reducerExpression
    self.replay = { url, options, output throws(ReplayFailure) in
      if options.html != nil {
        try TimelineRun(
          reducer: reducer, feature: name, screen: renderer, options: options, output: output
        ).run(url)
      } else {
        try ReplayRun(reducer: reducer, feature: name, options: options, output: output).run(url)
      }
    }
    self.follow = { url, isFolder, options, output throws(ReplayFailure) in
      let run = ReplayRun(reducer: reducer, feature: name, options: options, output: output)
      if isFolder {
        try run.follow(folder: url)
      } else {
        try run.follow(url)
      }
    }
    self.serve = { url, isFolder, options, output throws(ReplayFailure) in
      try TimelineRun(
        reducer: reducer, feature: name, screen: renderer, options: options, output: output
      ).serve(url, isFolder: isFolder)
    }
    self.replayFolder = { recording, options, output throws(ReplayFailure) in
      if options.html != nil {
        try TimelineRun(
          reducer: reducer, feature: name, screen: renderer, options: options, output: output
        ).run(recording)
      } else {
        try ReplayRun(reducer: reducer, feature: name, options: options, output: output)
          .run(recording)
      }
    }
  }
}
