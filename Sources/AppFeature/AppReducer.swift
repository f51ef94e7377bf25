import LoginFeature
import StateStore

/// The whole app's behaviour, composed from its children: the login flow (always there) and
/// the home screen (there while a user is signed in).
///
/// ```text
/// AppAction.login(a) ─▶ Scope(\.login) ─▶ LoginReducer ─▶ [LoginEffect] ─▶ [AppEffect.login(…)]
/// AppAction.home(a)  ─▶ ifLet(\.home)  ─▶ HomeReducer  ─▶ [HomeEffect]  ─▶ [AppEffect.home(…)]
/// every action       ─▶ the app's own logic: show the home screen while a user is signed in
/// ```
///
/// - When the login flow signs a user in, the home screen appears and loads the user's
///   profile (``HomeReducer/start(for:)``).
/// - When the user logs out (``LoginFeature/LoginAction/logoutButtonTapped``), the home screen goes away
///   and ``AppEffect/homeClosed`` cancels whatever it still had in flight.
/// - A home-screen action while no one is signed in is ignored and reported as a
///   ``StateStore/RuntimeWarning``.
///
/// ```swift
/// let store = Store(app: AppState(), dependencies: dependencies)
/// store.send(.login(.usernameChanged("demo")))
/// ```
public struct AppReducer: Reducer, Sendable {
  /// The feature name app action logs are recorded under, and that the `replay` tool knows.
  public static let actionLogFeature = "app"

  private let body = Scope(
    state: \AppState.login, action: AppAction.Case.login, effect: AppEffect.Case.login
  ) {
    LoginReducer()
  }
  .combined(
    with: AppCore().ifLet(
      \AppState.home, action: AppAction.Case.home, effect: AppEffect.Case.home,
      dismissal: .homeClosed
    ) { HomeReducer() })

  /// Creates the reducer.
  public init() {}

  /// Runs the login flow, then the home screen and the app's own logic.
  ///
  /// - Parameters:
  ///   - state: The app's state.
  ///   - action: What happened.
  /// - Returns: The children's effects, embedded, then the app's.
  public func reduce(into state: inout AppState, action: AppAction) -> [AppEffect] {
    body.reduce(into: &state, action: action)
  }
}

/// The app's own logic: the home screen is there exactly while a user is signed in.
struct AppCore: Reducer, Sendable {
  func reduce(into state: inout AppState, action: AppAction) -> [AppEffect] {
    // Checked on every keystroke: compare presence first, copy the user only on a change. `if
    // case`, not `!= nil`, which costs value-witness calls with Swift 6.3 (see store-bench).
    var isSignedIn = false
    if case .some = state.login.user { isSignedIn = true }
    var isHomeShown = false
    if case .some = state.home { isHomeShown = true }
    guard isSignedIn != isHomeShown else { return [] }
    guard let user = state.login.user else {
      state.home = nil
      return []
    }
    let (home, effects) = HomeReducer.start(for: user)
    state.home = home
    return effects.map(AppEffect.home)
  }
}
