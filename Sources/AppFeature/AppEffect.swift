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

  // No `cancellation`: each child's effects keep their own, in the namespace of the case that
  // carries them (`ComposedEffect.childCancellation`), and `childDismissed` cancels the whole
  // namespace of the child that went away.
}
