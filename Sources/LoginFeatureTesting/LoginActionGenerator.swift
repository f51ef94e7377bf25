import LoginFeature
import StateStore

/// Random and hostile login actions, for property tests of a reducer or a whole store.
///
/// Every ``LoginFeature/LoginAction`` case comes up, with payloads chosen to break things:
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
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<25: return .usernameChanged(text(using: &random))
    case 25..<50: return .passwordChanged(Secret(text(using: &random)))
    case 50..<65: return .loginButtonTapped
    case 65..<70: return .cancelButtonTapped
    case 70..<88:
      let attempt =
        [state.attemptID, state.attemptID, state.attemptID - 1, state.attemptID + 1]
        .randomElement(using: &random) ?? state.attemptID
      return .loginResponse(attempt: attempt, result(using: &random))
    case 88..<93:
      return .alertButtonTapped(["ok", "cancel", "", nil].randomElement(using: &random)!)
    case 93..<97: return .lockoutEnded
    default: return .logoutButtonTapped
    }
  }

  /// A random outcome of a login request.
  ///
  /// - Parameter random: The source of randomness.
  /// - Returns: Success with a random user, or any ``LoginFeature/LoginServiceError``.
  public func result(using random: inout some RandomNumberGenerator) -> LoginResult {
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<3:
      let name = text(using: &random)
      return .success(
        Session(
          user: User(id: "id-\(name.count)", username: name), token: Secret("tok-\(name.count)")))
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
