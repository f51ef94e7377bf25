import StateStore

/// One element of the login screen, top to bottom: what `login-demo` draws as terminal lines
/// and the HTML timeline (`replay --html`) draws as its mock screen.
///
/// The elements say what shows, not how: the terminal wraps, indents and colours them, the
/// page turns them into its widgets. A secret is never an element's text: the password is its
/// length, the one-time code is the `Secret` itself, revealed only by a host that shows it.
package enum ScreenElement: Equatable, Sendable {
  /// How a line of text reads.
  package enum Tone: Equatable, Sendable {
    /// Ordinary text.
    case plain
    /// Secondary text.
    case dim
    /// Something went right.
    case success
    /// Something is wrong.
    case error
    /// Something needs attention.
    case warning
  }

  /// A headline (the step's title, the greeting).
  case heading(String)
  /// A short line: a status, a hint, a count.
  case text(String, tone: Tone)
  /// A longer message from the state (a notice, a confirmation, a wait) that the terminal
  /// wraps to its width.
  case paragraph(String, tone: Tone)
  /// A remark under the field above it, e.g. how long the code stays valid.
  case caption(String)
  /// A text field and its content.
  case field(ScreenControl, label: String, value: String)
  /// A secure field: its length only.
  case secureField(ScreenControl, label: String, length: Int)
  /// The one-time-code field: the code as typed and how many digits it takes.
  case codeField(ScreenControl, label: String, code: Secret, length: Int)
  /// A button, enabled or greyed out, with a remark after it (Resend's countdown).
  case button(ScreenControl, title: String, isEnabled: Bool, detail: String? = nil)
  /// A progress indicator with what is in progress.
  case spinner(String)
  /// A blank line, where the terminal leaves one; the page has its own spacing.
  case space
}

/// The elements of the login screen that a host can focus.
package enum ScreenControl: Equatable, Sendable {
  case username
  case password
  case loginButton
  case forgotButton
  case logoutButton
  case code
  case verifyButton
  case resendButton
  case cancelButton
  case email
  case sendButton
  case backButton
}
