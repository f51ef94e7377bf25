import Foundation
import LoginFeature
import StateStore

/// The JSON a login service answers a successful login with.
///
/// <!-- not output: the service's answer, which the client reads -->
/// ```json
/// {"token": "…", "user": {"id": "1", "name": "Demo User", "username": "demo",
///  "email": "demo@example.com"}}
/// ```
///
/// `id`, `name` and `email` may be missing (or `null`): the id is then the username, and so is
/// the display name. `id` may be a string or an integer.
struct LoginResponseBody: Decodable {
  struct UserBody: Decodable {
    var id: String?
    var name: String?
    var username: String
    var email: String?

    private enum CodingKeys: String, CodingKey {
      case id, name, username, email
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if let number = try? container.decodeIfPresent(Int.self, forKey: .id) {
        id = String(number)
      } else {
        id = try container.decodeIfPresent(String.self, forKey: .id)
      }
      name = try container.decodeIfPresent(String.self, forKey: .name)
      username = try container.decode(String.self, forKey: .username)
      email = try container.decodeIfPresent(String.self, forKey: .email)
    }
  }

  var token: String
  var user: UserBody

  /// Decodes `data` into a session.
  ///
  /// - Throws: ``LoginFeature/LoginServiceError/decodingFailed`` when `data` is not this JSON, or its token
  ///   or username is empty.
  /// The answer to a sign-in: `{"challenge": {…}}` is a second factor, anything else must be
  /// a session.
  static func answer(from data: Data) throws(LoginServiceError) -> LoginAnswer {
    if let body = try? JSONDecoder().decode(ChallengeResponseBody.self, from: data) {
      return .challenge(try body.challenge.validated())
    }
    return .session(try session(from: data))
  }

  /// The answer to a resend: `{"challenge": {…}}`.
  static func challenge(from data: Data) throws(LoginServiceError) -> Challenge {
    guard let body = try? JSONDecoder().decode(ChallengeResponseBody.self, from: data) else {
      throw .decodingFailed
    }
    return try body.challenge.validated()
  }

  static func session(from data: Data) throws(LoginServiceError) -> Session {
    guard let body = try? JSONDecoder().decode(LoginResponseBody.self, from: data),
      !body.token.isEmpty, !body.user.username.isEmpty
    else { throw .decodingFailed }
    let user = User(
      id: body.user.id ?? body.user.username,
      username: PersonalData(body.user.username),
      displayName: body.user.name.map { PersonalData($0) },
      email: body.user.email.map { PersonalData($0) })
    return Session(user: user, token: Secret(body.token))
  }
}

/// `{"challenge": {"id": …, "destination": …, "codeLength": 6, "expiresIn": 300}}`.
struct ChallengeResponseBody: Decodable {
  struct Body: Decodable {
    var id: String
    var destination: String
    var codeLength: Int?
    var expiresIn: Int?

    /// The challenge, when every field is something a screen can show: an id, a destination
    /// of at most 200 characters and 800 bytes (one character can carry any number of
    /// combining marks) with no control or other invisible character, a code of 1 to 12
    /// digits, a lifetime that is not negative.
    func validated() throws(LoginServiceError) -> Challenge {
      let length = codeLength ?? 6
      let lifetime = expiresIn ?? 300
      guard !id.isEmpty, id.utf8.count <= 1_024, destination.count <= 200,
        destination.utf8.count <= 800,
        !destination.unicodeScalars.contains(where: { $0.isInvisible }),
        (1...12).contains(length), lifetime >= 0
      else { throw .decodingFailed }
      return Challenge(
        id: id, destination: destination, codeLength: length, expiresInSeconds: lifetime)
    }
  }

  var challenge: Body
}
