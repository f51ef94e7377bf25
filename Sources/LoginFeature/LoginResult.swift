/// The outcome of a login request: a session or the reason it failed.
///
/// `Result` is not `Codable`, and everything in an action must be, so that action logs can
/// record it.
public enum LoginResult: Sendable, Equatable, Codable {
  /// The user signed in.
  case success(Session)
  /// The request failed.
  case failure(LoginServiceError)
}
