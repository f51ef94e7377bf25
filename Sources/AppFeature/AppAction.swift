import LoginFeature
import StateStore

/// What happened anywhere in the app: a login action or a home-screen action, each embedded
/// in its case.
///
/// ```swift
/// appStore.send(.login(.usernameChanged("demo")))
/// appStore.send(.home(.reloadButtonTapped))
/// ```
public enum AppAction: Sendable, Equatable, Codable {
  /// An action of the login flow.
  case login(LoginAction)
  /// An action of the home screen.
  case home(HomeAction)

  /// The ways into each case, for the composition tools (``StateStore/Scope``,
  /// `Store.scope(state:action:)`, lifted handlers).
  public enum Case {
    /// ``AppAction/login(_:)``.
    public static let login = CaseKey(embed: AppAction.login) {
      if case .login(let action) = $0 { action } else { nil }
    }
    /// ``AppAction/home(_:)``.
    public static let home = CaseKey(embed: AppAction.home) {
      if case .home(let action) = $0 { action } else { nil }
    }
  }
}
