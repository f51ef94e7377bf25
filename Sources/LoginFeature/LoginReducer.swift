import StateStore

/// The login screen's behaviour: a pure function from the state and an action to the next
/// state and the effects to run.
///
/// It needs no configuration — the rules live in ``LoginState/rules`` — and it never awaits,
/// reads a clock or touches I/O, so a test asserts its effects as data and a replay reproduces
/// every state without running any.
///
/// - `usernameChanged`, `passwordChanged`: update the field; validation is derived.
/// - `loginButtonTapped`: nothing while loading, locked or signed in. With an invalid form, a
///   "Validation Errors" alert listing every broken rule, one per line. With a valid form,
///   `isLoading`, the next `attemptID` and `authenticate`.
/// - `loginResponse`: nothing for a stale attempt (an older one, or one cancelled). Success
///   stores the user, resets the failures, saves the session and pushes the home screen.
///   Invalid credentials count a failure and show the "Error" alert — or, at the limit, lock
///   the form, show "Maximum number of retries exceeded" and start the lockout timer. Other
///   failures show the "Error" alert; `cancelled` shows nothing.
/// - `cancelButtonTapped`: while loading, stops loading and cancels the request.
/// - `lockoutEnded`: while locked, unlocks and resets the failures.
/// - `logoutButtonTapped`: while signed in, clears the session, pops to the root and empties
///   the form except the username.
/// - `alertButtonTapped`: acknowledged; nothing changes.
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
  /// The title of the alert shown when a request fails.
  public static let errorAlertTitle = "Error"
  /// The title of the alert shown when failed attempts lock the form.
  public static let lockoutAlertTitle = "Maximum number of retries exceeded"

  /// The feature name login action logs are recorded under, and that the `replay` tool knows.
  ///
  /// ```swift
  /// let recorder = try store.record(to: url, feature: LoginReducer.actionLogFeature)
  /// ```
  public static let actionLogFeature = "login"

  /// Creates the reducer.
  public init() {}

  /// Applies `action` to `state`; see the table above.
  ///
  /// - Parameters:
  ///   - state: The login screen's state, mutated in place.
  ///   - action: What happened.
  /// - Returns: The effects to start, in order.
  public func reduce(into state: inout LoginState, action: LoginAction) -> [LoginEffect] {
    switch action {
    case .usernameChanged(let username):
      state.username = username
      return []

    case .passwordChanged(let password):
      state.password = password
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
      return []

    case .logoutButtonTapped:
      guard state.user != nil else { return [] }
      state = LoginState(rules: state.rules, username: state.username, attemptID: state.attemptID)
      return [.clearSession, .route(.popToRoot)]
    }
  }

  private func loginButtonTapped(_ state: inout LoginState) -> [LoginEffect] {
    guard !state.isLoading, !state.isLocked, state.user == nil else { return [] }
    let messages = state.validationMessages
    guard messages.isEmpty else {
      let alert = Alert(
        title: Self.validationAlertTitle,
        message: messages.joined(separator: "\n")
      )
      return [.showAlert(alert)]
    }
    // Only a state read from a hostile action log gets here: no next attempt id, no request.
    guard state.attemptID < .max else { return [] }
    state.isLoading = true
    state.attemptID += 1
    let credentials = Credentials(
      username: state.username.trimmingSurroundingWhitespace(),
      password: state.password
    )
    return [.authenticate(credentials, attempt: state.attemptID)]
  }

  private func loginResponse(_ result: LoginResult, state: inout LoginState) -> [LoginEffect] {
    switch result {
    case .success(let session):
      state.user = session.user
      state.failedAttempts = 0
      return [.saveSession(session), .route(.push(.home(session.user)))]

    case .failure(.cancelled):
      return []

    case .failure(.invalidCredentials):
      state.failedAttempts = min(state.failedAttempts, .max - 1) + 1  // no trap on a read state
      guard state.failedAttempts >= state.rules.maxAttempts else {
        return [.showAlert(Self.errorAlert(.invalidCredentials))]
      }
      state.isLocked = true
      let duration = state.rules.lockoutDuration
      let alert = Alert(
        title: Self.lockoutAlertTitle,
        message: "The form is locked for \(duration.inWords). Please try again later."
      )
      return [.showAlert(alert), .startLockoutTimer(duration)]

    case .failure(let error):
      return [.showAlert(Self.errorAlert(error))]
    }
  }

  private static func errorAlert(_ error: LoginServiceError) -> Alert {
    Alert(title: errorAlertTitle, message: error.message)
  }
}
