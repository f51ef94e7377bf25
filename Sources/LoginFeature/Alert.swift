/// An alert to show the user, as data.
///
/// The reducer returns ``LoginEffect/showAlert(_:)``; an ``AlertPresenter`` shows it and the
/// button the user taps comes back as ``LoginAction/alertButtonTapped(_:)`` with the button's
/// ``AlertButton/id``.
///
/// ```swift
/// Alert(title: "Couldn't sign in", message: "Incorrect username or password")   // one "OK" button
/// ```
public struct Alert: Sendable, Equatable, Codable {
  /// The headline.
  public var title: String
  /// The explanation; may span several lines.
  public var message: String
  /// The buttons, in display order.
  public var buttons: [AlertButton]

  /// Creates an alert.
  ///
  /// - Parameters:
  ///   - title: The headline.
  ///   - message: The explanation.
  ///   - buttons: The buttons; a single ``AlertButton/ok`` by default.
  public init(title: String, message: String, buttons: [AlertButton] = [.ok]) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// A button of an ``Alert``.
public struct AlertButton: Sendable, Equatable, Codable {
  /// What a button does, which decides how hosts style it.
  public enum Role: String, Sendable, Equatable, Codable {
    /// Dismisses the alert without doing anything.
    case cancel
    /// Does something that cannot be undone.
    case destructive
    /// An ordinary choice.
    case `default`
  }

  /// Identifies the button in ``LoginAction/alertButtonTapped(_:)``.
  public var id: String
  /// The label.
  public var title: String
  /// How hosts style it.
  public var role: Role

  /// Creates a button.
  ///
  /// - Parameters:
  ///   - id: Identifies the button when it is tapped.
  ///   - title: The label.
  ///   - role: How hosts style it.
  public init(id: String, title: String, role: Role = .default) {
    self.id = id
    self.title = title
    self.role = role
  }

  /// The "OK" button that acknowledges an alert: id `ok`, role ``Role/cancel``.
  public static let ok = AlertButton(id: "ok", title: "OK", role: .cancel)
}
