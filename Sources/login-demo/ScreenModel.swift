import LoginFeature

/// What the screen shows besides the store's state: the host app's own UI state.
///
/// ``ScreenRenderer`` is a pure function of a `LoginState` and this model, so script mode and
/// interactive mode draw exactly the same screens.
struct ScreenModel: Equatable {
  /// The element keys go to.
  enum Focus: Equatable {
    case username
    case password
    case loginButton
    case logoutButton
  }

  /// The navigation stack; the top decides the screen.
  var routes: [Route] = [.login]
  /// The focused element.
  var focus: Focus = .username
  /// The alert showing, if any.
  var alert: Alert?
  /// The index of the selected button of ``alert``.
  var alertSelection = 0
  /// Which frame of the spinner to draw while a request is in flight.
  var spinnerFrame = 0
  /// Whether to add the line explaining the keys (interactive mode only).
  var showsKeyHints = false
}
