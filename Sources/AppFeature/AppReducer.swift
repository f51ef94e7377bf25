import LoginFeature
import StateStore

/// The whole app's behaviour, composed from its children: the login flow (always there) and
/// the home screen (there while a user is signed in).
///
/// <!-- not output: a diagram -->
/// ```text
/// AppAction.login(a) ─▶ Scope(\.login) ─▶ LoginReducer ─▶ [LoginEffect] ─▶ [AppEffect.login(…)]
/// AppAction.home(a)  ─▶ ifLet(\.home)  ─▶ HomeReducer  ─▶ [HomeEffect]  ─▶ [AppEffect.home(…)]
/// every action       ─▶ the app's own logic: show the home screen while a user is signed in
/// ```
///
/// - When the login flow signs a user in, the home screen appears and loads the user's
///   profile (``HomeReducer/start(for:)``).
/// - When the user logs out (``LoginFeature/LoginAction/logoutButtonTapped``), the home screen goes away
///   and ``AppEffect/childDismissed(_:)`` cancels whatever it still had in flight.
/// - A home-screen action while no one is signed in is ignored and reported as a
///   ``StateStore/RuntimeWarning``.
///
/// ```swift
/// let store = Store(app: AppState(), dependencies: dependencies)
/// store.send(.login(.edit(.set(\.username, to: "demo"))))
/// ```
public struct AppReducer: Reducer, Sendable {
  /// The feature name app action logs are recorded under, and that the `replay` tool knows.
  public static let actionLogFeature = "app"

  /// The login flow: always there, in ``AppState/login``.
  public static let login = ChildFeature(
    "login", state: \AppState.login,
    action: CaseKey(embed: AppAction.login) { if case .login(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: AppEffect.login) { if case .login(let e) = $0 { e } else { nil } })

  /// The home screen: there while a user is signed in, in ``AppState/home``.
  public static let home = ChildFeature(
    "home", state: \AppState.home,
    action: CaseKey(embed: AppAction.home) { if case .home(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: AppEffect.home) { if case .home(let e) = $0 { e } else { nil } })

  private let body = Scope(AppReducer.login) { LoginReducer() }
    .combined(with: AppCore().ifLet(AppReducer.home) { HomeReducer() })

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
