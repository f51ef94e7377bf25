import LoginFeature
import StateStore

/// One-line renderings for the "performed: …" lines fakes add to a story.
///
/// Everything goes through `Dump`, so secrets show their masks only.
enum StoryLine {
  /// `Dump.render(value)` folded onto one line: `User(id: "1", username: "demo")`.
  static func render(_ value: Any) -> String {
    var result = ""
    for line in Dump.render(value).split(separator: "\n") {
      let piece = line.drop { $0 == " " }
      let closes = piece.first == ")" || piece.first == "]"
      let opens = result.last == "(" || result.last == "["
      if !result.isEmpty, !closes, !opens { result += " " }
      result += piece
    }
    return result
  }

  /// `api.login(username: "demo", password: Secret(Aaaa0a))`.
  static func login(_ credentials: Credentials) -> String {
    "api.login(username: \(Dump.quoted(credentials.username.value)), "
      + "password: \(credentials.password))"
  }

  /// `invalidCredentials`, `wrongStatusCode(500)`, `success(user: "demo", token: Secret(…))`.
  static func result(_ result: LoginResult) -> String {
    switch result {
    case .success(let session):
      "success(user: \(Dump.quoted(session.user.username.value)), token: \(session.token))"
    case .challenge(let challenge):
      "challenge(id: \(Dump.quoted(challenge.id)), to: \(Dump.quoted(challenge.destination)))"
    case .failure(let error):
      render(error).replacingPrefix("LoginServiceError.", with: "")
    }
  }

  static func verify(_ code: Secret, _ challenge: Challenge, _ result: VerifyCodeResult) -> String {
    let answer =
      switch result {
      case .success(let session): self.result(.success(session))
      case .failure(let error): self.result(.failure(error))
      }
    return "api.verifyCode(\(code), for: \(Dump.quoted(challenge.id))) → \(answer)"
  }

  static func resend(_ challenge: Challenge, _ result: ResendCodeResult) -> String {
    let answer =
      switch result {
      case .success(let challenge): self.result(.challenge(challenge))
      case .failure(let error): self.result(.failure(error))
      }
    return "api.resendCode(for: \(Dump.quoted(challenge.id))) → \(answer)"
  }
}

extension StoryLine {
  /// `api.requestPasswordReset(email: "ada@example.com") → accepted`.
  static func passwordReset(_ email: String, _ result: PasswordResetResult) -> String {
    let answer =
      switch result {
      case .success(let answer): render(answer).replacingPrefix("PasswordResetAnswer.", with: "")
      case .failure(let error): self.result(.failure(error))
      }
    return "api.requestPasswordReset(email: \(Dump.quoted(email))) → \(answer)"
  }
}

extension String {
  fileprivate func replacingPrefix(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}
