import AppFeature
import LoginFeature

/// Draws the demo's screens: a pure function from the store's state and the UI model to lines.
///
/// The same lines serve both modes: script mode prints their plain text, interactive mode
/// draws them full-screen with their styles. The password is drawn as one `•` per character
/// and never in clear. The one-time code shows its digits on the interactive screen only
/// (``ScreenModel/revealsCode``), as iOS one-time-code fields do; script mode draws it as dots.
///
/// <!-- sample: excerpt Tests/EndToEndTests/DemoScripts/success-logout.expected.txt -->
/// ```text
///  LoginStore demo                                       login
///  ───────────────────────────────────────────────────────────
///
///    Username  demo
///  › Password  ••••••
///
///    ✓ Ready to sign in
///
///    [ Login ]
///    [ Forgot password? ]
/// ```
enum ScreenRenderer {
  /// The width of the title rule, in columns.
  static let width = 60
  /// The frames of the spinner; script mode always draws the first.
  static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Draws the screen for `state` and `model`.
  ///
  /// - Parameters:
  ///   - state: The store's state.
  ///   - model: The host's UI state: routes, focus, alert, spinner frame.
  /// - Returns: The screen's lines, top to bottom.
  static func render(_ state: AppState, _ model: ScreenModel) -> [ScreenLine] {
    var lines = titleLines(model.routes)
    switch model.routes.last ?? .login {
    case .login:
      if let step = state.login.twoFactor {
        lines += codeStep(step, model)
      } else if let step = state.login.passwordReset {
        lines += passwordReset(step, model)
      } else {
        lines += loginForm(state.login, model)
      }
    case .home(let user):
      lines += home(state.home ?? HomeState(user: user), model)
    }
    if let alert = model.alert {
      lines.append(ScreenLine())
      lines += alertBox(alert, selection: model.alertSelection)
    }
    if let notice = model.notice {
      lines.append(ScreenLine())
      lines += wrap("⚠ " + notice.sanitizedForScreen, width: width - 4).map {
        ScreenLine("   " + $0, style: .warning)
      }
    }
    if let recording = model.recording {
      lines.append(ScreenLine())
      let wrapped = wrap("recording to " + recording.sanitizedForScreen, width: width - 4)
      for (index, line) in wrapped.enumerated() {
        lines.append(ScreenLine((index == 0 ? " ● " : "   ") + line, style: .dim))
      }
    }
    if model.showsKeyHints, lines.count + 2 <= model.rows ?? .max {
      lines.append(ScreenLine())
      lines.append(
        ScreenLine(" Tab next · Enter press · Esc cancel/dismiss · Ctrl-C quit", style: .dim))
    }
    return lines
  }

  /// The screen as plain text, one line per row, each ending with a newline.
  static func plainText(_ state: AppState, _ model: ScreenModel) -> String {
    render(state, model).map { $0.plainText + "\n" }.joined()
  }

  // MARK: - Parts

  private static func titleLines(_ routes: [Route]) -> [ScreenLine] {
    let title = " LoginStore demo"
    let breadcrumb = routes.map(describe).joined(separator: " › ")
    let gap = max(1, width - title.count - breadcrumb.count)
    return [
      ScreenLine([
        Segment(text: title, style: .bold),
        Segment(text: String(repeating: " ", count: gap) + breadcrumb, style: .accent),
      ]),
      ScreenLine(" " + String(repeating: "─", count: width - 1), style: .dim),
      ScreenLine(),
    ]
  }

  private static func loginForm(_ state: LoginState, _ model: ScreenModel) -> [ScreenLine] {
    if state.isRestoring {
      return [ScreenLine("   \(spinnerFrame(model)) Restoring your session…", style: .accent)]
    }
    // While signing in, Enter cancels: the Cancel button is the one focused.
    var model = model
    if state.isLoading { model.focus = .cancelButton }
    var notice: [ScreenLine] = []
    if let text = state.notice {
      notice =
        wrap(text.sanitizedForScreen, width: width - 4).map {
          ScreenLine("   " + $0, style: .warning)
        } + [ScreenLine()]
    }
    let usernameLabel = state.rules.kind == .email ? "Email" : "Username"
    var lines =
      notice + [
        field(
          usernameLabel, state.username.value, focused: model.focus == .username,
          cursor: model.cursor),
        field(
          "Password", String(repeating: "•", count: state.password.mask.count),
          focused: model.focus == .password, cursor: model.cursor),
        ScreenLine(),
      ]
    // A field's hints show once it was edited or Login was tapped (`visibleValidationMessages`).
    let messages = state.visibleValidationMessages
    if !messages.isEmpty {
      lines += messages.map { ScreenLine("   ✗ " + $0, style: .error) }
    } else if state.isFormValid, !state.isLocked {
      lines.append(ScreenLine("   ✓ Ready to sign in", style: .success))
    }
    if state.isLocked {
      let limit = state.rules.maxAttempts
      let seconds =
        model.lockoutSecondsLeft ?? LockoutCountdown.wholeSeconds(state.lockedFor ?? .zero)
      lines.append(
        ScreenLine(
          "   Locked after \(limit) failed attempts. Try again in \(seconds) s", style: .warning))
    } else if state.failedAttempts > 0 {
      lines.append(
        ScreenLine(
          "   Failed attempts: \(state.failedAttempts) of \(state.rules.maxAttempts)",
          style: .warning))
    }
    // One blank line above the buttons, also when the form has nothing to say yet.
    if lines.last != ScreenLine() { lines.append(ScreenLine()) }
    lines.append(
      button(
        "Login", enabled: state.isLoginButtonEnabled, focused: model.focus == .loginButton))
    lines.append(
      // The flow opens the step only when no sign-in is in flight.
      button(
        "Forgot password?", enabled: !state.isLoading, focused: model.focus == .forgotButton))
    if state.isLocked, model.tappedWhileLocked {
      lines.append(
        ScreenLine(
          "   The form is locked after too many failed attempts; wait for the countdown.",
          style: .warning))
    }
    if state.isLoading {
      lines.append(ScreenLine())
      lines.append(ScreenLine("   \(spinnerFrame(model)) Signing in…", style: .accent))
      lines.append(button("Cancel", enabled: true, focused: true))
    }
    return lines
  }

  private static func codeStep(_ step: TwoFactorState, _ model: ScreenModel) -> [ScreenLine] {
    // The one place the demo reads the clear code: to show its digits on the person's terminal.
    let typed =
      model.revealsCode
      ? step.code.reveal() : String(repeating: "•", count: step.code.mask.count)
    let slots = String(repeating: "_", count: max(0, step.challenge.codeLength - typed.count))
    var lines = wrap(step.title.sanitizedForScreen, width: width - 4).map {
      ScreenLine("   " + $0, style: .bold)
    }
    lines.append(ScreenLine())
    lines.append(field("Code", typed + slots, focused: model.focus == .code))
    if let validity = step.validityMessage {
      lines.append(ScreenLine("             " + validity, style: .dim))
    }
    lines.append(ScreenLine())
    if step.wasCodeResent {
      lines.append(ScreenLine("   ✓ A new code was sent", style: .success))
    } else if step.isExpired {
      lines.append(ScreenLine("   ✗ The code has expired: ask for a new one", style: .error))
    } else if step.incorrectCodes > 0 {
      let left = TwoFactorState.maxIncorrectCodes - step.incorrectCodes
      lines.append(
        ScreenLine(
          "   Incorrect codes: \(step.incorrectCodes) (\(left) \(left == 1 ? "attempt" : "attempts") left)",
          style: .warning))
    }
    lines.append(
      button("Verify", enabled: step.isVerifyButtonEnabled, focused: model.focus == .verifyButton))
    var resend = button(
      "Resend", enabled: step.isResendButtonEnabled, focused: model.focus == .resendButton)
    if step.resendCountdown > 0 {
      resend.segments.append(Segment(text: " in \(step.resendCountdown) s", style: .dim))
    }
    lines.append(resend)
    lines.append(button("Cancel", enabled: true, focused: model.focus == .cancelButton))
    if step.isVerifying || step.isResending {
      lines.append(ScreenLine())
      let doing = step.isVerifying ? "Verifying…" : "Sending a new code…"
      lines.append(ScreenLine("   \(spinnerFrame(model)) \(doing)", style: .accent))
    }
    return lines
  }

  /// The password-reset step: the email field, what is wrong with it, the confirmation, the
  /// wait before "Send again" (the store's countdown, ticking on its clock), and the buttons.
  private static func passwordReset(_ step: PasswordResetState, _ model: ScreenModel)
    -> [ScreenLine]
  {
    var lines = [
      ScreenLine("   Reset your password", style: .bold),
      ScreenLine(),
      field("Email", step.email.value, focused: model.focus == .email, cursor: model.cursor),
      ScreenLine(),
    ]
    if let error = step.visibleValidationError {
      lines.append(ScreenLine("   ✗ " + error.message, style: .error))
    }
    if let confirmation = step.confirmation {
      lines += wrap(confirmation.sanitizedForScreen, width: width - 6).enumerated().map {
        ScreenLine(($0.offset == 0 ? "   ✓ " : "     ") + $0.element, style: .success)
      }
    }
    if let wait = step.waitMessage {
      lines += wrap(wait, width: width - 4).map { ScreenLine("   " + $0, style: .warning) }
    }
    if lines.count > 4 { lines.append(ScreenLine()) }
    lines.append(
      button(
        step.sendButtonTitle, enabled: step.isSendButtonEnabled,
        focused: model.focus == .sendButton))
    lines.append(button("Back", enabled: true, focused: model.focus == .backButton))
    if step.isSending {
      lines.append(ScreenLine())
      lines.append(ScreenLine("   \(spinnerFrame(model)) Sending the link…", style: .accent))
    }
    return lines
  }

  private static func home(_ home: HomeState, _ model: ScreenModel) -> [ScreenLine] {
    let user = home.user
    var lines = [
      ScreenLine("   Hello \(user.displayName.value.sanitizedForScreen)", style: .bold),
      ScreenLine("   Signed in as \(user.username.value.sanitizedForScreen)", style: .dim),
      ScreenLine(),
    ]
    if home.isLoadingProfile {
      lines.append(ScreenLine("   \(spinnerFrame(model)) Loading your profile…", style: .accent))
    } else if let profile = home.profile {
      let messages = profile.unreadMessages == 1 ? "message" : "messages"
      lines.append(
        ScreenLine(
          "   \(profile.plan.sanitizedForScreen) plan · "
            + "\(profile.unreadMessages) unread \(messages)"))
    } else if let error = home.profileError {
      lines.append(ScreenLine("   ✗ " + error.sanitizedForScreen, style: .error))
    }
    lines.append(ScreenLine())
    lines.append(button("Logout", enabled: true, focused: model.focus == .logoutButton))
    return lines
  }

  private static func spinnerFrame(_ model: ScreenModel) -> Character {
    let frames = spinnerFrames
    return frames[((model.spinnerFrame % frames.count) + frames.count) % frames.count]
  }

  /// The most characters a field shows; a longer value shows its end, after `…`, the way a
  /// text field scrolls, so a pasted 10,000-character name never wraps the screen.
  static let fieldWidth = 40

  /// `text` as a field shows it: its last ``fieldWidth`` characters at most, control
  /// characters replaced.
  static func fieldText(_ text: String) -> String {
    var end = text.endIndex
    var count = 0
    while end > text.startIndex, count < fieldWidth {
      end = text.index(before: end)
      count += 1
    }
    guard end > text.startIndex else { return text.sanitizedForScreen }
    return "…" + String(text[text.index(after: end)...]).sanitizedForScreen
  }

  private static func field(_ label: String, _ value: String, focused: Bool) -> ScreenLine {
    var segments = [
      Segment(text: focused ? " › " : "   ", style: .accent),
      Segment(text: label.padded(to: 10), style: focused ? .bold : .normal),
      Segment(text: value),
    ]
    if focused { segments.append(Segment(text: " ", style: .inverse)) }
    return ScreenLine(segments)
  }

  /// A text field showing `text` with the cursor, when focused, at `cursor` (`nil`: the end)
  /// drawn as the inverse character under it. A text longer than ``fieldWidth`` shows the
  /// stretch around the cursor, after `…`.
  private static func field(_ label: String, _ text: String, focused: Bool, cursor: Int?)
    -> ScreenLine
  {
    guard focused else { return field(label, fieldText(text), focused: false) }
    let characters = Array(text.sanitizedForScreen)
    let position = min(max(0, cursor ?? characters.count), characters.count)
    // The window of at most `fieldWidth` columns (the cursor's cell included) holding it.
    let start = max(0, min(position + 1, characters.count + 1) - fieldWidth)
    let end = min(characters.count, start + fieldWidth - (start > 0 ? 1 : 0))
    let shownStart = start > 0 ? start + 1 : 0
    var segments = [
      Segment(text: " › ", style: .accent),
      Segment(text: label.padded(to: 10), style: .bold),
      Segment(
        text: (start > 0 ? "…" : "") + String(characters[shownStart..<max(shownStart, position)])),
    ]
    let under = position < characters.count ? String(characters[position]) : " "
    segments.append(Segment(text: under, style: .inverse))
    if position + 1 < end {
      segments.append(Segment(text: String(characters[(position + 1)..<end])))
    }
    return ScreenLine(segments)
  }

  private static func button(_ title: String, enabled: Bool, focused: Bool) -> ScreenLine {
    var segments = [
      Segment(text: focused ? " › " : "   ", style: .accent),
      Segment(
        text: "[ \(title) ]", style: focused ? .inverse : (enabled ? .bold : .dim)),
    ]
    if !enabled { segments.append(Segment(text: " (disabled)", style: .dim)) }
    return ScreenLine(segments)
  }

  private static func alertBox(_ alert: Alert, selection: Int) -> [ScreenLine] {
    let maxWidth = 52
    let title = wrap(alert.title.sanitizedForScreen, width: maxWidth)
    let message = alert.message.split(separator: "\n", omittingEmptySubsequences: false)
      .flatMap { wrap(String($0).sanitizedForScreen, width: maxWidth) }
    let buttons = alert.buttons.enumerated().map { index, button in
      Segment(
        text: (index == selection ? "› " : "  ") + "[ \(button.title.sanitizedForScreen) ]",
        style: index == selection ? .inverse : .bold)
    }
    let buttonsWidth = buttons.reduce(0) { $0 + $1.text.count } + max(0, buttons.count - 1)
    let inner = max(30, buttonsWidth, (title + message).map(\.count).max() ?? 0)

    func row(_ text: String, style: TextStyle = .normal) -> ScreenLine {
      ScreenLine([
        Segment(text: "   │ "), Segment(text: text.padded(to: inner), style: style),
        Segment(text: " │"),
      ])
    }

    var lines = [ScreenLine("   ┌" + String(repeating: "─", count: inner + 2) + "┐")]
    lines += title.map { row($0, style: .bold) }
    lines.append(row(""))
    lines += message.map { row($0) }
    lines.append(row(""))
    var buttonRow = [
      Segment(text: "   │ " + String(repeating: " ", count: inner - buttonsWidth))
    ]
    for (index, segment) in buttons.enumerated() {
      if index > 0 { buttonRow.append(Segment(text: " ")) }
      buttonRow.append(segment)
    }
    buttonRow.append(Segment(text: " │"))
    lines.append(ScreenLine(buttonRow))
    lines.append(ScreenLine("   └" + String(repeating: "─", count: inner + 2) + "┘"))
    return lines
  }

  // MARK: - Text

  private static func describe(_ route: Route) -> String {
    switch route {
    case .login: "login"
    case .home(let user): "home(\(user.username.value.sanitizedForScreen))"
    }
  }

  /// Splits `text` into lines of at most `width` characters at spaces (long words are cut).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      var word = Substring(word)
      while word.count > width {
        if !current.isEmpty {
          lines.append(current)
          current = ""
        }
        lines.append(String(word.prefix(width)))
        word = word.dropFirst(width)
      }
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
    }
    lines.append(current)
    return lines
  }
}
