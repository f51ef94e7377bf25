import LoginFeature

/// The whole app's state: the login flow, always there, and the home screen while a user is
/// signed in.
///
/// ```swift
/// var state = AppState(login: LoginState(rules: .email))
/// state.home   // nil until someone signs in
/// ```
public struct AppState: Sendable, Equatable, Codable {
  /// The login flow: the form, the request, the lockout and the signed-in user.
  public var login: LoginState
  /// The home screen, present exactly while ``LoginFeature/LoginState/user`` is set.
  public var home: HomeState?

  /// Creates the app's state.
  ///
  /// - Parameters:
  ///   - login: The login flow's state; the empty default-rules form by default.
  ///   - home: The home screen's state; `nil` (signed out) by default.
  public init(login: LoginState = LoginState(), home: HomeState? = nil) {
    self.login = login
    self.home = home
  }
}
