import StateStore

extension TestStore {
  /// Waits for the effects still running, then fails if anything went unasserted.
  ///
  /// Call it at the end of every test that runs effects. In exhaustive mode it fails when
  /// actions effects sent were not received, when effects returned without a handler were not
  /// asserted, or when effects are still running after `timeout`; those are then cancelled.
  ///
  /// <!-- sample: finish-unreceived -->
  /// ```text
  /// The test finished with 1 action sent by effects that was not received.
  ///
  ///   LoginAction.alertButtonTapped("ok")
  ///
  /// Assert each with receive(_:assert:), or call skipReceivedActions() before finish().
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait for running effects; ``timeout`` by default.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func finish(
    timeout: Duration? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    isFinished = true
    let wait = timeout ?? self.timeout
    if let monitor {
      _ = await waitUntil(timeout: wait) { effectsStarted == monitor.finishedCount }
    }
    let running = effectsStarted - (monitor?.finishedCount ?? 0)
    if exhaustivity == .on {
      reportUnassertedEffects()
      let problems = Self.endOfTestProblems(
        steps: steps, sent: sentSteps, unreceived: Array(received[receivedCursor...]),
        unassertedEffects: nil,
        running: running, waited: wait)
      for problem in problems { FailureReporter.current(problem, at: location) }
    }
    receivedCursor = received.count
    unassertedEffects = nil
    if running > 0 { store.cancelAll() }
  }

  /// Marks every action effects have sent so far as received, without checking them.
  ///
  /// For tests that do not care about some answers. The state is still checked from the actual
  /// state at each later step.
  public func skipReceivedActions() {
    receivedCursor = received.count
  }

  /// Marks the effects returned by the last action as asserted, without checking them.
  public func skipEffects() {
    unassertedEffects = nil
  }

  /// Cancels every effect still running; ``finish(timeout:fileID:filePath:line:column:)``
  /// then waits only for them to stop.
  public func skipInFlightEffects() {
    store.cancelAll()
  }

  nonisolated static func endOfTestProblems(
    steps: [Transition<R.State, R.Action, R.Effect>],
    sent: Set<Int>,
    unreceived: [Int],
    unassertedEffects: Int?,
    running: Int,
    waited: Duration? = nil
  ) -> [String] {
    var problems: [String] = []
    if let index = unassertedEffects {
      let step = steps[index]
      problems.append(
        FailureMessage.list(
          "\(sent.contains(index) ? "send" : "receive")(\(Dump.render(step.action))) returned "
            + "\(FailureMessage.count(step.effects.count, "effect")) that the test did not "
            + "assert.",
          step.effects.map { Dump.render($0) },
          fix: "Assert them with the effects: argument, or call skipEffects() to ignore them."))
    }
    if !unreceived.isEmpty {
      problems.append(
        FailureMessage.list(
          "The test finished with \(FailureMessage.count(unreceived.count, "action")) sent by "
            + "effects that \(unreceived.count == 1 ? "was" : "were") not received.",
          unreceived.map { Dump.render(steps[$0].action) },
          fix: "Assert each with receive(_:assert:), or call skipReceivedActions() before "
            + "finish()."))
    }
    if running > 0 {
      let still = "\(FailureMessage.count(running, "effect")) still running"
      problems.append(
        waited.map { waited in
          "The test finished with \(still) after waiting \(waited).\n\n"
            + "Advance the TestClock or resolve the fake it waits on, cancel it with "
            + "skipInFlightEffects(), or pass a longer timeout to finish(timeout:)."
        }
          ?? "The test finished with \(still).\n\n"
          + "Await store.finish() at the end of the test, advance the TestClock or resolve the "
          + "fake it waits on, or cancel it with skipInFlightEffects().")
    }
    return problems
  }
}
