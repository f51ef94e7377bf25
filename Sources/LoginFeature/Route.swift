/// A screen of the login flow.
public enum Route: Sendable, Hashable, Codable {
  /// The login form.
  case login
  /// The home screen of a signed-in user.
  case home(User)
}

/// A navigation step, carried out by a ``Router``.
///
/// ```swift
/// LoginEffect.route(.push(.home(user)))   // after a successful login
/// LoginEffect.route(.popToRoot)           // after logging out
/// ```
public enum RouteCommand: Sendable, Hashable, Codable {
  /// Pushes a screen onto the navigation stack.
  case push(Route)
  /// Presents a screen modally.
  case present(Route)
  /// Dismisses the presented screen.
  case dismiss
  /// Pops the top screen off the navigation stack.
  case pop
  /// Pops back to the first screen (the login form).
  case popToRoot
  /// Shows the screen at once, on top of the login form and without an animation: a session
  /// restored at launch goes straight to the home screen, with no flash of the form.
  case restore(Route)
}
