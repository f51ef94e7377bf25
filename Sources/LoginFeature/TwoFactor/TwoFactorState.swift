import StateStore

/// Everything the one-time-code step is rendered from.
///
/// The step is an optional child of the login flow (``LoginState/twoFactor``): it exists from
/// the moment the service answers a password with a ``Challenge`` until the code is verified,
/// the user cancels, or too many wrong codes end it.
public struct TwoFactorState: Sendable, Equatable, Codable, PresentedState {
  /// How many wrong codes end the challenge.
  public static let maxIncorrectCodes = 3
  /// How long after a code is sent a new one can be asked for, in seconds.
  public static let resendDelaySeconds = 30

  /// The challenge being answered.
  public var challenge: Challenge
  /// The code as typed, kept as ASCII digits only, at most ``Challenge/codeLength`` of them.
  public var code: Secret
  /// Whether a verification is in flight.
  public var isVerifying: Bool
  /// Whether a request for a new code is in flight.
  public var isResending: Bool
  /// Wrong codes so far in this challenge (resending does not reset it).
  public var incorrectCodes: Int
  /// Seconds until a new code can be asked for; 0 when Resend is available.
  public var resendCountdown: Int
  /// Whether the service said the code expired: verifying waits for a new code.
  public var isExpired: Bool
  /// The id of the latest request (verify or resend); answers for any other are stale.
  public var requestID: Int
  /// How the step ended, for the login flow to act on; `nil` while it runs.
  public var outcome: TwoFactorOutcome?
  // Stored only while true, so that the logs of states without it keep their digests.
  private var resent: Bool?

  /// Whether a new code was sent on request and nothing has been typed since: the step says so
  /// ("A new code was sent.").
  public var wasCodeResent: Bool {
    get { resent ?? false }
    set { resent = newValue ? true : nil }
  }

  /// Creates the step's state.
  ///
  /// - Parameters:
  ///   - challenge: The challenge being answered.
  ///   - code: The code as typed.
  ///   - isVerifying: Whether a verification is in flight.
  ///   - isResending: Whether a resend is in flight.
  ///   - incorrectCodes: Wrong codes so far.
  ///   - resendCountdown: Seconds until Resend is available.
  ///   - isExpired: Whether the code expired.
  ///   - requestID: The id of the latest request.
  ///   - outcome: How the step ended.
  public init(
    challenge: Challenge,
    code: Secret = "",
    isVerifying: Bool = false,
    isResending: Bool = false,
    incorrectCodes: Int = 0,
    resendCountdown: Int = 0,
    isExpired: Bool = false,
    requestID: Int = 0,
    outcome: TwoFactorOutcome? = nil
  ) {
    self.challenge = challenge
    self.code = code
    self.isVerifying = isVerifying
    self.isResending = isResending
    self.incorrectCodes = incorrectCodes
    self.resendCountdown = resendCountdown
    self.isExpired = isExpired
    self.requestID = requestID
    self.outcome = outcome
  }

  /// The step's title: "Enter the 6-digit code sent to g•••@example.com".
  public var title: String {
    "Enter the \(challenge.codeLength)-digit code sent to \(challenge.destination)"
  }

  /// How long the code stays valid, as the step says it under the field: "The code is valid
  /// for 5 minutes." (from ``Challenge/expiresInSeconds`` of the latest code); `nil` once the
  /// service said the code expired.
  public var validityMessage: String? {
    guard !isExpired, challenge.expiresInSeconds > 0 else { return nil }
    return "The code is valid for \(Duration.seconds(challenge.expiresInSeconds).inWords)."
  }

  /// Whether Verify can be tapped: the whole code is typed, nothing is in flight, and the
  /// code has not expired.
  public var isVerifyButtonEnabled: Bool {
    code.reveal().count == challenge.codeLength && !isVerifying && !isResending && !isExpired
      && outcome == nil
  }

  /// Whether Resend can be tapped: the countdown is over and nothing is in flight.
  public var isResendButtonEnabled: Bool {
    resendCountdown == 0 && !isVerifying && !isResending && outcome == nil
  }
}

/// How the one-time-code step ended.
public enum TwoFactorOutcome: Sendable, Equatable, Codable {
  /// The code was right: the session to sign in with.
  case verified(Session)
  /// ``TwoFactorState/maxIncorrectCodes`` wrong codes: the sign-in starts over, and it
  /// counts as one failed attempt.
  case tooManyIncorrectCodes
  /// The user cancelled.
  case cancelled
}

extension TwoFactorState: CustomReflectable {
  /// The fields as a host reads and writes them: `wasCodeResent: false`, not its stored form
  /// (`resent: nil`, kept only while true); see ``LoginState``'s.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "challenge": challenge, "code": code, "isVerifying": isVerifying,
        "isResending": isResending, "incorrectCodes": incorrectCodes,
        "resendCountdown": resendCountdown, "isExpired": isExpired, "requestID": requestID,
        "outcome": outcome as Any, "wasCodeResent": wasCodeResent,
      ],
      displayStyle: .struct)
  }
}
