import StateStore

/// The one-time-code step's behaviour: a pure function, like every reducer here.
///
/// - ``start(with:)``: the state of a freshly shown step and the countdown that starts with it.
/// - `codeChanged`: keeps the digits only, as ASCII digits ("123 456" and "123-456" become
///   "123456"), at most ``Challenge/codeLength`` of them.
/// - `verifyButtonTapped`: when ``TwoFactorState/isVerifyButtonEnabled``, verifies the code.
/// - `verifyResponse`: stale answers (another request, or none in flight) change nothing. A
///   right code ends the step with ``TwoFactorOutcome/verified(_:)``. A wrong one shows
///   "Incorrect code" with the attempts left, and the third ends the step with
///   ``TwoFactorOutcome/tooManyIncorrectCodes``: the sign-in is over, so the login flow shows
///   "Couldn't sign in" ("Too many incorrect codes. Please sign in again.", see
///   ``LoginReducer/tooManyIncorrectCodesMessage``) and counts one failed attempt. An expired
///   code shows "The code has expired" and waits for Resend. Other failures of a verification
///   (the service unreachable, a bad answer) show their message under "Couldn't verify the
///   code".
/// - `resendButtonTapped`: when ``TwoFactorState/isResendButtonEnabled``, asks for a new code.
/// - `resendResponse`: a new challenge replaces the old one, clears the code, restarts the
///   countdown and notes that a new code was sent (``TwoFactorState/wasCodeResent``, until the
///   next keystroke). "Too soon" is shown (under "Couldn't send a new code", as other failures
///   are), and the countdown set to what the service said — never
///   retried.
/// - `resendTimerTicked`: one second off the countdown.
/// - `cancelButtonTapped`: ends the step with ``TwoFactorOutcome/cancelled``.
///
/// The login flow acts on ``TwoFactorState/outcome``: see ``LoginReducer``.
public struct TwoFactorReducer: Reducer, Sendable {
  /// The title of the alert after a wrong code.
  public static let incorrectCodeAlertTitle = "Incorrect code"
  /// The title of the alert after an expired code.
  public static let expiredAlertTitle = "The code has expired"
  /// The title of the alert after a verification that failed for another reason.
  public static let verifyFailedAlertTitle = "Couldn't verify the code"
  /// The title of the alert after a request for a new code that failed.
  public static let resendFailedAlertTitle = "Couldn't send a new code"

  /// Creates the reducer.
  public init() {}

  /// The state of a step just shown for `challenge`, and the countdown effect that starts it.
  ///
  /// - Parameter challenge: What the service answered the password with.
  /// - Returns: The state, and the effects to start.
  public static func start(with challenge: Challenge) -> (TwoFactorState, [TwoFactorEffect]) {
    let seconds = TwoFactorState.resendDelaySeconds
    return (
      TwoFactorState(challenge: challenge, resendCountdown: seconds),
      [.startResendTimer(seconds: seconds)]
    )
  }

  /// Applies `action` to `state`; see the list above.
  ///
  /// - Parameters:
  ///   - state: The step's state.
  ///   - action: What happened.
  /// - Returns: The effects to start.
  public func reduce(into state: inout TwoFactorState, action: TwoFactorAction) -> [TwoFactorEffect]
  {
    guard state.outcome == nil else { return [] }
    switch action {
    case .codeChanged(let raw):
      state.code = Secret(Self.digits(of: raw.reveal(), upTo: state.challenge.codeLength))
      state.wasCodeResent = false
      return []

    case .verifyButtonTapped:
      guard state.isVerifyButtonEnabled, state.requestID < .max else { return [] }
      state.isVerifying = true
      state.requestID += 1
      return [.verifyCode(state.code, challenge: state.challenge, request: state.requestID)]

    case .verifyResponse(let request, let result):
      guard state.isVerifying, request == state.requestID else { return [] }
      state.isVerifying = false
      return verifyResponse(result, state: &state)

    case .resendButtonTapped:
      guard state.isResendButtonEnabled, state.requestID < .max else { return [] }
      state.isResending = true
      state.requestID += 1
      return [.resendCode(challenge: state.challenge, request: state.requestID)]

    case .resendResponse(let request, let result):
      guard state.isResending, request == state.requestID else { return [] }
      state.isResending = false
      return resendResponse(result, state: &state)

    case .resendTimerTicked:
      guard state.resendCountdown > 0 else { return [] }
      state.resendCountdown -= 1
      return []

    case .cancelButtonTapped:
      state.outcome = .cancelled
      return []

    case .alertButtonTapped:
      return []
    }
  }

  /// The decimal digits of `text` as ASCII digits, at most `limit` of them.
  ///
  /// A digit of another script (`٣`, `３`) counts, as the ASCII digit of the same value: a
  /// code typed on such a keyboard works, and — because a secret's mask shows every decimal
  /// digit as `0` — a replay of the masked action keeps exactly the characters the original
  /// kept. Spaces, dashes and anything else are dropped.
  static func digits(of text: String, upTo limit: Int) -> String {
    var digits = ""
    for character in text where digits.count < limit {
      guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
        scalar.properties.numericType == .decimal,
        let value = scalar.properties.numericValue, (0...9).contains(value)
      else { continue }
      digits.append(Character(String(Int(value))))
    }
    return digits
  }

  private func verifyResponse(
    _ result: VerifyCodeResult, state: inout TwoFactorState
  ) -> [TwoFactorEffect] {
    switch result {
    case .success(let session):
      state.outcome = .verified(session)
      return []
    case .failure(.incorrectCode):
      state.incorrectCodes = min(state.incorrectCodes, .max - 1) + 1
      state.code = ""
      let left = TwoFactorState.maxIncorrectCodes - state.incorrectCodes
      guard left > 0 else {
        state.outcome = .tooManyIncorrectCodes
        return []
      }
      let message = left == 1 ? "1 attempt left." : "\(left) attempts left."
      return [.showAlert(Alert(title: Self.incorrectCodeAlertTitle, message: message))]
    case .failure(.codeExpired):
      state.isExpired = true
      state.code = ""
      let message =
        state.resendCountdown == 0
        ? "Tap Resend to get a new code."
        : "You can ask for a new code in \(Duration.seconds(state.resendCountdown).inWords)."
      return [.showAlert(Alert(title: Self.expiredAlertTitle, message: message))]
    case .failure(.cancelled):
      return []
    case .failure(let error):
      return [.showAlert(Alert(title: Self.verifyFailedAlertTitle, message: error.message))]
    }
  }

  private func resendResponse(
    _ result: ResendCodeResult, state: inout TwoFactorState
  ) -> [TwoFactorEffect] {
    switch result {
    case .success(let challenge):
      state.challenge = challenge
      state.code = ""
      state.isExpired = false
      state.wasCodeResent = true
      state.resendCountdown = TwoFactorState.resendDelaySeconds
      return [.startResendTimer(seconds: TwoFactorState.resendDelaySeconds)]
    case .failure(.resendTooSoon(let seconds)):
      let wait = max(1, min(seconds, 3600))
      state.resendCountdown = wait
      return [
        .showAlert(
          Alert(
            title: Self.resendFailedAlertTitle,
            message: LoginServiceError.resendTooSoon(retryAfterSeconds: wait).message)),
        .startResendTimer(seconds: wait),
      ]
    case .failure(.cancelled):
      return []
    case .failure(let error):
      return [.showAlert(Alert(title: Self.resendFailedAlertTitle, message: error.message))]
    }
  }
}
