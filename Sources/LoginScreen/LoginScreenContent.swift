import AppFeature
import LoginFeature

/// What the login screen shows, as ``ScreenElement``s: the one place that decides it.
///
/// `login-demo` draws these elements on the terminal and the HTML timeline (`replay --html`)
/// draws them as its mock screen, so the two cannot drift. Both pass what the state does not
/// hold and only the host knows: the whole seconds left of a lockout (counted on the app's
/// clock, or on the recorded step times) and whether the last tap on Login met a locked form.
package enum LoginScreenContent {
  /// The login flow: the code step, the password-reset step, or the form.
  ///
  /// - Parameters:
  ///   - state: The login feature's state.
  ///   - lockoutSecondsLeft: The whole seconds left of the lockout; `nil` reads the lockout's
  ///     whole length from the state.
  ///   - tappedWhileLocked: Whether the last tap on Login met a locked form.
  /// - Returns: The elements, top to bottom.
  package static func login(
    _ state: LoginState, lockoutSecondsLeft: Int? = nil, tappedWhileLocked: Bool = false
  ) -> [ScreenElement] {
    if let step = state.twoFactor { return codeStep(step) }
    if let step = state.passwordReset { return passwordReset(step) }
    return form(state, lockoutSecondsLeft: lockoutSecondsLeft, tappedWhileLocked: tappedWhileLocked)
  }

  private static func form(
    _ state: LoginState, lockoutSecondsLeft: Int?, tappedWhileLocked: Bool
  ) -> [ScreenElement] {
    if state.isRestoring { return [.spinner("Restoring your session…")] }
    var elements: [ScreenElement] = []
    if let notice = state.notice { elements += [.paragraph(notice, tone: .warning), .space] }
    elements += [
      .field(
        .username, label: state.rules.kind == .email ? "Email" : "Username",
        value: state.username.value),
      .secureField(.password, label: "Password", length: state.password.mask.count),
      .space,
    ]
    // A field's hints show once it was edited or Login was tapped (`visibleValidationMessages`).
    let messages = state.visibleValidationMessages
    if !messages.isEmpty {
      elements += messages.map { .text("✗ " + $0, tone: .error) }
    } else if state.isFormValid, !state.isLocked {
      elements.append(.text("✓ Ready to sign in", tone: .success))
    }
    if state.isLocked {
      let limit = state.rules.maxAttempts
      let seconds =
        lockoutSecondsLeft ?? LockoutCountdown.wholeSeconds(state.lockedFor ?? .zero)
      elements.append(
        .text("Locked after \(limit) failed attempts. Try again in \(seconds) s", tone: .warning))
    } else if state.failedAttempts > 0 {
      elements.append(
        .text(
          "Failed attempts: \(state.failedAttempts) of \(state.rules.maxAttempts)",
          tone: .warning))
    }
    // One blank line above the buttons, also when the form has nothing to say yet.
    if elements.last != .space { elements.append(.space) }
    elements.append(.button(.loginButton, title: "Login", isEnabled: state.isLoginButtonEnabled))
    // The flow opens the step only when no sign-in is in flight.
    elements.append(.button(.forgotButton, title: "Forgot password?", isEnabled: !state.isLoading))
    if state.isLocked, tappedWhileLocked {
      elements.append(
        .text(
          "The form is locked after too many failed attempts; wait for the countdown.",
          tone: .warning))
    }
    if state.isLoading {
      elements += [
        .space, .spinner("Signing in…"), .button(.cancelButton, title: "Cancel", isEnabled: true),
      ]
    }
    return elements
  }

  /// The one-time-code step: its title, the code, how long it stays valid, what went wrong,
  /// Verify, Resend (with its countdown) and Cancel.
  private static func codeStep(_ step: TwoFactorState) -> [ScreenElement] {
    var elements: [ScreenElement] = [
      .heading(step.title), .space,
      .codeField(.code, label: "Code", code: step.code, length: step.challenge.codeLength),
    ]
    if let validity = step.validityMessage { elements.append(.caption(validity)) }
    elements.append(.space)
    if step.wasCodeResent {
      elements.append(.text("✓ A new code was sent", tone: .success))
    } else if step.isExpired {
      elements.append(.text("✗ The code has expired: ask for a new one", tone: .error))
    } else if step.incorrectCodes > 0 {
      let left = TwoFactorState.maxIncorrectCodes - step.incorrectCodes
      elements.append(
        .text(
          "Incorrect codes: \(step.incorrectCodes) "
            + "(\(left) \(left == 1 ? "attempt" : "attempts") left)", tone: .warning))
    }
    elements += [
      .button(.verifyButton, title: "Verify", isEnabled: step.isVerifyButtonEnabled),
      .button(
        .resendButton, title: "Resend", isEnabled: step.isResendButtonEnabled,
        detail: step.resendCountdown > 0 ? "in \(step.resendCountdown) s" : nil),
      .button(.cancelButton, title: "Cancel", isEnabled: true),
    ]
    if step.isVerifying || step.isResending {
      elements += [.space, .spinner(step.isVerifying ? "Verifying…" : "Sending a new code…")]
    }
    return elements
  }

  /// The password-reset step: the email as the state holds it (a log recorded with masking
  /// holds the mask), what is wrong with it, the confirmation, the wait before "Send again"
  /// (the store's countdown), "Send link" or "Send again", and Back.
  private static func passwordReset(_ step: PasswordResetState) -> [ScreenElement] {
    var elements: [ScreenElement] = [
      .heading("Reset your password"), .space,
      .field(.email, label: "Email", value: step.email.value), .space,
    ]
    let top = elements.count
    if let error = step.visibleValidationError {
      elements.append(.text("✗ " + error.message, tone: .error))
    }
    if let confirmation = step.confirmation {
      elements.append(.paragraph("✓ " + confirmation, tone: .success))
    }
    if let wait = step.waitMessage { elements.append(.paragraph(wait, tone: .warning)) }
    if elements.count > top { elements.append(.space) }
    elements.append(
      .button(.sendButton, title: step.sendButtonTitle, isEnabled: step.isSendButtonEnabled))
    elements.append(.button(.backButton, title: "Back", isEnabled: true))
    if step.isSending { elements += [.space, .spinner("Sending the link…")] }
    return elements
  }

  /// The home screen: the greeting, who is signed in, the profile or why it is missing, and
  /// Logout.
  ///
  /// - Parameter home: The home screen's state.
  /// - Returns: The elements, top to bottom.
  package static func home(_ home: HomeState) -> [ScreenElement] {
    let user = home.user
    var elements: [ScreenElement] = [
      .heading("Hello \(user.displayName.value)"),
      .text("Signed in as \(user.username.value)", tone: .dim), .space,
    ]
    if home.isLoadingProfile {
      elements.append(.spinner("Loading your profile…"))
    } else if let profile = home.profile {
      let messages = profile.unreadMessages == 1 ? "message" : "messages"
      elements.append(
        .text("\(profile.plan) plan · \(profile.unreadMessages) unread \(messages)", tone: .plain))
    } else if let error = home.profileError {
      elements.append(.text("✗ " + error, tone: .error))
    }
    elements += [.space, .button(.logoutButton, title: "Logout", isEnabled: true)]
    return elements
  }
}
