import LoginFeature
import StateStore

/// Carries out every ``AppEffect``: the children's own handlers, lifted into the app, and
/// nothing else to write.
///
/// - `.login(e)`: ``LoginFeature/LoginEffectHandler``, whose actions come back as
///   `.login(…)`.
/// - `.home(e)`: ``HomeEffectHandler``, whose actions come back as `.home(…)`.
/// - `.childDismissed`: nothing to do; the store has already cancelled the home screen's effects.
public struct AppEffectHandler: EffectHandler {
  private let children: any EffectHandler<AppEffect, AppAction>

  /// Creates the handler.
  ///
  /// - Parameter dependencies: What the effects are carried out with.
  public init(dependencies: AppDependencies) {
    children = LoginEffectHandler(dependencies: dependencies.login)
      .lifted(into: AppReducer.login)
      .combined(
        with: HomeEffectHandler(profiles: dependencies.profiles)
          .lifted(into: AppReducer.home))
  }

  /// Carries out `effect` with the child handler it belongs to.
  ///
  /// - Parameters:
  ///   - effect: The effect the reducer returned.
  ///   - send: Delivers the answers back to the app store.
  public func handle(_ effect: AppEffect, send: Send<AppAction>) async {
    await children.handle(effect, send: send)
  }
}

extension Store where R == AppReducer {
  /// Creates the app store, whose effects run in an ``AppFeature/AppEffectHandler`` over `dependencies`.
  ///
  /// ```swift
  /// let store = Store(app: AppState(), dependencies: dependencies)
  /// let login = store.scope(AppReducer.login)
  /// ```
  ///
  /// - Parameters:
  ///   - state: The state before the first action; signed out, default rules, by default.
  ///   - dependencies: What the effects are carried out with.
  public convenience init(app state: AppState = AppState(), dependencies: AppDependencies) {
    self.init(
      initialState: state, reducer: AppReducer(),
      handler: AppEffectHandler(dependencies: dependencies))
  }
}
