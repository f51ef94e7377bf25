import LoginFeature
import StateStore

/// What the app needs the outside world to do: the children's effects, each embedded in its
/// case, and the app's own.
///
/// Effects stay data through the nesting, so a `TestStore` of the app asserts
/// `.login(.authenticate(…))` values and an action log of the app records them.
public enum AppEffect: StoreEffect, Equatable, Codable {
  /// An effect of the login flow.
  case login(LoginEffect)
  /// An effect of the home screen.
  case home(HomeEffect)
  /// The home screen went away (the user logged out): everything it started is cancelled.
  case homeClosed

  /// The name of the namespace the login flow's effects run in.
  public static let loginNamespace = "login"
  /// The name of the namespace the home screen's effects run in.
  public static let homeNamespace = "home"

  /// Each child's effects keep their own cancellation, in the child's namespace;
  /// ``homeClosed`` cancels the whole home namespace.
  public var cancellation: EffectCancellation {
    switch self {
    case .login(let effect): effect.cancellation.within(Self.loginNamespace)
    case .home(let effect): effect.cancellation.within(Self.homeNamespace)
    case .homeClosed: .cancelsAll(in: Self.homeNamespace)
    }
  }

  /// The ways into each child's case, for the composition tools.
  public enum Case {
    /// ``AppEffect/login(_:)``.
    public static let login = CaseKey(embed: AppEffect.login) {
      if case .login(let effect) = $0 { effect } else { nil }
    }
    /// ``AppEffect/home(_:)``.
    public static let home = CaseKey(embed: AppEffect.home) {
      if case .home(let effect) = $0 { effect } else { nil }
    }
  }
}
