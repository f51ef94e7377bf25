import ActionLog
import Foundation
import StateStore

/// The `replay` command line — show, replay and verify recorded action logs — for whichever
/// features you give it.
///
/// The logic of the `replay` tool lives here, generic over the reducer, so any host app with
/// its own (composed) reducer builds its own replay tool in a few lines:
///
/// ```swift
/// import Foundation
/// import MyAppFeature
/// import ReplayTool
///
/// let command = ReplayCommand(features: [
///   ReplayableFeature(
///     name: "myapp", reducer: MyAppReducer(),
///     module: "MyAppFeature", reducerExpression: "MyAppReducer()")
/// ])
/// exit(command.run(Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// The feature is chosen by the name in the log's header; a log of a feature the command does
/// not know is an error naming the ones it knows. See ``usage`` for the options and exit
/// statuses.
@MainActor
public struct ReplayCommand {
  /// The features this command can replay.
  public let features: [ReplayableFeature]
  /// The name the command calls itself in messages and in its usage text.
  public let toolName: String

  /// Creates the command.
  ///
  /// - Parameters:
  ///   - features: The features it can replay; names must be unique.
  ///   - toolName: The name in messages (`replay: …`) and in the usage text.
  public init(features: [ReplayableFeature], toolName: String = "replay") {
    self.features = features
    self.toolName = toolName
  }

  /// The usage text, as `--help` prints it.
  public var usage: String {
    ReplayOptions.usage(tool: toolName, features: features.map(\.name))
  }

  /// Runs one invocation and returns its exit status.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - output: Where to write; standard output and standard error by default.
  /// - Returns: 0 on success, 1 for a divergence under `--verify`, 2 for bad usage or input.
  public func run(_ arguments: [String], output: ReplayOutput = .standard) -> Int32 {
    do throws(ReplayFailure) {
      let options = try ReplayOptions.parse(arguments, tool: toolName)
      if options.help {
        output.print(usage)
        return 0
      }
      try replay(options, output: output)
      return 0
    } catch {
      if let details = error.details { output.print(details) }
      output.error(error.message, tool: toolName)
      return error.exitStatus
    }
  }

  private func replay(_ options: ReplayOptions, output: ReplayOutput) throws(ReplayFailure) {
    let url = URL(fileURLWithPath: options.file)
    let info: ActionLogHeaderInfo
    do {
      info = try ActionLogHeaderInfo(contentsOf: url)
    } catch {
      throw .log(error)
    }
    guard let feature = features.first(where: { $0.name == info.feature }) else {
      throw .unknownFeature(info.feature, known: features.map(\.name))
    }
    if options.emitTest {
      // Check the whole log first: a log that does not replay would emit a failing test.
      var check = options
      check.emitTest = false
      check.verify = true
      check.stateOnly = false
      let silent = ReplayOutput(isColored: false, write: { _ in }, writeError: output.writeErr)
      try feature.replay(url, check, silent)
      output.print(
        RegressionTestSource.make(
          logPath: url.lastPathComponent, feature: feature.name,
          featureModule: feature.module, reducer: feature.reducerExpression
        ).dropLast().description)
      return
    }
    try feature.replay(url, options, output)
  }
}

/// One replay of one log with one reducer, printing as the options ask.
@MainActor
struct ReplayRun<R: Reducer>
where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
  let reducer: R
  let feature: String
  let options: ReplayOptions
  let output: ReplayOutput

  func run(_ url: URL) throws(ReplayFailure) {
    let showsTimeline = !options.verify && !options.stateOnly
    let session: ReplaySession<R>
    do {
      session = try Replayer(reducer: reducer).steps(
        of: url, verify: options.verify,
        options: ActionLogReadOptions(expectedFeature: feature))
    } catch {
      throw .log(error)
    }
    var lastStep: Int?
    var reachedStop = false
    let formatter = TransitionFormatter()
    do {
      while let step = try session.next() {
        if showsTimeline {
          if lastStep != nil { output.print("") }
          output.print(formatter.format(step.transition))
        }
        lastStep = step.sequenceNumber
        if let until = options.until, step.sequenceNumber >= until {
          reachedStop = true
          break
        }
      }
    } catch {
      reportWarnings(of: session)
      throw .log(error)
    }
    reportWarnings(of: session)

    if let until = options.until, !reachedStop {
      throw .stepNotReached(until, last: lastStep)
    }
    if options.stateOnly {
      output.print(Dump.render(session.state))
    } else if let lastStep, options.until != nil {
      if showsTimeline { output.print("") }
      output.print("state after #\(lastStep):")
      output.print(Dump.render(session.state))
    }
    if options.verify, !options.stateOnly {
      let count = session.stepCount
      output.print(
        "verified \(count) step\(count == 1 ? "" : "s"): "
          + "every state and effect matches the recording")
    }
  }

  private func reportWarnings(of session: ReplaySession<R>) {
    for warning in session.warnings {
      output.error("warning: \(warning.description)", tool: options.tool)
    }
  }
}
