import LoginFeature
import StateStore

/// What happened anywhere in the app: a login action or a home-screen action, each embedded
/// in its case.
///
/// ```swift
/// appStore.send(.login(.edit(.set(\.username, to: "demo"))))
/// appStore.send(.home(.reloadButtonTapped))
/// ```
public enum AppAction: Sendable, Equatable, Codable {
  /// An action of the login flow.
  case login(LoginAction)
  /// An action of the home screen.
  case home(HomeAction)

}
