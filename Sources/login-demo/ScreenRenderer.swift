import AppFeature
import LoginFeature
import LoginScreen

/// Draws the demo's screens: a pure function from the store's state and the UI model to lines.
///
/// What the login flow and the home screen show is decided once, by ``LoginScreenContent``
/// (the HTML timeline draws the same elements); this type draws them as terminal lines and adds
/// the host's own parts: the title, the alert, the notices, the key hints.
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
      lines += login(state.login, model)
    case .home(let user):
      lines += draw(LoginScreenContent.home(state.home ?? HomeState(user: user)), model)
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

  /// The login flow's elements (``LoginScreenContent``), drawn as lines.
  private static func login(_ state: LoginState, _ model: ScreenModel) -> [ScreenLine] {
    // While signing in, the focus stays where Enter was pressed (a second Enter does nothing);
    // Esc cancels.
    let elements = LoginScreenContent.login(
      state, lockoutSecondsLeft: model.lockoutSecondsLeft,
      tappedWhileLocked: model.tappedWhileLocked)
    return draw(elements, model)
  }

  /// Draws `elements` as the terminal shows them: the focused one marked, long messages
  /// wrapped, the spinner at its frame.
  private static func draw(_ elements: [ScreenElement], _ model: ScreenModel) -> [ScreenLine] {
    var lines: [ScreenLine] = []
    for element in elements {
      switch element {
      case .heading(let text):
        lines += wrap(text.sanitizedForScreen, width: width - 4).map {
          ScreenLine("   " + $0, style: .bold)
        }
      case .text(let text, let tone):
        lines.append(ScreenLine("   " + text.sanitizedForScreen, style: style(tone)))
      case .paragraph(let text, let tone):
        lines += paragraph(text.sanitizedForScreen, style: style(tone))
      case .caption(let text):
        lines.append(ScreenLine("             " + text.sanitizedForScreen, style: .dim))
      case .field(let control, let label, let value):
        lines.append(field(label, value, focused: model.focus == control, cursor: model.cursor))
      case .secureField(let control, let label, let length):
        lines.append(
          field(
            label, String(repeating: "•", count: length), focused: model.focus == control,
            cursor: model.cursor))
      case .codeField(let control, let label, let code, let length):
        // The one place the demo reads the clear code: to show its digits on the person's
        // terminal.
        let typed =
          model.revealsCode ? code.reveal() : String(repeating: "•", count: code.mask.count)
        let slots = String(repeating: "_", count: max(0, length - typed.count))
        lines.append(field(label, typed + slots, focused: model.focus == control))
      case .button(let control, let title, let isEnabled, let detail):
        var line = button(title, enabled: isEnabled, focused: model.focus == control)
        if let detail { line.segments.append(Segment(text: " " + detail, style: .dim)) }
        lines.append(line)
      case .spinner(let text):
        lines.append(ScreenLine("   \(spinnerFrame(model)) \(text)", style: .accent))
      case .space:
        lines.append(ScreenLine())
      }
    }
    return lines
  }

  /// A message wrapped to the screen; one that starts with a mark (`✓ `, `✗ `) hangs after it.
  private static func paragraph(_ text: String, style: TextStyle) -> [ScreenLine] {
    for mark in ["✓ ", "✗ "] where text.hasPrefix(mark) {
      return wrap(String(text.dropFirst(mark.count)), width: width - 6).enumerated().map {
        ScreenLine(($0.offset == 0 ? "   " + mark : "     ") + $0.element, style: style)
      }
    }
    return wrap(text, width: width - 4).map { ScreenLine("   " + $0, style: style) }
  }

  private static func style(_ tone: ScreenElement.Tone) -> TextStyle {
    switch tone {
    case .plain: .normal
    case .dim: .dim
    case .success: .success
    case .error: .error
    case .warning: .warning
    }
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
