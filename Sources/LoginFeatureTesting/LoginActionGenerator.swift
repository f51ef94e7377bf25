import LoginFeature
import StateStore

/// Random and hostile login actions, for property tests of a reducer or a whole store.
///
/// Every ``LoginFeature/LoginAction`` case of a running form comes up — the one-time-code
/// step's and the password-reset step's too, aimed at a step while it shows and, now and then,
/// while it does not — with payloads chosen to break things. The launch actions (`launched`,
/// `restored(_:at:)`) do not: a launch happens once, before everything else, and its hostile
/// records (unreadable stores, far deadlines, negative counts) have their own tests.
/// Payloads:
/// empty and whitespace-only text, very long text, emoji and combining marks, control and
/// bidirectional-override characters, and near-miss email addresses. Responses answer the
/// current attempt, an older one or one that never existed, with every outcome.
///
/// ```swift
/// var random = SeededGenerator(seed: seed)
/// var state = LoginState()
/// for _ in 0..<50 {
///   let action = LoginActionGenerator().next(for: state, using: &random)
///   _ = LoginReducer().reduce(into: &state, action: action)
/// }
/// ```
public struct LoginActionGenerator: Sendable {
  /// How often (out of 1,000 texts) a text is 10,000 characters long.
  public var longTextPerMille: Int

  /// Creates a generator.
  ///
  /// - Parameter longTextPerMille: How often (out of 1,000 texts) a text is 10,000 characters
  ///   long; long texts make validation slow, so keep them rare in large runs.
  public init(longTextPerMille: Int = 5) {
    self.longTextPerMille = longTextPerMille
  }

  /// A random action that makes sense to send in `state` — or, often, one that does not.
  ///
  /// - Parameters:
  ///   - state: The current state; responses are aimed near its attempt id.
  ///   - random: The source of randomness.
  /// - Returns: Any ``LoginFeature/LoginAction``.
  public func next(for state: LoginState, using random: inout some RandomNumberGenerator)
    -> LoginAction
  {
    // The one-time-code step gets half of the actions while it shows, and a few (hostile:
    // they reach an absent child) while it does not.
    let stepShare = state.twoFactor == nil ? 3 : 50
    if Int.random(in: 0..<100, using: &random) < stepShare {
      return .twoFactor(twoFactorAction(for: state.twoFactor, using: &random))
    }
    // The same for the password-reset step.
    let resetShare = state.passwordReset == nil ? 3 : 50
    if Int.random(in: 0..<100, using: &random) < resetShare {
      return .passwordReset(passwordResetAction(for: state.passwordReset, using: &random))
    }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<25: return .edit(.set(\.username, to: PersonalData(text(using: &random))))
    case 25..<50: return .edit(.set(\.password, to: Secret(text(using: &random))))
    case 50..<62: return .loginButtonTapped
    case 62..<65: return .forgotPasswordTapped
    case 65..<70: return .cancelButtonTapped
    case 70..<88:
      return .loginResponse(attempt: near(state.attemptID, using: &random), result(using: &random))
    case 88..<93:
      return .alertButtonTapped(["ok", "cancel", "", nil].randomElement(using: &random)!)
    case 93..<96: return .lockoutEnded
    case 96..<98:
      let operation: StorageFailure.Operation =
        [.saveSession, .clearSession, .updateLockout].randomElement(using: &random)!
      return .storageFailed(StorageFailure(operation, reason: text(using: &random)))
    default: return .logoutButtonTapped
    }
  }

  /// A random action of the one-time-code step, with request ids near `step`'s (stale ones
  /// too) and codes that are digits, spaced or dashed, too short, too long, or not digits.
  ///
  /// - Parameters:
  ///   - step: The step's state, if it shows.
  ///   - random: The source of randomness.
  /// - Returns: The action.
  public func twoFactorAction(
    for step: TwoFactorState?, using random: inout some RandomNumberGenerator
  ) -> TwoFactorAction {
    let request = near(step?.requestID ?? 0, using: &random)
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<22:
      return .codeChanged(Secret(code(length: step?.challenge.codeLength, using: &random)))
    case 22..<42: return .verifyButtonTapped
    case 42..<67:
      return .verifyResponse(request: request, verifyResult(using: &random))
    case 67..<73: return .resendButtonTapped
    case 73..<79: return .resendResponse(request: request, resendResult(using: &random))
    case 79..<94: return .resendTimerTicked
    case 94..<96: return .cancelButtonTapped
    default: return .alertButtonTapped(["ok", nil].randomElement(using: &random)!)
    }
  }

  /// A random action of the password-reset step, with request ids near `step`'s (stale ones
  /// too), hostile email texts, and every answer and failure of the service.
  ///
  /// - Parameters:
  ///   - step: The step's state, if it shows.
  ///   - random: The source of randomness.
  /// - Returns: The action.
  public func passwordResetAction(
    for step: PasswordResetState?, using random: inout some RandomNumberGenerator
  ) -> PasswordResetAction {
    let request = near(step?.requestID ?? 0, using: &random)
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30: return .edit(.set(\.email, to: PersonalData(text(using: &random))))
    case 30..<50: return .sendButtonTapped
    case 50..<75: return .sendResponse(request: request, resetResult(using: &random))
    case 75..<90: return .resendTimerTicked
    case 90..<95: return .backButtonTapped
    default: return .alertButtonTapped(["ok", nil].randomElement(using: &random)!)
    }
  }

  /// An id an answer carries: `id` itself half the time, else the one before or after it (a
  /// stale answer, or one for a request never sent).
  private func near(_ id: Int, using random: inout some RandomNumberGenerator) -> Int {
    [id, id, id - 1, id + 1].randomElement(using: &random) ?? id
  }

  private func resetResult(using random: inout some RandomNumberGenerator)
    -> PasswordResetResult
  {
    switch Int.random(in: 0..<6, using: &random) {
    case 0, 1: return .success(.accepted)
    case 2:
      return .success(.rateLimited(retryAfterSeconds: Int.random(in: -5...90, using: &random)))
    case 3: return .failure(.wrongStatusCode(Int.random(in: 100..<600, using: &random)))
    case 4: return .failure(.transport(text(using: &random)))
    default:
      return .failure([.timeout, .cancelled, .nilData].randomElement(using: &random)!)
    }
  }

  /// A random one-time code as a person might type or paste it: often exactly `length` digits,
  /// else too short, too long, or not digits at all. Digits are 1 to 9, so a code never looks
  /// like a mask (masks show digits as `0`): a test can search output for it.
  ///
  /// - Parameters:
  ///   - length: The length the step asks for, if known.
  ///   - random: The source of randomness.
  /// - Returns: The text.
  public func code(length: Int?, using random: inout some RandomNumberGenerator) -> String {
    let exact = Bool.random(using: &random) ? length.map { min(max($0, 0), 12) } : nil
    let count = exact ?? Int.random(in: 0...8, using: &random)
    let digits = String(
      (0..<count).map { _ in
        Character(String(Int.random(in: 1...9, using: &random)))
      })
    switch Int.random(in: 0..<6, using: &random) {
    case 0: return digits.isEmpty ? "" : String(digits.prefix(3)) + " " + digits.dropFirst(3)
    case 1: return digits.isEmpty ? "" : String(digits.prefix(3)) + "-" + digits.dropFirst(3)
    case 2: return text(using: &random)
    default: return digits
    }
  }

  private func verifyResult(using random: inout some RandomNumberGenerator) -> VerifyCodeResult {
    switch Int.random(in: 0..<8, using: &random) {
    case 0: return .success(session(using: &random))
    case 1..<5: return .failure(.incorrectCode)
    case 5: return .failure(.codeExpired)
    case 6: return .failure(.cancelled)
    default: return .failure(.timeout)
    }
  }

  private func resendResult(using random: inout some RandomNumberGenerator) -> ResendCodeResult {
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return .success(challenge(using: &random))
    case 1:
      return .failure(.resendTooSoon(retryAfterSeconds: Int.random(in: -5...90, using: &random)))
    case 2: return .failure(.cancelled)
    default: return .failure(.transport(text(using: &random)))
    }
  }

  private func challenge(using random: inout some RandomNumberGenerator) -> Challenge {
    Challenge(
      id: "c-\(Int.random(in: 1...3, using: &random))", destination: "•••• 42",
      codeLength: [6, 6, 6, 4, 0].randomElement(using: &random)!)
  }

  private func session(using random: inout some RandomNumberGenerator) -> Session {
    let name = text(using: &random)
    return Session(
      user: User(id: "id-\(name.count)", username: PersonalData(name)),
      token: Secret("tok-\(name.count)"))
  }

  /// A random outcome of a login request.
  ///
  /// - Parameter random: The source of randomness.
  /// - Returns: Success with a random user, a challenge, or any ``LoginFeature/LoginServiceError``.
  public func result(using random: inout some RandomNumberGenerator) -> LoginResult {
    switch Int.random(in: 0..<12, using: &random) {
    case 10, 11: return .challenge(challenge(using: &random))
    case 0..<3:
      let name = text(using: &random)
      return .success(
        Session(
          user: User(id: "id-\(name.count)", username: PersonalData(name)),
          token: Secret("tok-\(name.count)")))
    case 3..<6: return .failure(.invalidCredentials)
    case 6: return .failure(.wrongStatusCode(Int.random(in: 100..<600, using: &random)))
    case 7:
      return .failure([.nilData, .decodingFailed, .timeout].randomElement(using: &random)!)
    case 8: return .failure(.transport(text(using: &random)))
    default: return .failure(.cancelled)
    }
  }

  /// A random, often hostile, text.
  ///
  /// - Parameter random: The source of randomness.
  /// - Returns: Text of one of the kinds listed in the type's summary.
  public func text(using random: inout some RandomNumberGenerator) -> String {
    if Int.random(in: 0..<1000, using: &random) < longTextPerMille {
      let unit = Self.pieces.randomElement(using: &random)!
      return String(repeating: unit.isEmpty ? "x" : unit, count: 10_000).prefixCharacters(10_000)
    }
    let count = Int.random(in: 0...4, using: &random)
    return (0..<count).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
  }

  private static let pieces = [
    "", " ", "\t", "\n", "demo", "Secr3t", "a", "A", "7", "ab", "Abc1", "ada@example.com",
    "@", ".", "a@b", "@example.com", "x@y.z", "1@2.3", "Ünïcødé", "😀", "👩‍👩‍👧‍👦", "e\u{301}",
    "\u{0}", "\u{7}", "\u{1B}[31m", "\u{202E}", "\u{200B}", "   demo   ", "DEMO", "секрет9Я",
    "٣", "Ω", String(repeating: "m", count: 11),
  ]
}

extension String {
  fileprivate func prefixCharacters(_ count: Int) -> String {
    String(prefix(count))
  }
}
