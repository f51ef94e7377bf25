import Foundation
import StateStore

/// The JSON a login service answers a successful login with.
///
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
  /// - Throws: ``LoginServiceError/decodingFailed`` when `data` is not this JSON, or its token
  ///   or username is empty.
  static func session(from data: Data) throws(LoginServiceError) -> Session {
    guard let body = try? JSONDecoder().decode(LoginResponseBody.self, from: data),
      !body.token.isEmpty, !body.user.username.isEmpty
    else { throw .decodingFailed }
    let user = User(
      id: body.user.id ?? body.user.username,
      username: body.user.username,
      displayName: body.user.name,
      email: body.user.email)
    return Session(user: user, token: Secret(body.token))
  }
}
