import StateStore

/// Carries out every ``HomeEffect`` with an injected ``ProfileAPI``.
///
/// - `loadProfile`: `profiles.profile(of:)`, then ``HomeAction/profileLoaded(_:)`` or
///   ``HomeAction/profileFailed(_:)`` — nothing when the store cancelled the request (a newer
///   request, or the home screen went away).
public struct HomeEffectHandler: EffectHandler {
  /// Loads profiles.
  public var profiles: any ProfileAPI

  /// Creates a handler.
  ///
  /// - Parameter profiles: Loads profiles.
  public init(profiles: any ProfileAPI) {
    self.profiles = profiles
  }

  /// Carries out `effect`.
  ///
  /// - Parameters:
  ///   - effect: The effect the reducer returned.
  ///   - send: Delivers the answer back to the store.
  public func handle(_ effect: HomeEffect, send: Send<HomeAction>) async {
    switch effect {
    case .loadProfile(let user):
      let action: HomeAction
      do {
        action = .profileLoaded(try await profiles.profile(of: user))
      } catch {
        guard !Task.isCancelled else { return }
        action = .profileFailed("The profile could not be loaded. Please try again.")
      }
      guard !Task.isCancelled else { return }
      await send(action)
    }
  }
}
