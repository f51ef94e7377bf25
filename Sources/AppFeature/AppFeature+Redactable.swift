import LoginFeature
import StateStore

// The app's values redact through their children: each child masks its own usernames, and the
// home screen masks the user and profile names it shows, the same way the login flow does.

extension AppState: Redactable {
  /// A copy whose usernames are masked, in every child, when `level` holds
  /// ``StateStore/RedactionLevel/usernames``.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> AppState {
    AppState(login: login.redacted(level), home: home?.redacted(level))
  }
}

extension HomeState: Redactable {
  /// A copy whose user and profile names are masked when `level` holds
  /// ``StateStore/RedactionLevel/usernames``.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> HomeState {
    guard level.contains(.usernames) else { return self }
    var copy = self
    copy.user = user.redacted(level)
    copy.profile = profile?.redacted(level)
    return copy
  }
}

extension Profile: Redactable {
  /// A copy whose display name is masked when `level` holds
  /// ``StateStore/RedactionLevel/usernames``.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> Profile {
    guard level.contains(.usernames) else { return self }
    var copy = self
    copy.displayName = displayName.usernameMask
    return copy
  }
}

extension AppAction: Redactable {
  /// A copy with the child action redacted.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> AppAction {
    switch self {
    case .login(let action): .login(action.redacted(level))
    case .home(let action): .home(action.redacted(level))
    }
  }
}

extension HomeAction: Redactable {
  /// A copy whose loaded profile has its names masked.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> HomeAction {
    switch self {
    case .profileLoaded(let profile): .profileLoaded(profile.redacted(level))
    case .profileFailed, .reloadButtonTapped: self
    }
  }
}

extension AppEffect: Redactable {
  /// A copy with the child effect redacted.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  public func redacted(_ level: RedactionLevel) -> AppEffect {
    switch self {
    case .login(let effect): .login(effect.redacted(level))
    case .home(.loadProfile(let user)): .home(.loadProfile(user.redacted(level)))
    case .childDismissed: self
    }
  }
}
