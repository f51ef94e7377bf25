import StateStore

/// Runs a feature in a test and checks every step: the state it changed, the effects it
/// returned and the actions its effects sent back.
///
/// A test store wraps the runtime's ``StateStore/Store`` — the same reducer runs the same way —
/// and watches every transition. Each ``send(_:assert:fileID:filePath:line:column:)`` takes a
/// trailing closure that turns the *expected* state from before the action into the expected
/// state after it; any difference from the real new state fails the test with a diff.
///
/// ```swift
/// @Test func searchShowsResults() async {
///   let store = TestStore(
///     initialState: SearchState(), reducer: SearchReducer(), handler: FakeSearch(results: ["a"]))
///   await store.send(.queryChanged("a")) { $0.query = "a"; $0.isSearching = true }
///   await store.receive(.resultsLoaded(["a"])) { $0.isSearching = false; $0.results = ["a"] }
///   await store.finish()
/// }
/// ```
///
/// Without a handler, effects do not run: they are data the test asserts with
/// ``send(_:effects:assert:fileID:filePath:line:column:)`` (or skips with ``skipEffects()``).
/// With a handler (fakes injected), effects run for real and ``receive(_:timeout:assert:fileID:filePath:line:column:)``
/// awaits the actions they send.
///
/// Exhaustive by default (see ``Exhaustivity``): at ``finish(timeout:fileID:filePath:line:column:)``,
/// and when the store is released, actions received but not asserted, effects not asserted and
/// effects still running fail the test, with what to do about it.
@MainActor
public final class TestStore<R: Reducer> where R.State: Equatable {
  /// The runtime store under test.
  public let store: Store<R>

  /// The journal of this store's steps, for fakes to add what they performed (see
  /// ``StoryRecorder``) and for ``assertStory(named:context:fileID:filePath:function:line:column:)``.
  public let story: StoryRecorder

  /// Whether every step must be asserted; ``Exhaustivity/on`` by default.
  public var exhaustivity: Exhaustivity = .on

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)`` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` wait by default: five seconds. A passing
  /// test never waits that long (it goes on as soon as the action arrives); the margin is for a
  /// suite that runs its tests in parallel on a small machine, where an effect's answer on a
  /// busy main actor can take over a second.
  ///
  /// Every timeout of a test store counts only the time the store could watch: it looks at the
  /// time at least every 50 ms, and a look that comes late (the main actor or the machine was
  /// busy, so the effects it waits for could not run either) counts as 100 ms, however late it
  /// came. On a loaded machine a wait takes longer in real time instead of failing a passing
  /// test; it never takes more than 20 times its timeout.
  public var timeout: Duration = .seconds(5)

  /// The store's current state (which may be ahead of the last assertion while effects run).
  public var state: R.State { store.state }

  /// The values the reducer reads (``StateStore/ReducerInputs``), which the test controls: a
  /// date it sets, ids `0, 1, 2, …` (``StateStore/ControlledInputs/id(_:)``), and a generator
  /// seeded with 0. Set a field before a `send` to change what the next steps read.
  ///
  /// ```swift
  /// store.inputs.now = Date(timeIntervalSince1970: 1_800_000_000)
  /// store.inputs.nextID = 10          // the next new id is …-00000000000A
  /// store.inputs.random = SeededGenerator(seed: 7)
  /// ```
  public var inputs: ControlledInputs {
    get {
      if case .controlled(let controlled) = store.inputs { return controlled }
      return ControlledInputs()
    }
    set { store.inputs = .controlled(newValue) }
  }

  let createdAt: FailureLocation
  let initialState: R.State
  let monitor: EffectMonitor?
  var subscription: StoreSubscription?

  /// Every transition so far, in order; transition `n` is at index `n - 1`.
  var steps: [Transition<R.State, R.Action, R.Effect>] = []
  /// The steps the test sent with `send`; every other step arrived (an effect sent it, or a
  /// person's answer that an effect carried, such as an alert's button).
  var sentSteps: Set<Int> = []
  /// Whether the test's `send` is reducing its action now.
  private var isSending = false
  /// Indices in `steps` of actions effects sent, in arrival order.
  var received: [Int] = []
  /// How many of `received` the test has asserted or skipped.
  var receivedCursor = 0
  /// The index in `received` of the first action received since the last `send`.
  var receivedSinceSend = 0
  /// Effects returned without a handler that the test has not asserted yet.
  var unassertedEffects: (step: Int, location: FailureLocation)?
  /// Effects the store has started (with a handler).
  var effectsStarted = 0
  var isFinished = false

  /// Creates a test store whose effects are data: nothing runs them.
  ///
  /// Each effect the reducer returns must be asserted with
  /// ``send(_:effects:assert:fileID:filePath:line:column:)`` or skipped with ``skipEffects()``
  /// before the next action. Simulate an effect's answer by sending its action yourself.
  ///
  /// - Parameters:
  ///   - initialState: The state before the first action.
  ///   - reducer: The reducer under test.
  ///   - fileID: Where end-of-test failures are reported; the caller's by default.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public init(
    initialState: R.State,
    reducer: R,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.store = Store(initialState: initialState, reducer: reducer)
    store.inputs = .controlled(ControlledInputs())
    self.story = StoryRecorder()
    self.monitor = nil
    self.createdAt = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.initialState = initialState
    subscribe()
  }

  /// Creates a test store whose effects run in `handler` — usually one built from fakes.
  ///
  /// - Parameters:
  ///   - initialState: The state before the first action.
  ///   - reducer: The reducer under test.
  ///   - handler: Carries out the effects; its actions come back through
  ///     ``receive(_:timeout:assert:fileID:filePath:line:column:)``.
  ///   - fileID: Where end-of-test failures are reported; the caller's by default.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public init<Handler: EffectHandler>(
    initialState: R.State,
    reducer: R,
    handler: Handler,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) where Handler.Effect == R.Effect, Handler.Action == R.Action {
    let monitor = EffectMonitor()
    self.store = Store(
      initialState: initialState, reducer: reducer,
      handler: MonitoredHandler(base: handler, monitor: monitor))
    store.inputs = .controlled(ControlledInputs())
    self.story = StoryRecorder()
    self.monitor = monitor
    self.createdAt = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.initialState = initialState
    subscribe()
  }

  deinit {
    guard !isFinished, exhaustivity == .on else { return }
    // An effect whose last action was received may still be returning from its `send`, on
    // another thread: let it, briefly, before counting it as running.
    if let monitor, effectsStarted > monitor.finishedCount {
      _ = monitor.waitUntilIdle(timeout: .milliseconds(200))
    }
    let problems = Self.endOfTestProblems(
      steps: steps, sent: sentSteps, unreceived: Array(received[receivedCursor...]),
      unassertedEffects: unassertedEffects?.step,
      running: effectsStarted - (monitor?.finishedCount ?? 0))
    for problem in problems {
      FailureReporter.current(
        problem + "\n\n(Reported where the test store was created: it was released without "
          + "await store.finish().)",
        at: createdAt)
    }
  }

  private func subscribe() {
    subscription = store.observeTransitions { [weak self] transition in
      self?.record(transition)
    }
  }

  private func record(_ transition: Transition<R.State, R.Action, R.Effect>) {
    steps.append(transition)
    story.step(transition.sequenceNumber)
    if isSending { sentSteps.insert(steps.count - 1) }
    if let monitor {
      effectsStarted += transition.effects.count
      if !isSending {
        received.append(steps.count - 1)
        monitor.signal()
      }
    }
  }

  // MARK: - Sending

  /// Sends `action` as the user would, and checks the state it leads to.
  ///
  /// The trailing closure receives the state from before the action; mutate it into the state
  /// you expect. Leave the closure out when the action changes nothing.
  ///
  /// ```swift
  /// await store.send(.loginButtonTapped) {
  ///   $0.isLoading = true
  ///   $0.attemptID = 1
  /// }
  /// ```
  ///
  /// A difference fails the test at this line; here the expected state forgot the attempt's id:
  ///
  /// <!-- sample: state-mismatch -->
  /// ```text
  /// State after send(LoginAction.loginButtonTapped) differs from the expected state.
  ///
  ///     LoginState(
  ///       username: "demo",
  ///       password: Secret(Aaaa0a),
  ///       isLoading: true,
  ///       failedAttempts: 0,
  ///       isLocked: false,
  ///   −   attemptID: 0,
  ///   +   attemptID: 1,
  ///       user: nil,
  ///       rules: CredentialRules(
  ///         kind: CredentialRules.Kind.default,
  ///         maxAttempts: 5,
  ///         lockoutDuration: 30 seconds
  ///       ),
  ///       twoFactor: nil,
  ///       notice: nil,
  ///       lockedFor: nil,
  ///       passwordReset: nil,
  ///       isRestoring: false,
  ///       isUsernameEdited: false,
  ///       isPasswordEdited: false,
  ///       wasSubmitTried: true
  ///     )
  ///
  /// (Expected: −, Actual: +)
  /// Mutate the expected state in the trailing closure to match, or fix the reducer.
  /// ```
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - updateExpected: Turns the state before the action into the expected state after it.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  /// - Returns: The runtime's task for the action's effects: await or cancel it.
  @discardableResult
  public func send(
    _ action: R.Action,
    assert updateExpected: ((inout R.State) -> Void)? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async -> StoreTask {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let (index, task) = perform(action, at: location)
    checkState(of: index, verb: "send", updateExpected, at: location)
    await settle(index)
    return task
  }

  func perform(_ action: R.Action, at location: FailureLocation) -> (Int, StoreTask) {
    checkBeforeSend(action, at: location)
    let index = steps.count
    // Effects the action starts inherit both task locals, so an action they send to an absent
    // child is reported at this line too.
    let task = StoryRecorder.$current.withValue(story) {
      RuntimeWarning.$reporter.withValue(Self.warningReporter(at: location)) {
        isSending = true
        defer { isSending = false }
        return store.send(action)
      }
    }
    if monitor == nil, exhaustivity == .on, !steps[index].effects.isEmpty {
      unassertedEffects = (index, location)
    }
    return (index, task)
  }

  /// Turns a runtime warning (an action sent to an absent optional child or row, a bad
  /// list edit) into a test failure, with the warning's own advice when it has some.
  static func warningReporter(at location: FailureLocation) -> RuntimeWarning.Reporter {
    let report = FailureReporter.current
    return RuntimeWarning.Reporter { warning in
      report(
        "Runtime warning: \(warning.message)" + (warning.advice.map { "\n\n" + $0 } ?? ""),
        at: location)
    }
  }

  private func checkBeforeSend(_ action: R.Action, at location: FailureLocation) {
    reportUnassertedEffects()
    if receivedCursor < received.count {
      if exhaustivity == .on {
        let pending = received[receivedCursor...].map { Dump.render(steps[$0].action) }
        FailureReporter.current(
          FailureMessage.list(
            "Before send(\(Dump.render(action))), "
              + "\(FailureMessage.count(pending.count, "action")) sent by effects "
              + "\(pending.count == 1 ? "was" : "were") not received.",
            pending,
            fix: "Assert each with receive(_:assert:) first, or call skipReceivedActions()."),
          at: location)
      }
      receivedCursor = received.count
    }
    receivedSinceSend = receivedCursor
  }

  func reportUnassertedEffects() {
    guard let (index, location) = unassertedEffects else { return }
    unassertedEffects = nil
    let effects = steps[index].effects
    FailureReporter.current(
      FailureMessage.list(
        "\(verb(of: index))(\(Dump.render(steps[index].action))) returned "
          + "\(FailureMessage.count(effects.count, "effect")) that the test did not assert.",
        effects.map { Dump.render($0) },
        fix: "Assert them with the effects: argument, or call skipEffects() to ignore them."),
      at: location)
  }

  func verb(of index: Int) -> String {
    sentSteps.contains(index) ? "send" : "receive"
  }

  func checkState(
    of index: Int,
    verb: String,
    _ updateExpected: ((inout R.State) -> Void)?,
    at location: FailureLocation
  ) {
    let step = steps[index]
    var expected: R.State
    switch exhaustivity {
    case .on:
      expected = step.stateBefore
      if let updateExpected {
        updateExpected(&expected)
        if expected == step.stateBefore, step.stateAfter == step.stateBefore {
          FailureReporter.current(
            "\(verb)(\(Dump.render(step.action))) left the state unchanged, and so did the "
              + "trailing closure.\n\nOmit the trailing closure when an action changes nothing.",
            at: location)
          return
        }
      }
    case .off:
      expected = step.stateAfter
      updateExpected?(&expected)
    }
    guard expected != step.stateAfter else { return }
    let fix =
      switch (exhaustivity, updateExpected == nil) {
      case (.on, true):
        "Add a trailing closure that mutates the expected state to match, or fix the reducer."
      case (.on, false):
        "Mutate the expected state in the trailing closure to match, or fix the reducer."
      case (.off, _):
        "The trailing closure sets values the state does not have: correct them, or fix the "
          + "reducer."
      }
    FailureReporter.current(
      FailureMessage.diff(
        "State after \(verb)(\(Dump.render(step.action))) differs from the expected state.",
        expectedValue: expected, actualValue: step.stateAfter,
        fix: fix),
      at: location)
  }

  /// Waits until the effects the step started have entered their handler and run until they
  /// suspend, so a `TestClock` sees their sleeps before the test advances it. For an action an
  /// effect sent, the sender runs on too: a repeating timer is asleep again before the test
  /// advances the clock by the next interval.
  func settle(_ index: Int) async {
    guard monitor != nil, !steps[index].effects.isEmpty || !sentSteps.contains(index)
    else { return }
    _ = await waitUntil(timeout: timeout) {
      guard let monitor else { return true }
      return monitor.enteredCount >= effectsStarted && monitor.isIdle
    }
  }

  /// Waits until `condition` holds or the store has watched for `timeout`: woken by the
  /// effects, and at least every 50 ms to count the time (see `WatchedWait`: on a loaded
  /// machine, the time the store could not run is not counted).
  ///
  /// - Returns: Whether the condition holds.
  func waitUntil(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    var wait = WatchedWait(timeout: timeout, now: .now)
    return await waitUntil(&wait, condition)
  }

  /// Waits as ``waitUntil(timeout:_:)`` does, counting on from what `wait` has counted: a
  /// wait made of several (a non-exhaustive `receive` that skips actions) shares one timeout.
  ///
  /// - Returns: Whether the condition holds.
  func waitUntil(_ wait: inout WatchedWait, _ condition: () -> Bool) async -> Bool {
    guard let monitor else { return condition() }
    while !condition() {
      let now = ContinuousClock.now
      guard wait.woke(at: now) else { return false }
      let wake = wait.nextWake(after: now)
      let timer = Task {
        do { try await Task.sleep(until: wake, clock: .continuous) } catch { return }
        monitor.signal()
      }
      await monitor.wait()
      timer.cancel()
    }
    return true
  }
}

extension TestStore where R.Effect: Equatable {
  /// Sends `action`, checks the state it leads to, and checks the exact effects it returned.
  ///
  /// ```swift
  /// await store.send(.loginButtonTapped, effects: [.authenticate(credentials, attempt: 1)]) {
  ///   $0.isLoading = true
  ///   $0.attemptID = 1
  /// }
  /// ```
  ///
  /// A difference in the effects fails the test at this line; here the expected credentials
  /// have another password:
  ///
  /// <!-- sample: effects-mismatch -->
  /// ```text
  /// Effects returned by send(LoginAction.loginButtonTapped) differ from the expected effects.
  ///
  ///     [
  ///       [0]: LoginEffect.authenticate(
  ///         Credentials(
  ///           username: "demo",
  ///   −       password: Secret(Aaaaaa)
  ///   +       password: Secret(Aaaa0a)
  ///         ),
  ///         attempt: 1
  ///       )
  ///     ]
  ///
  /// (Expected: −, Actual: +)
  /// Expect the effects the reducer returned, in order, or fix the reducer.
  /// ```
  ///
  /// - Parameters:
  ///   - action: The action to send.
  ///   - expectedEffects: The effects the reducer must return, in order (`[]` for none).
  ///   - updateExpected: Turns the state before the action into the expected state after it.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  /// - Returns: The runtime's task for the action's effects: await or cancel it.
  @discardableResult
  public func send(
    _ action: R.Action,
    effects expectedEffects: [R.Effect],
    assert updateExpected: ((inout R.State) -> Void)? = nil,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async -> StoreTask {
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let (index, task) = perform(action, at: location)
    checkState(of: index, verb: "send", updateExpected, at: location)
    checkEffects(of: index, verb: "send", expectedEffects, at: location)
    await settle(index)
    return task
  }

  func checkEffects(
    of index: Int,
    verb: String,
    _ expectedEffects: [R.Effect],
    at location: FailureLocation
  ) {
    if unassertedEffects?.step == index { unassertedEffects = nil }
    let step = steps[index]
    guard step.effects != expectedEffects else { return }
    FailureReporter.current(
      FailureMessage.diff(
        "Effects returned by \(verb)(\(Dump.render(step.action))) differ from the expected "
          + "effects.",
        expectedValue: expectedEffects, actualValue: step.effects,
        fix: "Expect the effects the reducer returned, in order, or fix the reducer."),
      at: location)
  }
}
