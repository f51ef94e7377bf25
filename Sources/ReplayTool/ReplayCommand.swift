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
  /// - Returns: 0 on success, 1 for a divergence under `--verify` or when standard output
  ///   could not be written (`write error: …` on standard error), 2 for bad usage or input.
  public func run(_ arguments: [String], output: ReplayOutput = .standard) -> Int32 {
    var status: Int32 = 0
    var failure: ReplayFailure?
    do throws(ReplayFailure) {
      let options = try ReplayOptions.parse(arguments, tool: toolName)
      if options.help {
        output.print(usage)
      } else {
        try replay(options, output: output)
      }
    } catch {
      if let details = error.details { output.print(details) }
      failure = error
      status = error.exitStatus
    }
    // Said first: whatever else went wrong, what was asked for is not all on standard output.
    if let reason = output.writeFailure() {
      output.error(ReplayFailure.write(reason).message, tool: toolName)
      status = max(status, 1)
    }
    if let failure { output.error(failure.message, tool: toolName) }
    return status
  }

  private func replay(_ options: ReplayOptions, output: ReplayOutput) throws(ReplayFailure) {
    let url = URL(fileURLWithPath: options.file)
    if options.follow || options.serve {
      try follow(url, options, output: output)
      return
    }
    // A log in a folder that does not exist: said as every option says it, the path whole.
    if let problem = MissingFolder.problem(of: options.file, option: nil) {
      throw .usage(problem)
    }
    var isFolder: ObjCBool = false
    let recording: FlightRecording?
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder),
      isFolder.boolValue
    {
      do {
        recording = try FlightRecording(folder: url, shownAs: options.file)
      } catch {
        throw .log(error)
      }
      if options.html != nil, let recording {
        try TimelinePage.checkSize(of: recording.segments.map(\.url), named: options.file)
      }
    } else {
      recording = nil
      if options.html != nil { try TimelinePage.checkSize(of: [url], named: options.file) }
    }
    let info: ActionLogHeaderInfo
    do {
      info = try Self.headerInfo(of: recording, or: url)
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
      if let recording {
        try feature.replayFolder(recording, check, silent)
      } else {
        try feature.replay(url, check, silent)
      }
      output.print(
        RegressionTestSource.make(
          logPath: url.lastPathComponent, feature: feature.name,
          featureModule: feature.module, reducer: feature.reducerExpression,
          flightRecording: recording != nil
        ).dropLast().description)
      return
    }
    if let recording {
      try feature.replayFolder(recording, options, output)
    } else {
      try feature.replay(url, options, output)
    }
  }
}

extension ReplayCommand {
  /// `--follow` and `--serve`: waits for the log (or the folder's first segment) to have a
  /// header, picks the feature it names, and follows it (printing, or serving its page).
  fileprivate func follow(
    _ url: URL, _ options: ReplayOptions, output: ReplayOutput
  ) throws(ReplayFailure) {
    // A log is recorded into a folder that exists: one that does not cannot get it. Paths are
    // named as they were typed.
    let typed = options.file
    let option = options.serve ? "--serve" : "--follow"
    if let problem = MissingFolder.problem(of: typed, option: option) {
      throw .usage(problem)
    }
    var folder = false
    var info: ActionLogHeaderInfo?
    var saidWaiting = false
    while info == nil {
      // Not there yet, or its header not written yet: the app has not started recording.
      var isFolder: ObjCBool = false
      folder =
        FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        && isFolder.boolValue
      // A folder without segments yet is waited for like a missing file.
      let recording = folder ? try? FlightRecording(folder: url, shownAs: typed) : nil
      let written =
        if let recording {
          recording.segments.contains { FollowedFile.hasWholeFirstLine($0.url) }
        } else {
          !folder && FollowedFile.hasWholeFirstLine(url)
        }
      if written {
        // The header is there whole: one that does not read is the log's error, at once.
        do {
          info = try Self.headerInfo(of: recording, or: url)
        } catch {
          throw .log(error)
        }
      } else {
        if !saidWaiting {
          // Said once, on standard error: a silent wait reads as a hang.
          output.error(
            "waiting for \(Sanitized.path(typed)) to be recorded (Ctrl-C to stop)",
            tool: options.tool)
          saidWaiting = true
        }
        FollowedFile.pause()
      }
    }
    guard let info, let feature = features.first(where: { $0.name == info.feature }) else {
      throw .unknownFeature(info?.feature ?? "", known: features.map(\.name))
    }
    if options.serve {
      try feature.serve(url, folder, options, output)
    } else {
      try feature.follow(url, folder, options, output)
    }
  }

  /// The header of the log at `url`, or of a folder's first segment whose header reads: the
  /// replay names the bad ones before it and goes on after them. When none reads, the first
  /// segment's error, with its name.
  fileprivate static func headerInfo(
    of recording: FlightRecording?, or url: URL
  ) throws(ActionLogError) -> ActionLogHeaderInfo {
    guard let recording else { return try ActionLogHeaderInfo(contentsOf: url) }
    var firstError: ActionLogError?
    for segment in recording.segments {
      do {
        return try ActionLogHeaderInfo(contentsOf: segment.url)
      } catch {
        if firstError == nil {
          firstError = .badSegment(
            file: segment.url.lastPathComponent,
            reason: String(error.description.prefix { $0 != "\n" }))
        }
      }
    }
    throw firstError ?? .ioError("no segment to read")
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
    // Said at once when the end of the file says so, not after the whole timeline.
    if let until = options.until, let last = LastStepNumber.of(url), last < until {
      throw .stepNotReached(until, last: last)
    }
    var lastStep: Int?
    var reachedStop = false
    var printedSteps = PrintedSteps()
    let progress = ReplayProgress.make(
      totalBytes: ReplayProgress.size(of: [url]), output: output, printsAsItGoes: showsTimeline)
    defer { progress?.clear() }
    do {
      while let step = try session.next() {
        progress?.update(.init(steps: session.stepCount, bytes: session.bytesRead))
        if showsTimeline {
          if lastStep != nil { output.print("") }
          output.print(printedSteps.text(of: step))
        }
        lastStep = step.sequenceNumber
        if let until = options.until, step.sequenceNumber >= until {
          reachedStop = true
          break
        }
      }
    } catch {
      progress?.clear()
      reportWarnings(of: session)
      throw .log(error)
    }
    progress?.clear()
    reportWarnings(of: session)

    if let until = options.until, !reachedStop {
      throw .stepNotReached(until, last: lastStep, afterTimeline: showsTimeline && lastStep != nil)
    }
    if session.stepCount == 0 { output.error(ReplayFailure.noSteps, tool: options.tool) }
    if options.stateOnly {
      output.print(CanonicalJSON.fields(session.state, using: CanonicalJSONEncoder()))
    } else if let lastStep, options.until != nil {
      if showsTimeline { output.print("") }
      output.print("state after #\(lastStep):")
      output.print(CanonicalJSON.fields(session.state, using: CanonicalJSONEncoder()))
    }
    if options.verify, !options.stateOnly {
      let count = session.stepCount
      output.print(
        "verified \(count) step\(count == 1 ? "" : "s"): "
          + "every state and effect matches the recording")
    }
  }

  /// The same over a flight recorder's folder: launches and rotated-out steps are shown in
  /// the timeline and said on standard error.
  func run(_ recording: FlightRecording) throws(ReplayFailure) {
    let showsTimeline = !options.verify && !options.stateOnly
    if let until = options.until, let last = LastStepNumber.of(recording.segments.map(\.url)),
      last < until
    {
      throw .stepNotReached(until, last: last)
    }
    let replay = recording.replay(
      with: reducer, verify: options.verify,
      options: ActionLogReadOptions(expectedFeature: feature))
    var lastStep: Int?
    var reachedStop = false
    var printed = false
    var printedSteps = PrintedSteps()
    let sizes = recording.segments.map { ReplayProgress.size(of: [$0.url]) }
    let progress = ReplayProgress.make(
      totalBytes: sizes.reduce(0, +), output: output, printsAsItGoes: showsTimeline)
    defer { progress?.clear() }
    // Said once: in the timeline when it is printed, else on standard error.
    func say(_ line: String) {
      guard showsTimeline else {
        progress?.clear()
        output.error(line, tool: options.tool)
        return
      }
      if printed { output.print("") }
      output.print("── " + line + " ──")
      printed = true
    }
    do {
      while let event = try replay.next() {
        switch event {
        case .rotatedOut(let steps):
          say("\(steps) step\(steps == 1 ? " was" : "s were") rotated out before the window kept")
        case .launch(let number, let segment, let created):
          printedSteps.restart()
          say("launch \(number) begins in \(segment) (\(created.formatted(.iso8601)))")
        case .step(let step):
          progress?.update(
            .init(
              steps: replay.stepCount, bytes: ReplayProgress.bytesRead(of: replay, sizes: sizes)))
          if showsTimeline {
            if printed { output.print("") }
            output.print(printedSteps.text(of: step))
            printed = true
          }
          lastStep = step.sequenceNumber
          if let until = options.until, step.sequenceNumber >= until {
            reachedStop = true
          }
        }
        if reachedStop { break }
      }
    } catch {
      progress?.clear()
      for warning in replay.warnings { output.error("warning: \(warning)", tool: options.tool) }
      throw .log(error)
    }
    progress?.clear()
    for warning in replay.warnings { output.error("warning: \(warning)", tool: options.tool) }
    if let until = options.until, !reachedStop {
      throw .stepNotReached(until, last: lastStep, afterTimeline: showsTimeline && printed)
    }
    if replay.stepCount == 0 { output.error(ReplayFailure.noSteps, tool: options.tool) }
    if options.stateOnly {
      if let state = replay.state {
        output.print(CanonicalJSON.fields(state, using: CanonicalJSONEncoder()))
      }
    } else if let lastStep, options.until != nil, let state = replay.state {
      if showsTimeline { output.print("") }
      output.print("state after #\(lastStep):")
      output.print(CanonicalJSON.fields(state, using: CanonicalJSONEncoder()))
    }
    if options.verify, !options.stateOnly {
      let count = replay.stepCount
      output.print(
        "verified \(count) step\(count == 1 ? "" : "s") in \(recording.segments.count) "
          + "segment\(recording.segments.count == 1 ? "" : "s"): "
          + "every state and effect matches the recording")
    }
  }

  private func reportWarnings(of session: ReplaySession<R>) {
    for warning in session.warnings {
      output.error("warning: \(warning.description)", tool: options.tool)
    }
  }
}
