import LoginFeature
import StateStore

/// A login service that counts its calls in flight: script mode with `--api` wraps the HTTP
/// service in it, so that a request only the server can end counts as waiting on the outside
/// world (see ``EffectTracker``), as a demo request asleep on the script's clock does.
///
/// Without it, every command after `tap login` waited for the HTTP request to end, so `tap
/// cancel` (or `tap back` after `tap send`) never reached a server that does not answer.
struct CountedLoginAPI: LoginAPI {
  let base: any LoginAPI
  /// The calls in flight right now.
  let inFlight: Guarded<Int>
  /// Told after each start and end of a call, on whichever thread it happened.
  let changed: @Sendable () -> Void

  private func counting<Answer>(
    _ call: () async throws(LoginServiceError) -> Answer
  ) async throws(LoginServiceError) -> Answer {
    inFlight.withLock { $0 += 1 }
    changed()
    defer {
      inFlight.withLock { $0 -= 1 }
      changed()
    }
    return try await call()
  }

  func login(_ credentials: Credentials) async throws(LoginServiceError) -> LoginAnswer {
    try await counting { () async throws(LoginServiceError) in try await base.login(credentials) }
  }

  func verifyCode(_ code: Secret, for challenge: Challenge) async throws(LoginServiceError)
    -> Session
  {
    try await counting { () async throws(LoginServiceError) in
      try await base.verifyCode(code, for: challenge)
    }
  }

  func resendCode(for challenge: Challenge) async throws(LoginServiceError) -> Challenge {
    try await counting { () async throws(LoginServiceError) in
      try await base.resendCode(for: challenge)
    }
  }

  func requestPasswordReset(email: String) async throws(LoginServiceError)
    -> PasswordResetAnswer
  {
    try await counting { () async throws(LoginServiceError) in
      try await base.requestPasswordReset(email: email)
    }
  }
}
