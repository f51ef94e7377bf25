import LoginFeature
import StateStore

/// What the app needs the outside world to do: the children's effects, each embedded in its
/// case, and the app's own.
///
/// Effects stay data through the nesting, so a `TestStore` of the app asserts
/// `.login(.authenticate(…))` values and an action log of the app records them.
public enum AppEffect: ComposedEffect, Equatable, Codable {
  /// An effect of the login flow.
  case login(LoginEffect)
  /// An effect of the home screen.
  case home(HomeEffect)
  /// An optional child (the home screen, when the user logged out) went away: everything it
  /// started is cancelled.
  case childDismissed(ChildDismissal)

  /// Each child's effects keep their own cancellation, in the child's namespace;
  /// ``childDismissed(_:)`` cancels the whole namespace of the child that went away.
  public var cancellation: EffectCancellation {
    switch self {
    case .login(let effect): AppReducer.login.cancellation(of: effect)
    case .home(let effect): AppReducer.home.cancellation(of: effect)
    case .childDismissed(let dismissal): dismissal.cancellation
    }
  }

}
