import ActionLog
import Foundation
import StateStore
import ToolTestSupport

/// The printed samples of the "Build your own feature" article, made by its own feature
/// (`CounterTutorial.swift`), driven as the article's fragments drive it.
extension DocSamples {
  /// "Run it": the store counts to one and asks for a fact, printing every transition.
  static func counterTransitions() async -> String {
    let store = Store(
      initialState: CounterState(), reducer: CounterReducer(),
      handler: CounterEffectHandler(facts: ArithmeticFacts()))
    var printed: [String] = []
    let printer = store.printTransitions(to: { printed.append($0) })
    store.send(.incrementButtonTapped)
    await store.send(.factButtonTapped).finish()
    printer.cancel()
    return printed.joined(separator: "\n")
  }

  /// "Record a session": the log of two increments and a fact, its times and date as `…`.
  static func counterLog() async -> String {
    do {
      let log = try await recordedCounterLog()
      return LogLines.withoutVolatileFields(log.lines).joined(separator: "\n")
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// "Replay it": each replayed step of that log, as the article's loop prints it.
  static func counterReplay() async -> String {
    do {
      let log = try await recordedCounterLog()
      defer { withExtendedLifetime(log.folder) {} }
      let session = try Replayer(reducer: CounterReducer()).steps(of: log.url)
      let formatter = TransitionFormatter()
      var printed: [String] = []
      while let step = try session.next() {
        printed.append(formatter.format(step.transition))
      }
      return printed.joined(separator: "\n")
    } catch {
      return "(the sample could not be made: \(error))"
    }
  }

  /// The article's recorded session, in a temporary folder kept alive by the caller.
  private static func recordedCounterLog() async throws -> (
    url: URL, lines: [String], folder: TemporaryFolder
  ) {
    let folder = try TemporaryFolder()
    let log = folder.file("counter.jsonl")
    let store = Store(
      initialState: CounterState(), reducer: CounterReducer(),
      handler: CounterEffectHandler(facts: ArithmeticFacts()))
    let recorder = try store.record(to: log, feature: "counter")
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    await store.send(.factButtonTapped).finish()
    await recorder.close()
    let lines = try String(contentsOf: log, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    return (log, lines, folder)
  }
}
