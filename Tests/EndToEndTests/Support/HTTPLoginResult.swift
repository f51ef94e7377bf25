import LoginFeature
import LoginHTTPClient
import StateStore
import Testing

extension HTTPLoginAPI {
  /// Signs in and gives the outcome as a value, for tests that compare it: a session, or the
  /// error. A challenge fails the test (these accounts have no second factor).
  func loginResult(
    _ username: String, _ password: String = "Secr3t",
    sourceLocation: SourceLocation = #_sourceLocation
  ) async -> Result<Session, LoginServiceError> {
    do {
      switch try await login(
        Credentials(username: PersonalData(username), password: Secret(password)))
      {
      case .session(let session):
        return .success(session)
      case .challenge(let challenge):
        Issue.record("expected a session, got \(challenge)", sourceLocation: sourceLocation)
        return .failure(.decodingFailed)
      }
    } catch {
      return .failure(error)
    }
  }
}
