/// The outcome of a login request: a session or the reason it failed.
///
/// `Result` is not `Codable`, and everything in an action must be, so that action logs can
/// record it.
public enum LoginResult: Sendable, Equatable, Codable {
  /// The user signed in.
  case success(Session)
  /// The password was right, and a second factor is needed: the one-time-code step starts.
  case challenge(Challenge)
  /// The request failed.
  case failure(LoginServiceError)
}
