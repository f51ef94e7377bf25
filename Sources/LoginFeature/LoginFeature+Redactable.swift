import StateStore

// Usernames are personal but not secret: they show in clear unless a log is recorded with
// `maskUsernames`, which calls these. Each username is replaced by its `usernameMask` wherever it
// appears — the form, the credentials, the signed-in user and the routes and sessions that
// carry them — so reducing a redacted action gives the redacted state and a redacted log replays
// and verifies like any other. The user's `id` is kept: it names no one outside the service and
// ties a report to the server's logs.

extension LoginState: Redactable {
  /// A copy whose username and signed-in user are masked when `level` holds
  /// ``StateStore/RedactionLevel/usernames``.
  ///
  /// ```swift
  /// LoginState(username: "ada@example.com").redacted(.usernames).username  // "aaa@aaaaaaa.aaa"
  /// ```
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy; the password is a secret and is masked anyway.
  public func redacted(_ level: RedactionLevel) -> LoginState {
    guard level.contains(.usernames) else { return self }
    var copy = self
    copy.username = username.usernameMask
    copy.user = user?.maskingUsernames()
    if case .verified(let session) = twoFactor?.outcome {
      copy.twoFactor?.outcome = .verified(session.maskingUsernames())
    }
    copy.passwordReset = passwordReset?.maskingEmails()
    return copy
  }
}

extension LoginAction: Redactable {
  /// A copy whose typed username, or the user in a login response, is masked when `level`
  /// holds ``StateStore/RedactionLevel/usernames``.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> LoginAction {
    guard level.contains(.usernames) else { return self }
    switch self {
    case .usernameChanged(let username):
      return .usernameChanged(username.usernameMask)
    case .loginResponse(let attempt, .success(let session)):
      return .loginResponse(attempt: attempt, .success(session.maskingUsernames()))
    case .twoFactor(.verifyResponse(let request, .success(let session))):
      return .twoFactor(.verifyResponse(request: request, .success(session.maskingUsernames())))
    case .restored(var record, let now):
      record.session = record.session?.maskingUsernames()
      return .restored(record, at: now)
    case .passwordReset(.emailChanged(let email)):
      return .passwordReset(.emailChanged(email.usernameMask))
    case .passwordChanged, .loginButtonTapped, .cancelButtonTapped, .loginResponse,
      .alertButtonTapped, .lockoutEnded, .logoutButtonTapped, .twoFactor, .launched,
      .storageFailed, .forgotPasswordTapped, .passwordReset:
      return self
    }
  }
}

extension LoginEffect: Redactable {
  /// A copy whose credentials, session or route has its usernames masked when `level` holds
  /// ``StateStore/RedactionLevel/usernames``.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> LoginEffect {
    guard level.contains(.usernames) else { return self }
    switch self {
    case .authenticate(let credentials, let attempt):
      var masked = credentials
      masked.username = credentials.username.usernameMask
      return .authenticate(masked, attempt: attempt)
    case .saveSession(let session):
      return .saveSession(session.maskingUsernames())
    case .route(let command):
      return .route(command.maskingUsernames())
    case .passwordReset(.requestReset(let email, let request)):
      return .passwordReset(.requestReset(email: email.usernameMask, request: request))
    case .cancelAuthentication, .showAlert, .startLockoutTimer, .clearSession, .twoFactor,
      .childDismissed, .restoreLaunch, .updateLockout, .passwordReset:
      // The one-time-code step's effects carry the code (a secret) and the challenge, whose
      // destination the service has already masked.
      return self
    }
  }
}

extension User: Redactable {
  /// A copy whose username, display name and email are masked when `level` holds
  /// ``StateStore/RedactionLevel/usernames``; the `id` is kept.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> User {
    level.contains(.usernames) ? maskingUsernames() : self
  }

  func maskingUsernames() -> User {
    var copy = self
    copy.username = username.usernameMask
    copy.displayName = displayName.usernameMask
    copy.email = email?.usernameMask
    return copy
  }
}

extension PasswordResetState {
  // The step's two addresses: the one typed and the one a link was sent for. Its actions and
  // effects carry an address in `emailChanged` and `requestReset` only.
  func maskingEmails() -> PasswordResetState {
    var copy = self
    copy.email = email.usernameMask
    copy.linkSentTo = linkSentTo?.usernameMask
    return copy
  }
}

extension Session {
  func maskingUsernames() -> Session {
    Session(user: user.maskingUsernames(), token: token, expiresAt: expiresAt)
  }
}

extension RouteCommand {
  func maskingUsernames() -> RouteCommand {
    switch self {
    case .push(let route): .push(route.maskingUsernames())
    case .present(let route): .present(route.maskingUsernames())
    case .restore(let route): .restore(route.maskingUsernames())
    case .dismiss, .pop, .popToRoot: self
    }
  }
}

extension Route {
  func maskingUsernames() -> Route {
    switch self {
    case .login: .login
    case .home(let user): .home(user.maskingUsernames())
    }
  }
}
