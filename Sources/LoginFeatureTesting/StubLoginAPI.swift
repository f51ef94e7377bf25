import LoginFeature
import StateStore
import StateStoreTesting

/// A ``LoginFeature/LoginAPI`` that answers from a script and records every request.
///
/// Each call takes the next scripted result, in order. A call beyond the script fails the test
/// (reported where the stub was created) and answers `.transport("StubLoginAPI: no scripted
/// result for call <n>")`, so a scenario that calls the API more often than it meant to cannot
/// pass by accident. ``requests`` keeps the credentials of every call; they dump with the
/// password masked, as everything else in a story or a failure message does.
///
/// To look at the screen while a request is in flight (the spinner), hold a call: the held
/// call waits until the test releases it with a result. Held calls can be released in any
/// order (``release(with:where:fileID:filePath:line:column:)``), so a test can make a later
/// request's answer arrive first.
///
/// ```swift
/// let api = StubLoginAPI(results: [.failure(.invalidCredentials)])
/// api.holdNextCall()
/// await store.send(.loginButtonTapped) { … $0.isLoading = true }
/// await api.waitForHeldCall()
/// api.release(with: .success(session))
/// await store.receive(.loginResponse(attempt: 1, .success(session))) { … }
/// ```
///
/// Every call adds a line to the running test store's story (``StateStoreTesting/StoryRecorder``):
///
/// <!-- sample: lines of Tests/LoginFeatureTests/__Snapshots__/LoginStoryTests/twoFailuresOneSuccessAndALogout.txt -->
/// ```text
/// performed: api.login(username: "demo", password: Secret(Aa0aa)) → invalidCredentials
/// ```
public final class StubLoginAPI: LoginAPI, Sendable {
  private struct State {
    var script: [LoginResult]
    var requests: [Credentials] = []
    var verifyScript: [VerifyCodeResult] = []
    var codes: [Secret] = []
    var resendScript: [ResendCodeResult] = []
    var resendCount = 0
    var resetScript: [PasswordResetResult] = []
    var resetEmails: [String] = []
    var resetHolds: [Bool] = []
    /// Pending ``holdNextCall(honoringCancellation:)`` requests, oldest first.
    var holds: [Bool] = []
  }

  private enum Answer {
    case scripted(LoginResult)
    case hold(honorsCancellation: Bool)
    case overrun(call: Int)
  }

  private let state: Guarded<State>
  private let held = HeldCalls<Credentials, LoginResult>()
  /// The ``requestPasswordReset(email:)`` calls held right now (see
  /// ``holdNextPasswordReset(honoringCancellation:)``): wait for one with `waitForCall`, answer
  /// it with `release`.
  public let heldPasswordResets = HeldCalls<String, PasswordResetResult>()
  private let createdAt: FailureLocation

  /// Creates a stub that answers its calls with `results`, in order.
  ///
  /// - Parameters:
  ///   - results: One result per expected call; more can be added with ``enqueue(_:)``.
  ///   - fileID: Where a call beyond the script is reported; the caller's by default.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public init(
    results: [LoginResult] = [],
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.state = Guarded(State(script: results))
    self.createdAt = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The credentials of every call so far, in order, held calls included.
  public var requests: [Credentials] { state.withLock { $0.requests } }

  /// How many times ``login(_:)`` has been called.
  public var callCount: Int { state.withLock { $0.requests.count } }

  /// The scripted results no call has taken yet.
  public var unusedResults: [LoginResult] { state.withLock { $0.script } }

  /// How many calls are held right now, waiting for
  /// ``release(with:where:fileID:filePath:line:column:)``.
  public var heldCallCount: Int { held.count }

  /// The credentials of the calls held right now, oldest first.
  public var heldRequests: [Credentials] { held.requests }

  /// Adds `results` to the end of the script.
  ///
  /// - Parameter results: Results for the calls after the ones already scripted.
  public func enqueue(_ results: LoginResult...) {
    state.withLock { $0.script += results }
  }

  /// Makes the next call wait, instead of taking a scripted result, until the test releases it.
  ///
  /// Call it several times to hold several calls. A held call does not take a scripted result:
  /// its answer is the one given to ``release(with:where:fileID:filePath:line:column:)``, and
  /// held calls may be answered in any order.
  ///
  /// - Parameter honoringCancellation: When `true` (the default), cancelling the calling task
  ///   ends the held call at once with ``LoginFeature/LoginServiceError/cancelled``, as a real
  ///   client does. When `false` the call waits for its release even after cancellation — the
  ///   way to simulate a response that arrives after the user cancelled.
  public func holdNextCall(honoringCancellation: Bool = true) {
    state.withLock { $0.holds.append(honoringCancellation) }
  }

  /// Waits until a call is held, and returns its credentials: the oldest held call's, or the
  /// first call's that meets `condition`.
  ///
  /// Returns at once when such a call is already held. A ``StateStoreTesting/TestStore`` with a
  /// handler returns from `send` only once its effects have suspended, so after the `send` that
  /// calls the API this rarely waits; it matters when the API is called from other tasks, and
  /// when several calls are in flight:
  ///
  /// ```swift
  /// await api.waitForHeldCall(where: { $0.username == "ada" })
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: How long to wait before failing the test; a minute by default (it
  ///     only bounds how long a failing test waits: a passing one returns as soon as the call
  ///     is held, and on a machine busy with other tests a task took more than ten seconds to
  ///     make its call).
  ///   - condition: Which call to wait for; any call by default.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  /// - Returns: The held call's credentials, or `nil` when the wait timed out (and the test
  ///   failed).
  @discardableResult
  public func waitForHeldCall(
    timeout: Duration = .seconds(60),
    where condition: @escaping @Sendable (Credentials) -> Bool = { _ in true },
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) async -> Credentials? {
    let credentials = await held.waitForCall(timeout: timeout, where: condition)
    if credentials == nil {
      let heldNow = held.requests
      let headline =
        heldNow.isEmpty
        ? "no call is held.\n\nCalls so far: \(callCount). Call holdNextCall() before the action "
          + "that calls the API, or pass a longer timeout."
        : "no held call meets the condition.\n\nHeld: \(Self.list(heldNow)). Wait for one of "
          + "them, or pass a longer timeout."
      FailureReporter.current(
        "StubLoginAPI.waitForHeldCall() timed out after \(timeout): \(headline)",
        at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    return credentials
  }

  /// Ends a held call with `result`: the oldest, or the oldest that meets `condition`.
  ///
  /// Answering out of order is how a test makes a later request's answer arrive first:
  ///
  /// ```swift
  /// api.release(with: .success(adaSession), where: { $0.username == "ada" })
  /// api.release(with: .failure(.invalidCredentials))
  /// ```
  ///
  /// Releasing when no held call meets `condition` fails the test, naming the held calls:
  ///
  /// <!-- sample: api-release-unmatched -->
  /// ```text
  /// StubLoginAPI.release(with: nilData) found no held call that meets the condition.
  ///
  /// Held: api.login(username: "demo", password: Secret(Aaaa0a)). Release one of them.
  /// ```
  ///
  /// - Parameters:
  ///   - result: What the held call answers.
  ///   - condition: Which held call to answer; the oldest by default.
  ///   - fileID: The caller's file ID.
  ///   - filePath: The caller's file path.
  ///   - line: The caller's line.
  ///   - column: The caller's column.
  public func release(
    with result: LoginResult,
    where condition: (Credentials) -> Bool = { _ in true },
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    guard held.release(result, where: condition) == nil else { return }
    let heldNow = held.requests
    FailureReporter.current(
      heldNow.isEmpty
        ? "StubLoginAPI.release(with: \(StoryLine.result(result))) found no held call.\n\n"
          + "Call holdNextCall() before the action that calls the API, and await "
          + "waitForHeldCall() before releasing. A held call that honors cancellation has "
          + "already ended if its task was cancelled."
        : "StubLoginAPI.release(with: \(StoryLine.result(result))) found no held call that "
          + "meets the condition.\n\nHeld: \(Self.list(heldNow)). Release one of them.",
      at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private static func list(_ requests: [Credentials]) -> String {
    requests.map(StoryLine.login).joined(separator: ", ")
  }

  /// Adds answers for ``verifyCode(_:for:)``, in order.
  ///
  /// - Parameter results: One result per expected verification.
  public func enqueueVerifications(_ results: VerifyCodeResult...) {
    state.withLock { $0.verifyScript += results }
  }

  /// Adds answers for ``resendCode(for:)``, in order.
  ///
  /// - Parameter results: One result per expected resend.
  public func enqueueResends(_ results: ResendCodeResult...) {
    state.withLock { $0.resendScript += results }
  }

  /// The codes of every ``verifyCode(_:for:)`` call so far; they dump as masks.
  public var verifiedCodes: [Secret] { state.withLock { $0.codes } }

  /// How many times ``resendCode(for:)`` has been called.
  public var resendCount: Int { state.withLock { $0.resendCount } }

  /// Answers with the next scripted verification; a call beyond the script fails the test.
  ///
  /// - Parameters:
  ///   - code: The code typed.
  ///   - challenge: The challenge it answers.
  /// - Returns: The scripted session.
  /// - Throws: The scripted ``LoginFeature/LoginServiceError``.
  public func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
    -> Session
  {
    let (scripted, call) = state.withLock { state -> (VerifyCodeResult?, Int) in
      state.codes.append(code)
      return (
        state.verifyScript.isEmpty ? nil : state.verifyScript.removeFirst(), state.codes.count
      )
    }
    let result = scripted ?? overrun("verifyCode", call: call) { .failure(.transport($0)) }
    StoryRecorder.current?.performed(StoryLine.verify(code, challenge, result))
    switch result {
    case .success(let session): return session
    case .failure(let error): throw error
    }
  }

  /// Answers with the next scripted resend; a call beyond the script fails the test.
  ///
  /// - Parameter challenge: The challenge to send a new code for.
  /// - Returns: The scripted challenge.
  /// - Throws: The scripted ``LoginFeature/LoginServiceError``.
  public func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge {
    let (scripted, call) = state.withLock { state -> (ResendCodeResult?, Int) in
      state.resendCount += 1
      return (
        state.resendScript.isEmpty ? nil : state.resendScript.removeFirst(), state.resendCount
      )
    }
    let result = scripted ?? overrun("resendCode", call: call) { .failure(.transport($0)) }
    StoryRecorder.current?.performed(StoryLine.resend(challenge, result))
    switch result {
    case .success(let challenge): return challenge
    case .failure(let error): throw error
    }
  }

  /// Adds answers for ``requestPasswordReset(email:)``, in order.
  ///
  /// - Parameter results: One result per expected request.
  public func enqueuePasswordResets(_ results: PasswordResetResult...) {
    state.withLock { $0.resetScript += results }
  }

  /// Makes the next ``requestPasswordReset(email:)`` wait in ``heldPasswordResets`` until the
  /// test releases it, instead of taking a scripted result.
  ///
  /// - Parameter honoringCancellation: When `true` (the default), cancelling the calling task
  ///   ends the held call at once with ``LoginFeature/LoginServiceError/cancelled``. When
  ///   `false` it waits for its release even after cancellation: an answer that arrives late.
  public func holdNextPasswordReset(honoringCancellation: Bool = true) {
    state.withLock { $0.resetHolds.append(honoringCancellation) }
  }

  /// The address of every ``requestPasswordReset(email:)`` call so far, held calls included.
  public var passwordResetEmails: [String] { state.withLock { $0.resetEmails } }

  /// Answers with the next scripted reset answer, or waits while held; a call beyond the
  /// script fails the test.
  ///
  /// - Parameter email: The address.
  /// - Returns: The scripted or released answer.
  /// - Throws: The scripted or released ``LoginFeature/LoginServiceError``;
  ///   ``LoginFeature/LoginServiceError/cancelled`` when a held call's task is cancelled.
  public func requestPasswordReset(email: String) async throws(LoginServiceError)
    -> PasswordResetAnswer
  {
    let (scripted, hold, call) = state.withLock { state -> (PasswordResetResult?, Bool?, Int) in
      state.resetEmails.append(email)
      if !state.resetHolds.isEmpty { return (nil, state.resetHolds.removeFirst(), 0) }
      return (
        state.resetScript.isEmpty ? nil : state.resetScript.removeFirst(), nil,
        state.resetEmails.count
      )
    }
    let result: PasswordResetResult
    if let hold {
      result =
        await heldPasswordResets.hold(email, honoringCancellation: hold) ?? .failure(.cancelled)
    } else {
      result =
        scripted ?? overrun("requestPasswordReset", call: call) { .failure(.transport($0)) }
    }
    StoryRecorder.current?.performed(StoryLine.passwordReset(email, result))
    switch result {
    case .success(let answer): return answer
    case .failure(let error): throw error
    }
  }

  private func overrun<Result>(
    _ name: String, call: Int, answer: (String) -> Result
  ) -> Result {
    FailureReporter.current(
      "StubLoginAPI got \(name) call \(call), but only \(call - 1) "
        + "\(call == 2 ? "result was" : "results were") scripted.\n\n"
        + "Script them with enqueueVerifications(_:), enqueueResends(_:) or "
        + "enqueuePasswordResets(_:).",
      at: createdAt)
    return answer("StubLoginAPI: no scripted result for \(name) call \(call)")
  }

  /// Answers with the next scripted result, or waits while held; records the credentials.
  ///
  /// - Parameter credentials: The username and password.
  /// - Returns: The scripted or released session, or a scripted challenge.
  /// - Throws: The scripted or released ``LoginFeature/LoginServiceError``;
  ///   ``LoginFeature/LoginServiceError/cancelled`` when a held call's task is cancelled.
  public func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    let answer = state.withLock { state -> Answer in
      state.requests.append(credentials)
      if !state.holds.isEmpty { return .hold(honorsCancellation: state.holds.removeFirst()) }
      if !state.script.isEmpty { return .scripted(state.script.removeFirst()) }
      return .overrun(call: state.requests.count)
    }
    let result: LoginResult
    switch answer {
    case .scripted(let scripted):
      result = scripted
    case .hold(let honorsCancellation):
      result =
        await held.hold(credentials, honoringCancellation: honorsCancellation)
        ?? .failure(.cancelled)
    case .overrun(let call):
      FailureReporter.current(
        "StubLoginAPI got call \(call), \(StoryLine.login(credentials)), but only "
          + "\(call - 1) \(call == 2 ? "result was" : "results were") scripted.\n\n"
          + "Script one result per expected call in StubLoginAPI(results:) or enqueue(_:), or "
          + "check why the feature called the API again.",
        at: createdAt)
      result = .failure(.transport("StubLoginAPI: no scripted result for call \(call)"))
    }
    StoryRecorder.current?.performed(
      "\(StoryLine.login(credentials)) → \(StoryLine.result(result))")
    switch result {
    case .success(let session): return .session(session)
    case .challenge(let challenge): return .challenge(challenge)
    case .failure(let error): throw error
    }
  }
}
