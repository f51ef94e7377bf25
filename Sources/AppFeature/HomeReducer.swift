import LoginFeature
import StateStore

/// The home screen's behaviour: load the profile, show it or the reason it failed.
///
/// - ``start(for:)``: the state a freshly shown home screen has, and the effect that loads its
///   profile. The app feature calls it when a user signs in.
/// - `profileLoaded`, `profileFailed`: while loading, store the answer.
/// - `reloadButtonTapped`: when not loading, load the profile again.
///
/// ```swift
/// var (state, effects) = HomeReducer.start(for: user)
/// // state.isLoadingProfile == true, effects == [.loadProfile(user)]
/// HomeReducer().reduce(into: &state, action: .profileLoaded(profile))
/// ```
public struct HomeReducer: Reducer, Sendable {
  /// Creates the reducer.
  public init() {}

  /// The state of a home screen just shown for `user`, and the effects that start it.
  ///
  /// - Parameter user: The signed-in user.
  /// - Returns: A state that is loading the profile, and the effect that loads it.
  public static func start(for user: User) -> (HomeState, [HomeEffect]) {
    (HomeState(user: user, isLoadingProfile: true), [.loadProfile(user)])
  }

  /// Applies `action` to `state`; see the list above.
  ///
  /// - Parameters:
  ///   - state: The home screen's state.
  ///   - action: What happened.
  /// - Returns: The effects to start.
  public func reduce(into state: inout HomeState, action: HomeAction) -> [HomeEffect] {
    switch action {
    case .profileLoaded(let profile):
      guard state.isLoadingProfile else { return [] }
      state.isLoadingProfile = false
      state.profile = profile
      state.profileError = nil
      return []

    case .profileFailed(let message):
      guard state.isLoadingProfile else { return [] }
      state.isLoadingProfile = false
      state.profileError = message
      return []

    case .reloadButtonTapped:
      guard !state.isLoadingProfile else { return [] }
      state.isLoadingProfile = true
      state.profileError = nil
      return [.loadProfile(state.user)]
    }
  }
}
