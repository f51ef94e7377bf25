/// A small, plain description of what a feature's screen shows at one step, for the mock
/// screen of the HTML timeline (`replay --html`).
///
/// The timeline page draws it with a handful of generic widgets — text fields, password dots,
/// hints, buttons, a spinner, an alert over the screen and the navigation path — so a feature
/// describes its screen as data and never writes HTML. Every text is shown as text: nothing in
/// it is interpreted as markup, and control characters are made visible.
///
/// ```swift
/// TimelineScreen(
///   title: "Sign in", path: ["Login"],
///   elements: [
///     .field(label: "Username", value: state.username),
///     .secureField(label: "Password", length: state.password.mask.count),
///     .text("Password must be at least 3 characters", tone: .error),
///     .button("Login", isEnabled: state.isLoginButtonEnabled),
///   ])
/// ```
public struct TimelineScreen: Sendable, Hashable {
  /// How a line of text is styled.
  public enum Tone: String, Sendable, Hashable {
    /// Ordinary text.
    case plain
    /// Secondary text.
    case dim
    /// Something went right: a satisfied rule.
    case success
    /// Something is wrong: a broken rule, a failure.
    case error
    /// Something needs attention: failed attempts, a lockout.
    case warning
    /// Something is going on: progress.
    case accent
  }

  /// One widget of the screen, top to bottom.
  public enum Element: Sendable, Hashable {
    /// A headline.
    case heading(String)
    /// A line of text.
    case text(String, tone: Tone)
    /// A text field and its content.
    case field(label: String, value: String)
    /// A secure field: one dot per character, never the text itself.
    case secureField(label: String, length: Int)
    /// A button, enabled or greyed out.
    case button(String, isEnabled: Bool)
    /// A progress indicator with what is in progress.
    case spinner(String)
  }

  /// An alert showing over the screen.
  public struct Alert: Sendable, Hashable {
    /// The headline.
    public var title: String
    /// The explanation.
    public var message: String
    /// The buttons' labels, in display order.
    public var buttons: [String]

    /// Creates an alert.
    ///
    /// - Parameters:
    ///   - title: The headline.
    ///   - message: The explanation.
    ///   - buttons: The buttons' labels.
    public init(title: String, message: String, buttons: [String]) {
      self.title = title
      self.message = message
      self.buttons = buttons
    }
  }

  /// The screen's title bar.
  public var title: String
  /// The navigation stack, bottom first; the last entry is the screen showing.
  public var path: [String]
  /// The widgets, top to bottom.
  public var elements: [Element]
  /// The alerts showing over the screen, oldest first: the last one is on top.
  public var alerts: [Alert]

  /// The alert on top, if any; setting it replaces every alert showing.
  public var alert: Alert? {
    get { alerts.last }
    set { alerts = newValue.map { [$0] } ?? [] }
  }

  /// Creates a screen description.
  ///
  /// - Parameters:
  ///   - title: The screen's title bar.
  ///   - path: The navigation stack, bottom first.
  ///   - elements: The widgets, top to bottom.
  ///   - alert: The alert showing over the screen.
  public init(title: String, path: [String] = [], elements: [Element], alert: Alert? = nil) {
    self.init(title: title, path: path, elements: elements, alerts: alert.map { [$0] } ?? [])
  }

  /// Creates a screen description with several alerts showing, one over the other.
  ///
  /// - Parameters:
  ///   - title: The screen's title bar.
  ///   - path: The navigation stack, bottom first.
  ///   - elements: The widgets, top to bottom.
  ///   - alerts: The alerts showing, oldest first.
  public init(title: String, path: [String] = [], elements: [Element], alerts: [Alert]) {
    self.title = title
    self.path = path
    self.elements = elements
    self.alerts = alerts
  }
}

/// A line of the HTML timeline's header about the log, for example the validation rules a
/// login log was recorded with.
public struct TimelineFact: Sendable, Equatable {
  /// What the fact is about, e.g. `Rules`.
  public var label: String
  /// The fact, one line.
  public var value: String

  /// Creates a fact.
  ///
  /// - Parameters:
  ///   - label: What the fact is about.
  ///   - value: The fact.
  public init(label: String, value: String) {
    self.label = label
    self.value = value
  }
}
