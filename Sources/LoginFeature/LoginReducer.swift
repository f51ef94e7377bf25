import Foundation
import StateStore

/// The login screen's behaviour: a pure function from the state and an action to the next
/// state and the effects to run.
///
/// It needs no configuration — the rules live in ``LoginState/rules`` — and it never awaits,
/// reads a clock or touches I/O, so a test asserts its effects as data and a replay reproduces
/// every state without running any.
///
/// - `edit`: sets the field (``LoginState/fields``: username, password) and notes that it was
///   edited, so its hints show (``LoginState/visibleValidationMessages``); validation is derived.
/// - `loginButtonTapped`: nothing while loading, locked or signed in. Otherwise every field's
///   hints show from then on (``LoginState/wasSubmitTried``). With an invalid form, a
///   "Validation Errors" alert listing every broken rule, one per line. With a valid form,
///   `isLoading`, the next `attemptID` and `authenticate`.
/// - `loginResponse`: nothing for a stale attempt (an older one, or one cancelled). Success
///   stores the user, resets the failures, saves the session and pushes the home screen.
///   Invalid credentials count a failure and show the "Couldn't sign in" alert — or, at the
///   limit, lock the form, show the "Sign-in locked" alert ("Maximum number of retries
///   exceeded. The form is locked for 30 seconds. …") and start the lockout timer. Other
///   failures show the "Couldn't sign in" alert with the error's message in words (no status
///   code: that stays in the action); `cancelled` shows nothing.
/// - `cancelButtonTapped`: while loading, stops loading and cancels the request.
/// - `lockoutEnded`: while locked, unlocks and resets the failures.
/// - `logoutButtonTapped`: while signed in, clears the session, pops to the root and empties
///   the form, which keeps one thing: the username of the account that signed out (as the
///   service names it), the same after a sign-in in this launch as after a session restored at
///   launch. No hint shows until the person edits a field or taps Login.
/// - `alertButtonTapped`: acknowledged; nothing changes.
/// - `restored`: a valid session goes home, an expired one shows the form with its username and
///   a notice; a store that could not be read is named in the notice and left as it is.
/// - `storageFailed`: nothing in memory changes — the user stays signed in or out, a lockout
///   holds — and the person is told what it means for the next launch: a "Not Saved on This
///   Device" alert and the same words in ``LoginState/notice`` for the session, the notice
///   alone for the failed attempts.
/// - A `loginResponse` with a ``LoginResult/challenge(_:)`` shows the one-time-code step
///   (``TwoFactorReducer``), an optional child in ``LoginState/twoFactor``. Its actions
///   (`twoFactor(…)`) run the child; when the step ends, this reducer acts on its
///   ``TwoFactorState/outcome``: a verified code signs in exactly as a password does; too many
///   wrong codes clear the password, count one failed attempt (which may lock the form) and
///   show "Too many incorrect codes. Please sign in again."; cancel clears the password. Either
///   way the form starts over: no hint shows until the person types or taps Login again. When
///   the step goes away, ``LoginEffect/childDismissed(_:)`` cancels whatever it had in flight.
/// - `forgotPasswordTapped` (on the form, signed out, nothing in flight) shows the password-reset
///   step (``PasswordResetReducer``) in ``LoginState/passwordReset``; Back removes it.
///
/// ```swift
/// var state = LoginState(username: "demo", password: "Secr3t")
/// let effects = LoginReducer().reduce(into: &state, action: .loginButtonTapped)
/// // state.isLoading == true
/// // effects == [.authenticate(Credentials(username: "demo", password: "Secr3t"), attempt: 1)]
/// ```
public struct LoginReducer: Reducer, Sendable {
  /// The title of the alert listing the broken rules of a login tapped with an invalid form.
  public static let validationAlertTitle = "Validation Errors"
  /// The title of the alert shown when a sign-in fails: what failed, in words.
  public static let signInFailedAlertTitle = "Couldn't sign in"
  /// The title of the alert shown when failed attempts lock the form: what happened.
  public static let lockoutAlertTitle = "Sign-in locked"
  /// The first sentence of the lockout alert's message, the wording the requirements ask for.
  public static let retriesExceededMessage = "Maximum number of retries exceeded."

  /// The feature name login action logs are recorded under, and that the `replay` tool knows.
  ///
  /// ```swift
  /// let recorder = try store.record(to: url, feature: LoginReducer.actionLogFeature)
  /// ```
  public static let actionLogFeature = "login"

  /// The notice above the form when the session restored at launch had expired.
  public static let sessionExpiredNotice = "Your session has expired. Please sign in again."

  /// The message of the "Couldn't sign in" alert for wrong credentials under the email rules, whose form
  /// asks for an email address, not a username.
  public static let incorrectEmailMessage = "Incorrect email or password"

  /// The title of the alert shown when the session could not be saved or forgotten.
  public static let storageAlertTitle = "Not Saved on This Device"

  /// What a person reads when the session they signed in with could not be kept: they are
  /// signed in, but not after a relaunch.
  ///
  /// - Parameter reason: Why, from ``StorageFailure/reason``.
  /// - Returns: The sentence.
  public static func sessionNotSavedMessage(_ reason: String) -> String {
    "You are signed in, but this device could not keep your session (\(reason)). "
      + "You will have to sign in again after the app restarts."
  }

  /// What a person reads when a logout could not remove the saved session: they are signed
  /// out here, but the next launch may sign them back in.
  ///
  /// - Parameter reason: Why, from ``StorageFailure/reason``.
  /// - Returns: The sentence.
  public static func sessionNotClearedMessage(_ reason: String) -> String {
    "You are signed out, but this device could not forget your saved session (\(reason)). "
      + "The next launch may sign you in again."
  }

  /// The notice above the form when the failed attempts could not be kept: the lockout holds
  /// while the app runs, but not across a relaunch.
  ///
  /// - Parameter reason: Why, from ``StorageFailure/reason``.
  /// - Returns: The sentence.
  public static func lockoutNotSavedNotice(_ reason: String) -> String {
    "This device could not keep the failed sign-in attempts (\(reason)). "
      + "They count until the app quits."
  }

  /// The notice above the form when the saved session could not be read at launch. The file
  /// is left as it is: it may not be the app's to delete.
  ///
  /// - Parameter problem: Why, from ``LaunchRecord/sessionProblem``.
  /// - Returns: The sentence.
  public static func unreadableSessionNotice(_ problem: String) -> String {
    "The saved session could not be read (\(problem)) and was left as it is. Please sign in."
  }

  /// The notice above the form when the saved failed attempts could not be read at launch.
  ///
  /// - Parameter problem: Why, from ``LaunchRecord/lockoutProblem``.
  /// - Returns: The sentence.
  public static func unreadableLockoutNotice(_ problem: String) -> String {
    "The saved failed sign-in attempts could not be read (\(problem)) and were left as they are."
  }

  /// The message of the alert shown when too many wrong one-time codes end a sign-in.
  public static let tooManyIncorrectCodesMessage =
    "Too many incorrect codes. Please sign in again."

  /// The one-time-code step: an optional child in ``LoginState/twoFactor``, whose actions and
  /// effects travel in ``LoginAction/twoFactor(_:)`` and ``LoginEffect/twoFactor(_:)``.
  public static let twoFactor = ChildFeature(
    "twoFactor", state: \LoginState.twoFactor,
    action: CaseKey(embed: LoginAction.twoFactor) {
      if case .twoFactor(let action) = $0 { action } else { nil }
    },
    effect: CaseKey(embed: LoginEffect.twoFactor) {
      if case .twoFactor(let effect) = $0 { effect } else { nil }
    })

  /// The password-reset step: an optional child in ``LoginState/passwordReset``.
  public static let passwordReset = ChildFeature(
    "passwordReset", state: \LoginState.passwordReset,
    action: CaseKey(embed: LoginAction.passwordReset) {
      if case .passwordReset(let action) = $0 { action } else { nil }
    },
    effect: CaseKey(embed: LoginEffect.passwordReset) {
      if case .passwordReset(let effect) = $0 { effect } else { nil }
    })

  private let body = LoginCore().ifLet(
    LoginReducer.twoFactor, onEnd: { LoginCore().twoFactorEnded(&$0, $1) },
    child: { TwoFactorReducer() }
  ).ifLet(LoginReducer.passwordReset, onEnd: { _, _ in [] }, child: { PasswordResetReducer() })

  /// Creates the reducer.
  public init() {}

  /// Applies `action` to `state`; see the table above.
  ///
  /// - Parameters:
  ///   - state: The login screen's state, mutated in place.
  ///   - action: What happened.
  /// - Returns: The effects to start, in order.
  public func reduce(into state: inout LoginState, action: LoginAction) -> [LoginEffect] {
    body.reduce(into: &state, action: action)
  }
}

/// The login flow's own logic; ``LoginReducer`` runs it after the one-time-code step.
struct LoginCore: Reducer, Sendable {
  func reduce(into state: inout LoginState, action: LoginAction) -> [LoginEffect] {
    switch action {
    case .edit(let edit):
      // An edit to what the field holds changes nothing, not even whether it was edited.
      guard !edit.changesNothing(in: state) else { return [] }
      if edit.apply(to: &state) { state.noteEdited(edit.field) }
      return []

    case .loginButtonTapped:
      return loginButtonTapped(&state)

    case .cancelButtonTapped:
      guard state.isLoading else { return [] }
      state.isLoading = false
      return [.cancelAuthentication]

    case .loginResponse(let attempt, let result):
      guard state.isLoading, attempt == state.attemptID else { return [] }
      state.isLoading = false
      return loginResponse(result, state: &state)

    case .alertButtonTapped:
      return []

    case .lockoutEnded:
      guard state.isLocked else { return [] }
      state.isLocked = false
      state.failedAttempts = 0
      state.lockedFor = nil
      return [.updateLockout(.reset)]

    case .twoFactor, .passwordReset:
      // The step ran first, as the child; when it ended, `twoFactorEnded` acted on it.
      return []

    case .forgotPasswordTapped:
      guard state.isFormActive else { return [] }
      state.passwordReset = PasswordResetReducer.start(username: state.username)
      return []

    case .launched:
      guard !state.isRestoring, case .none = state.user else { return [] }
      state.isRestoring = true
      state.notice = nil
      return [.restoreLaunch]

    case .restored(let record, let now):
      guard state.isRestoring else { return [] }
      state.isRestoring = false
      return restore(record, at: now, state: &state)

    case .storageFailed(let failure):
      return storageFailed(failure, state: &state)

    case .logoutButtonTapped:
      guard let user = state.user else { return [] }
      // One rule, however the person got home (a sign-in now, or a session restored at launch):
      // the form comes back with the username of the account that signed out.
      state = LoginState(rules: state.rules, username: user.username, attemptID: state.attemptID)
      return [.clearSession, .route(.popToRoot)]
    }
  }

  private func loginButtonTapped(_ state: inout LoginState) -> [LoginEffect] {
    guard state.isFormActive, !state.isLocked else { return [] }
    state.notice = nil
    state.wasSubmitTried = true
    let messages = state.validationMessages
    guard messages.isEmpty else {
      let alert = Alert(
        title: LoginReducer.validationAlertTitle,
        message: messages.joined(separator: "\n")
      )
      return [.showAlert(alert)]
    }
    // Only a state read from a hostile action log gets here: no next attempt id, no request.
    guard state.attemptID < .max else { return [] }
    state.isLoading = true
    state.attemptID += 1
    let credentials = Credentials(
      username: PersonalData(state.username.value.trimmingSurroundingWhitespace()),
      password: state.password
    )
    return [.authenticate(credentials, attempt: state.attemptID)]
  }

  private func loginResponse(_ result: LoginResult, state: inout LoginState) -> [LoginEffect] {
    switch result {
    case .success(let session):
      return signIn(session, state: &state)

    case .challenge(let challenge):
      let (step, effects) = TwoFactorReducer.start(with: challenge)
      state.twoFactor = step
      return effects.map(LoginEffect.twoFactor)

    case .failure(.cancelled):
      return []

    case .failure(.invalidCredentials):
      return countFailedAttempt(
        state: &state, otherwise: Self.errorAlert(.invalidCredentials, rules: state.rules))

    case .failure(let error):
      return [.showAlert(Self.errorAlert(error))]
    }
  }

  private func signIn(_ session: Session, state: inout LoginState) -> [LoginEffect] {
    state.user = session.user
    let hadFailures = state.failedAttempts > 0
    state.failedAttempts = 0
    let effects: [LoginEffect] = [.saveSession(session), .route(.push(.home(session.user)))]
    return hadFailures ? effects + [.updateLockout(.reset)] : effects
  }

  /// What a launch found: a valid session goes home at once, an expired one fills the
  /// username with a notice, unreadable data is named in the notice and left as it is (it may
  /// not be ours to delete), and a lockout holds for what remains of it — never longer than one
  /// lockout, however far the device's clock was set back.
  private func restore(_ record: LaunchRecord, at now: Date, state: inout LoginState)
    -> [LoginEffect]
  {
    var effects: [LoginEffect] = []
    let problems = [
      record.sessionProblem.map { LoginReducer.unreadableSessionNotice($0) },
      record.lockoutProblem.map { LoginReducer.unreadableLockoutNotice($0) },
    ].compactMap { $0 }
    if !problems.isEmpty { state.notice = problems.joined(separator: " ") }
    if let session = record.session {
      if let expiry = session.expiresAt, expiry <= now {
        state.username = session.user.username
        state.notice = LoginReducer.sessionExpiredNotice
        effects.append(.clearSession)
      } else {
        state.user = session.user
        if record.lockout != nil { effects.append(.updateLockout(.reset)) }
        return effects + [.route(.restore(.home(session.user)))]
      }
    }
    guard let lockout = record.lockout, record.lockoutProblem == nil else { return effects }
    let maxAttempts = state.rules.maxAttempts
    guard let until = lockout.lockedUntil else {
      state.failedAttempts = min(max(0, lockout.failedAttempts), max(0, maxAttempts - 1))
      return effects
    }
    guard let remaining = Self.remaining(until, now: now, atMost: state.rules.lockoutDuration)
    else {
      // The lockout ended while the app was not running.
      return effects + [.updateLockout(.reset)]
    }
    state.isLocked = true
    state.failedAttempts = maxAttempts
    state.lockedFor = remaining
    return effects + [.startLockoutTimer(remaining)]
  }

  /// The time from `now` to `deadline`, rounded up to a millisecond and at most `limit`; `nil`
  /// when the deadline has passed.
  private static func remaining(_ deadline: Date, now: Date, atMost limit: Duration) -> Duration? {
    let seconds = deadline.timeIntervalSince(now)
    guard seconds.isFinite, seconds > 0 else { return nil }
    guard seconds < limit.timeInterval else { return limit }
    return .milliseconds(Int64((seconds * 1_000).rounded(.up)))
  }

  /// One more failed attempt: at the limit the form locks (with its alert and timer);
  /// below it, `alert` is shown.
  private func countFailedAttempt(state: inout LoginState, otherwise alert: Alert)
    -> [LoginEffect]
  {
    state.failedAttempts = min(state.failedAttempts, .max - 1) + 1  // no trap on a read state
    let duration = state.rules.lockoutDuration
    let counted = LoginEffect.updateLockout(
      .failedAttempt(
        counted: state.failedAttempts, lockingAt: state.rules.maxAttempts, lockFor: duration))
    guard state.failedAttempts >= state.rules.maxAttempts else {
      return [.showAlert(alert), counted]
    }
    state.isLocked = true
    state.lockedFor = duration
    let lockout = Alert(
      title: LoginReducer.lockoutAlertTitle,
      message: LoginReducer.retriesExceededMessage
        + " The form is locked for \(duration.inWords). Please try again later."
    )
    return [.showAlert(lockout), .startLockoutTimer(duration), counted]
  }

  /// A save or clear that did not happen. The person is told what it means for the next
  /// launch; what is in memory stays as it is, so a lockout never gets weaker than the one on
  /// screen.
  private func storageFailed(_ failure: StorageFailure, state: inout LoginState) -> [LoginEffect] {
    let message: String
    switch failure.operation {
    case .saveSession:
      // The sign-in it was for has ended (a logout came first): nothing is kept, nothing to say.
      guard case .some = state.user else { return [] }
      message = LoginReducer.sessionNotSavedMessage(failure.reason)
    case .clearSession:
      message = LoginReducer.sessionNotClearedMessage(failure.reason)
    case .updateLockout:
      // The form shows it; an alert on every failed attempt would only get in the way.
      state.notice = LoginReducer.lockoutNotSavedNotice(failure.reason)
      return []
    }
    state.notice = message
    return [.showAlert(Alert(title: LoginReducer.storageAlertTitle, message: message))]
  }

  /// Acts on how the one-time-code step ended; the step is already removed.
  func twoFactorEnded(_ state: inout LoginState, _ outcome: TwoFactorOutcome) -> [LoginEffect] {
    switch outcome {
    case .verified(let session):
      return signIn(session, state: &state)
    case .tooManyIncorrectCodes:
      state.clearPassword()
      return countFailedAttempt(
        state: &state,
        otherwise: Alert(
          title: LoginReducer.signInFailedAlertTitle,
          message: LoginReducer.tooManyIncorrectCodesMessage))
    case .cancelled:
      state.clearPassword()
      return []
    }
  }

  /// The "Couldn't sign in" alert for `error`; under the email rules, wrong credentials speak of
  /// the email address the form asked for.
  private static func errorAlert(_ error: LoginServiceError, rules: CredentialRules? = nil)
    -> Alert
  {
    if case .invalidCredentials = error, rules?.kind == .email {
      return Alert(
        title: LoginReducer.signInFailedAlertTitle, message: LoginReducer.incorrectEmailMessage)
    }
    return Alert(title: LoginReducer.signInFailedAlertTitle, message: error.message)
  }
}
