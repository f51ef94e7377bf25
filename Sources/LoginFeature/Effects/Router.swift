/// Carries out navigation on the main actor.
///
/// The host app conforms its navigation (a SwiftUI path, a `UINavigationController`, a
/// terminal's screen switcher) and hands it to ``LoginDependencies``.
///
/// ```swift
/// @MainActor final class AppRouter: Router {
///   var path: [Route] = []
///   func perform(_ command: RouteCommand) {
///     switch command {
///     case .push(let route): path.append(route)
///     case .popToRoot: path.removeAll()
///     default: break
///     }
///   }
/// }
/// ```
@MainActor
public protocol Router: Sendable {
  /// Navigates.
  ///
  /// - Parameter command: The navigation step.
  func perform(_ command: RouteCommand)
}
