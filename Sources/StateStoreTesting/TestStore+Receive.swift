import StateStore

extension TestStore where R.Action: Equatable {
  /// Waits for the next action an effect sent, checks it is `expected`, and checks the state it
  /// led to.
  ///
  /// The actions effects send are reduced as they arrive; `receive` takes them in order. In
  /// exhaustive mode the next one must be `expected`; with ``Exhaustivity/off``, the ones
  /// before it are skipped. If nothing arrives within `timeout`, the test fails with the actions
  /// that did arrive:
  ///
  /// <!-- sample: receive-timeout -->
  /// ```text
  /// Timed out after 0.1 seconds waiting to receive LoginAction.loginResponse(
  ///   attempt: 1,
  ///   LoginResult.failure(LoginServiceError.invalidCredentials)
  /// ).
  ///
  /// Received since the last send:
  ///   (none)
  /// Still running: 1 effect.
  ///
  /// If an effect sleeps on a TestClock, advance the clock first; if it waits on a fake, resolve it; or pass a longer timeout.
  /// ```
  ///
  /// - Parameters:
  ///   - expected: The action an effect must send.
  ///   - timeout: How long to wait; ``TestStore/timeout`` (five seconds) by default.
  ///   - updateExpected: Turns the state before the action into the expected state after it.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func receive(
    _ expected: R.Action,
    timeout: Duration? = nil,
    assert updateExpected: ((inout R.State) -> Void)? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = await nextReceived(expected, timeout: timeout, at: location) else { return }
    checkState(of: index, verb: "receive", updateExpected, at: location)
    await settle(index)
  }

  func nextReceived(
    _ expected: R.Action,
    timeout: Duration?,
    at location: FailureLocation
  ) async -> Int? {
    await nextReceived(
      Dump.render(expected), matching: { $0 == expected }, timeout: timeout, at: location)
  }
}

extension TestStore {
  /// Waits for the next action an effect sent that satisfies `predicate`, and checks the state
  /// it led to.
  ///
  /// For actions that are not `Equatable`, or whose payload a test cannot predict exactly:
  ///
  /// ```swift
  /// let isFailure: (FeedAction) -> Bool = {
  ///   if case .loaded(.failure) = $0 { true } else { false }
  /// }
  /// await store.receive(where: isFailure, assert: { $0.errorMessage = "Offline" })
  /// ```
  ///
  /// - Parameters:
  ///   - predicate: Whether an action is the expected one.
  ///   - timeout: How long to wait; ``TestStore/timeout`` (five seconds) by default.
  ///   - updateExpected: Turns the state before the action into the expected state after it.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func receive(
    where predicate: (R.Action) -> Bool,
    timeout: Duration? = nil,
    assert updateExpected: ((inout R.State) -> Void)? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard
      let index = await nextReceived(
        nil, matching: predicate, timeout: timeout, at: location)
    else { return }
    checkState(of: index, verb: "receive", updateExpected, at: location)
    await settle(index)
  }

  /// The next received action that `matches`, or `nil` after reporting why there is none.
  ///
  /// - Parameter expected: The rendering of the expected action, or `nil` for a predicate.
  func nextReceived(
    _ expected: String?,
    matching matches: (R.Action) -> Bool,
    timeout: Duration?,
    at location: FailureLocation
  ) async -> Int? {
    let wanted = expected ?? "an action that matches the predicate"
    let call = "receive(\(expected ?? "where:"))"
    reportUnassertedEffects()
    guard let monitor else {
      FailureReporter.current(
        "\(call) needs effects that run, but this test store has no effect handler.\n\n"
          + "Create the TestStore with a handler (fakes) to run effects, or send the effect's "
          + "answer with send(_:).",
        at: location)
      return nil
    }
    var wait = WatchedWait(timeout: timeout ?? self.timeout, now: .now)
    while true {
      while receivedCursor < received.count {
        let index = received[receivedCursor]
        receivedCursor += 1
        if matches(steps[index].action) { return index }
        guard exhaustivity == .off else {
          let actual = Dump.render(steps[index].action)
          let fix = "Expect the action that arrived, or fix the effect handler or the reducer."
          FailureReporter.current(
            expected.map {
              FailureMessage.diff(
                "Received an action that differs from the expected one.", expected: $0,
                actual: actual, fix: fix)
            }
              ?? FailureMessage.list(
                "Received an action that does not match the predicate.", [actual], fix: fix),
            at: location)
          return nil
        }
      }
      let arrived = await waitUntil(&wait) {
        receivedCursor < received.count || effectsStarted == monitor.finishedCount
      }
      guard receivedCursor == received.count else { continue }
      let running = effectsStarted - monitor.finishedCount
      let headline =
        arrived && running == 0
        ? "Expected to receive \(wanted), but no effect is running to send it."
        : "Timed out after \(wait.timeout) waiting to receive \(wanted)."
      let fix =
        running == 0
        ? "Check that the reducer returns the effect that sends it, and that the handler sends it."
        : "If an effect sleeps on a TestClock, advance the clock first; if it waits on a fake, "
          + "resolve it; or pass a longer timeout."
      var lines = ["Received since the last send:"]
      let since = received[receivedSinceSend..<receivedCursor].map {
        FailureMessage.indent(Dump.render(steps[$0].action))
      }
      lines += since.isEmpty ? ["  (none)"] : since
      if running > 0 { lines.append("Still running: \(FailureMessage.count(running, "effect")).") }
      FailureReporter.current(
        [headline, "", lines.joined(separator: "\n"), "", fix].joined(separator: "\n"),
        at: location)
      return nil
    }
  }
}

extension TestStore where R.Action: Equatable, R.Effect: Equatable {
  /// Waits for the next action an effect sent, checks it is `expected`, and checks the state it
  /// led to and the exact effects it returned.
  ///
  /// - Parameters:
  ///   - expected: The action an effect must send.
  ///   - expectedEffects: The effects the reducer must return for it, in order.
  ///   - timeout: How long to wait; ``TestStore/timeout`` (five seconds) by default.
  ///   - updateExpected: Turns the state before the action into the expected state after it.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func receive(
    _ expected: R.Action,
    effects expectedEffects: [R.Effect],
    timeout: Duration? = nil,
    assert updateExpected: ((inout R.State) -> Void)? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let index = await nextReceived(expected, timeout: timeout, at: location) else { return }
    checkState(of: index, verb: "receive", updateExpected, at: location)
    checkEffects(of: index, verb: "receive", expectedEffects, at: location)
    await settle(index)
  }
}
