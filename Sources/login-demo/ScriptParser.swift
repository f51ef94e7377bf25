import ActionLog

/// One UI event of a script, as a person would cause it.
enum ScriptCommand: Equatable {
  /// A text field of the login form.
  enum Field: String, Equatable {
    case username
    case password
    /// The one-time code of the second-factor step.
    case code
    /// The email address of the password-reset step.
    case email
  }

  /// Replaces the field's content with the text.
  case type(Field, String)
  /// Taps the login button.
  case tapLogin
  /// Taps cancel while the request is in flight.
  case tapCancel
  /// Taps the logout button of the home screen.
  case tapLogout
  /// Taps Verify on the code step.
  case tapVerify
  /// Taps Resend on the code step.
  case tapResend
  /// Taps "Forgot password?" on the login form.
  case tapForgot
  /// Taps "Send link" (or "Send again") on the password-reset step.
  case tapSend
  /// Taps Back on the password-reset step.
  case tapBack
  /// Taps the button with this title of the alert showing.
  case tapAlert(String)
  /// Lets the in-flight request finish (moves the virtual clock to its answer).
  case wait
  /// Moves the virtual clock.
  case advance(Duration)
}

/// A script line that cannot be parsed or carried out, with the line it came from.
///
/// Its ``description`` is the one-line message printed after `login-demo: `, for example
/// `script line 4: unknown command 'frobnicate'`.
struct ScriptError: Error, Equatable, CustomStringConvertible {
  /// What is wrong with the line.
  enum Reason: Equatable {
    case unknownCommand(String)
    case missingArgument(command: String, usage: String)
    case unknownField(String)
    case unknownTapTarget(String)
    case unexpectedArgument(command: String, argument: String)
    case invalidDuration(String)
    case noAlert
    case noSuchButton(String, available: [String])
    case alertShowing(String)
    case screenNotShowing(String)
  }

  /// The 1-based line number in the script.
  var line: Int
  /// What is wrong.
  var reason: Reason

  var description: String {
    "script line \(line): " + message
  }

  private var message: String {
    switch reason {
    case .unknownCommand(let word):
      "unknown command \(Sanitized.name(word))"
    case .missingArgument(let command, let usage):
      "'\(command)' needs an argument: \(usage)"
    case .unknownField(let name):
      "unknown field \(Sanitized.name(name)) (expected username, password, code or email)"
    case .unknownTapTarget(let name):
      "cannot tap \(Sanitized.name(name)) "
        + "(expected login, cancel, logout, verify, resend, forgot, send, back or alert <button>)"
    case .unexpectedArgument(let command, let argument):
      "'\(command)' takes no argument, got \(Sanitized.name(argument))"
    case .invalidDuration(let text):
      "invalid duration \(Sanitized.name(text)) (expected e.g. 30s or 250ms)"
    case .noAlert:
      "no alert is showing"
    case .noSuchButton(let title, let available):
      "the alert has no button \(Sanitized.name(title)) (it has "
        + available.map(Sanitized.name).joined(separator: ", ") + ")"
    case .alertShowing(let title):
      "an alert is showing (\(Sanitized.name(title))); tap one of its buttons first"
    case .screenNotShowing(let screen):
      "the \(screen) is not showing"
    }
  }
}

/// Parses the script language, one line at a time.
///
/// <!-- not output: a script, which login-demo reads -->
/// ```text
/// # sign in with the demo account
/// type username demo
/// type password Secr3t
/// tap login
/// wait
/// tap logout
/// advance 30s
/// ```
///
/// Blank lines and lines starting with `#` are ignored (they parse to `nil`). Words are
/// separated by spaces; the text of `type` is the rest of the line after the field name,
/// spaces kept.
enum ScriptParser {
  /// Parses one line.
  ///
  /// - Parameters:
  ///   - text: The line, without its newline.
  ///   - number: Its 1-based line number, for errors.
  /// - Returns: The command, or `nil` for a blank line or a comment.
  /// - Throws: ``ScriptError`` naming the line.
  static func parse(_ text: String, line number: Int) throws(ScriptError) -> ScriptCommand? {
    var rest = Substring(text)
    if rest.last == "\r" { rest.removeLast() }
    let trimmed = rest.drop(while: { $0 == " " || $0 == "\t" })
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
    rest = trimmed

    func fail(_ reason: ScriptError.Reason) -> ScriptError {
      ScriptError(line: number, reason: reason)
    }
    func nextWord() -> String? {
      rest = rest.drop(while: { $0 == " " || $0 == "\t" })
      guard !rest.isEmpty else { return nil }
      let word = rest.prefix(while: { $0 != " " && $0 != "\t" })
      rest = rest.dropFirst(word.count)
      return String(word)
    }
    func noMoreWords(_ command: String) throws(ScriptError) {
      if let extra = nextWord() {
        throw fail(.unexpectedArgument(command: command, argument: extra))
      }
    }

    guard let command = nextWord() else { return nil }
    switch command {
    case "type":
      guard let name = nextWord() else {
        throw fail(
          .missingArgument(command: "type", usage: "type username|password|code|email TEXT"))
      }
      guard let field = ScriptCommand.Field(rawValue: name) else {
        throw fail(.unknownField(name))
      }
      // The text is everything after the single separator that follows the field name.
      if rest.first == " " || rest.first == "\t" { rest.removeFirst() }
      return .type(field, String(rest))

    case "tap":
      guard let target = nextWord() else {
        throw fail(
          .missingArgument(
            command: "tap",
            usage: "tap login|cancel|logout|verify|resend|forgot|send|back|alert TITLE"))
      }
      switch target {
      case "login":
        try noMoreWords("tap login")
        return .tapLogin
      case "cancel":
        try noMoreWords("tap cancel")
        return .tapCancel
      case "logout":
        try noMoreWords("tap logout")
        return .tapLogout
      case "verify":
        try noMoreWords("tap verify")
        return .tapVerify
      case "resend":
        try noMoreWords("tap resend")
        return .tapResend
      case "forgot":
        try noMoreWords("tap forgot")
        return .tapForgot
      case "send":
        try noMoreWords("tap send")
        return .tapSend
      case "back":
        try noMoreWords("tap back")
        return .tapBack
      case "alert":
        let title = rest.drop(while: { $0 == " " || $0 == "\t" })
        guard !title.isEmpty else {
          throw fail(.missingArgument(command: "tap alert", usage: "tap alert TITLE"))
        }
        return .tapAlert(String(title))
      default:
        throw fail(.unknownTapTarget(target))
      }

    case "wait":
      try noMoreWords("wait")
      return .wait

    case "advance":
      guard let text = nextWord() else {
        throw fail(.missingArgument(command: "advance", usage: "advance 30s|250ms"))
      }
      try noMoreWords("advance")
      guard let duration = parseDuration(text) else { throw fail(.invalidDuration(text)) }
      return .advance(duration)

    default:
      throw fail(.unknownCommand(command))
    }
  }

  /// `30s` → 30 seconds, `250ms` → 250 milliseconds; at most one day.
  static func parseDuration(_ text: String) -> Duration? {
    let (digits, factor): (Substring, Int64) =
      if text.hasSuffix("ms") {
        (text.dropLast(2), 1)
      } else if text.hasSuffix("s") {
        (text.dropLast(1), 1000)
      } else {
        ("", 0)
      }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
      let value = Int64(digits), value <= 86_400_000 / factor
    else { return nil }
    return .milliseconds(value * factor)
  }

  /// The most characters of a script line a screen's header shows.
  static let displayLimit = 72

  /// The line as it may be shown: the text typed into the password and code fields is masked
  /// (the username and the email are shown as typed, like on the screen), control
  /// characters are replaced, and a line longer than ``displayLimit`` is cut with `…`.
  static func display(_ command: ScriptCommand, original: String) -> String {
    var line = original.trimmingCharacters(in: [" ", "\t", "\r"])
    if case .type(let field, let text) = command, field == .password || field == .code {
      line =
        "type \(field.rawValue) " + String(repeating: "•", count: min(text.count, displayLimit))
    }
    let cut = line.prefix(displayLimit + 1)
    guard cut.count > displayLimit else { return line.sanitizedForScreen }
    return String(cut.dropLast()).sanitizedForScreen + "…"
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
    guard let start = firstIndex(where: { !set.contains($0) }),
      let end = lastIndex(where: { !set.contains($0) })
    else { return "" }
    return String(self[start...end])
  }
}
