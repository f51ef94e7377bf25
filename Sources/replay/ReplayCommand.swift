import ActionLog
import Foundation
import LoginFeature
import StateStore

/// Runs one invocation of `replay`: reads the header, picks the feature's reducer, and prints
/// the timeline, the state, a verification summary or a regression test.
@MainActor
struct ReplayCommand {
  /// The features this build can replay, by the name their logs carry.
  static let knownFeatures = [LoginReducer.actionLogFeature]

  var options: ReplayOptions
  var terminal: Terminal

  func run() throws(ReplayFailure) {
    let url = URL(fileURLWithPath: options.file)
    let info: ActionLogHeaderInfo
    do {
      info = try ActionLogHeaderInfo(contentsOf: url)
    } catch {
      throw .log(error)
    }
    switch info.feature {
    case LoginReducer.actionLogFeature:
      if options.emitTest {
        terminal.print(
          RegressionTestSource.make(
            logPath: url.lastPathComponent, feature: info.feature,
            featureModule: "LoginFeature", reducer: "LoginReducer()"
          ).dropLast().description)
        return
      }
      try replay(url, feature: info.feature, reducer: LoginReducer())
    default:
      throw .unknownFeature(info.feature, known: Self.knownFeatures)
    }
  }

  /// Replays `url` step by step with `reducer`, printing as the options ask.
  private func replay<R: Reducer>(_ url: URL, feature: String, reducer: R) throws(ReplayFailure)
  where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
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
    do {
      while let step = try session.next() {
        if showsTimeline {
          if lastStep != nil { terminal.print("") }
          terminal.print(TransitionFormatter().format(step.transition))
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
      terminal.print(Dump.render(session.state))
    } else if let lastStep, options.until != nil {
      if showsTimeline { terminal.print("") }
      terminal.print("state after #\(lastStep):")
      terminal.print(Dump.render(session.state))
    }
    if options.verify, !options.stateOnly {
      let count = session.stepCount
      terminal.print(
        "verified \(count) step\(count == 1 ? "" : "s"): "
          + "every state and effect matches the recording")
    }
  }

  private func reportWarnings<R: Reducer>(of session: ReplaySession<R>) {
    for warning in session.warnings {
      terminal.warning(warning.description)
    }
  }
}
