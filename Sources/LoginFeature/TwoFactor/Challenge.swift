import StateStore

/// A second-factor challenge: the service accepted the password and sent a one-time code.
///
/// ```swift
/// Challenge(id: "c-1", destination: "g•••@example.com", codeLength: 6, expiresInSeconds: 300)
/// ```
public struct Challenge: Sendable, Hashable, Codable {
  /// The service's id of this challenge, sent back with the code.
  public var id: String
  /// Where the code was sent, already masked by the service (e.g. `"•••• 42"`).
  public var destination: String
  /// How many digits the code has.
  public var codeLength: Int
  /// How long the code is valid after it was sent, in seconds. The service decides whether a
  /// code has expired; this is for the screen.
  public var expiresInSeconds: Int

  /// Creates a challenge.
  ///
  /// - Parameters:
  ///   - id: The service's id of the challenge.
  ///   - destination: Where the code was sent, masked.
  ///   - codeLength: How many digits the code has; 6 by default.
  ///   - expiresInSeconds: How long the code is valid, in seconds; 300 by default.
  public init(id: String, destination: String, codeLength: Int = 6, expiresInSeconds: Int = 300) {
    self.id = id
    self.destination = destination
    self.codeLength = codeLength
    self.expiresInSeconds = expiresInSeconds
  }
}

/// What the login service answers a correct password with: a session, or a second-factor
/// challenge to complete first.
public enum LoginAnswer: Sendable, Equatable {
  /// Signed in.
  case session(Session)
  /// The password was right; a code was sent and must be verified.
  case challenge(Challenge)

  /// The session, when the answer is one; `nil` for a challenge.
  public var session: Session? {
    if case .session(let session) = self { session } else { nil }
  }
}

/// The answer to a verification of a one-time code.
public enum VerifyCodeResult: Sendable, Equatable, Codable {
  /// The code was right: signed in.
  case success(Session)
  /// It failed: ``LoginServiceError/incorrectCode``, ``LoginServiceError/codeExpired`` or any
  /// other service error.
  case failure(LoginServiceError)
}

/// The answer to a request for a new one-time code.
public enum ResendCodeResult: Sendable, Equatable, Codable {
  /// A new code was sent; the challenge carries its new expiry.
  case success(Challenge)
  /// It failed: ``LoginServiceError/resendTooSoon(retryAfterSeconds:)`` or any other service
  /// error.
  case failure(LoginServiceError)
}
