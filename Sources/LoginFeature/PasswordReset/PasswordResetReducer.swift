import StateStore

/// The password-reset step's behaviour: a pure function, like every reducer here.
///
/// - `edit`: updates the address (the one field, `email`) and notes it was edited (its hint
///   shows from then on); ignored while a request is in flight (the field is read-only then, so
///   the confirmation names the address that was sent). Another address than the one the
///   service last answered for starts a new request: the confirmation goes, and so does the
///   wait before "Send again", whether a link started it or the service asked for it
///   (``PasswordResetEffect/cancelResendTimer``); the button says "Send link" again.
/// - `sendButtonTapped`: unless a request is in flight, notes the tap, so the field's hint shows
///   from then on (``PasswordResetState/wasSubmitTried``), as Login does on the form. When
///   ``PasswordResetState/isSendButtonEnabled``, sends the address, trimmed; on an address that
///   is not one, nothing is sent and the hint says why.
/// - `sendResponse`: stale answers (another request, or none in flight) change nothing.
///   ``PasswordResetAnswer/accepted`` shows ``PasswordResetState/confirmation`` and starts the
///   ``PasswordResetState/resendDelaySeconds`` wait before "Send again".
///   ``PasswordResetAnswer/rateLimited(retryAfterSeconds:)`` starts a wait of what the service
///   said (1 second to an hour) — never retried. A failure shows the "Couldn't send the link"
///   alert with the error's message in words; ``LoginServiceError/cancelled`` shows nothing.
/// - `resendTimerTicked`: one second off the wait.
/// - `backButtonTapped`: ends the step with ``PasswordResetOutcome/closed``; the login flow
///   removes it, which ends its request and its countdown.
public struct PasswordResetReducer: Reducer, Sendable {
  /// The title of the alert after a failed request: what failed, in words.
  public static let failureAlertTitle = "Couldn't send the link"

  /// Creates the reducer.
  public init() {}

  /// The state of a step just shown from a form with `username` typed: an email address is
  /// carried over, anything else is not.
  ///
  /// - Parameter username: The login form's username field.
  /// - Returns: The step's state.
  public static func start(username: PersonalData) -> PasswordResetState {
    let typed = username.value.trimmingSurroundingWhitespace()
    return PasswordResetState(
      email: CredentialRules.validateEmail(typed) == nil ? PersonalData(typed) : "")
  }

  /// Applies `action` to `state`; see the list above.
  ///
  /// - Parameters:
  ///   - state: The step's state.
  ///   - action: What happened.
  /// - Returns: The effects to start.
  public func reduce(
    into state: inout PasswordResetState, action: PasswordResetAction
  ) -> [PasswordResetEffect] {
    guard state.outcome == nil else { return [] }
    switch action {
    case .edit(let edit):
      let before = state.email.value.trimmingSurroundingWhitespace()
      guard !state.isSending, !edit.changesNothing(in: state), edit.apply(to: &state) else {
        return []
      }
      state.isEmailEdited = true
      return addressChanged(from: before, &state)

    case .sendButtonTapped:
      // Every tap but one during a request shows the hint from then on (as Login does): a tap
      // on an address that is not one is not sent, but the step says why.
      if !state.isSending { state.wasSubmitTried = true }
      guard state.isSendButtonEnabled, state.requestID < .max else { return [] }
      state.isSending = true
      state.requestID += 1
      let email = PersonalData(state.email.value.trimmingSurroundingWhitespace())
      return [.requestReset(email: email, request: state.requestID)]

    case .sendResponse(let request, let result):
      guard state.isSending, request == state.requestID else { return [] }
      state.isSending = false
      return sendResponse(result, state: &state)

    case .resendTimerTicked:
      guard state.resendCountdown > 0 else { return [] }
      state.resendCountdown -= 1
      return []

    case .backButtonTapped:
      state.outcome = .closed
      return []

    case .alertButtonTapped:
      return []
    }
  }

  /// A link, and a wait, belong to the address the service answered for: for another address
  /// the confirmation goes, and so does the wait before "Send again", whether the link started
  /// it or the service asked for it (rate limited), and the button says "Send link" again. An
  /// edit that leaves the address the same once trimmed changes none of them.
  private func addressChanged(
    from before: String, _ state: inout PasswordResetState
  ) -> [PasswordResetEffect] {
    guard state.email.value.trimmingSurroundingWhitespace() != before,
      state.linkSentTo != nil || state.isRateLimited
    else { return [] }
    state.linkSentTo = nil
    state.isRateLimited = false
    guard state.resendCountdown > 0 else { return [] }
    state.resendCountdown = 0
    return [.cancelResendTimer]
  }

  private func sendResponse(
    _ result: PasswordResetResult, state: inout PasswordResetState
  ) -> [PasswordResetEffect] {
    switch result {
    case .success(.accepted):
      state.linkSentTo = PersonalData(state.email.value.trimmingSurroundingWhitespace())
      state.isRateLimited = false
      state.resendCountdown = PasswordResetState.resendDelaySeconds
      return [.startResendTimer(seconds: PasswordResetState.resendDelaySeconds)]
    case .success(.rateLimited(let seconds)):
      let wait = max(1, min(seconds, PasswordResetState.maxRetryAfterSeconds))
      state.isRateLimited = true
      state.resendCountdown = wait
      return [.startResendTimer(seconds: wait)]
    case .failure(.cancelled):
      return []
    case .failure(let error):
      return [.showAlert(Alert(title: Self.failureAlertTitle, message: error.message))]
    }
  }
}
