import LoginFeature

/// The demo's navigation: a stack of routes that the screen renderer shows.
///
/// The top route decides the screen (the login form or the home screen); the whole stack is
/// shown as a breadcrumb in the title line, so the effect of every ``RouteCommand`` is visible.
@MainActor
final class DemoRouter: Router {
  /// The navigation stack; the login form is always at the bottom.
  private(set) var stack: [Route] = [.login]
  /// Called after every change of ``stack``.
  var onChange: @MainActor () -> Void = {}

  /// The screen on top.
  var top: Route { stack.last ?? .login }

  func perform(_ command: RouteCommand) {
    command.apply(to: &stack)
    onChange()
  }
}
