/// A rule of the login form that the username or password breaks.
///
/// Which rules apply depends on the state's ``CredentialRules``: ``CredentialRules/default``
/// checks the username's length and the password's length and characters,
/// ``CredentialRules/email`` checks the email and the password's length, and
/// ``CredentialRules/minimumLength(_:)`` checks both lengths.
///
/// Show ``CredentialRules/message(for:)`` to the user: it names the limits of the rules in
/// force. ``message`` is the text under the default and email rules.
public enum LoginFormValidationError: Error, Sendable, Equatable, Codable, CaseIterable {
  /// The username is too short or too long.
  case invalidUsernameLength
  /// The password is too short.
  case invalidPasswordLength
  /// The password lacks an uppercase letter or a decimal digit.
  case invalidPasswordCharacters
  /// The email field is empty (or only whitespace).
  case emptyEmail
  /// The email field is not an email address.
  case invalidEmail

  /// The user-facing message under the default rules (and the email rules, except for the
  /// password length): ``CredentialRules/message(for:)`` of ``CredentialRules/default``.
  ///
  /// | error                         | message                                          |
  /// |-------------------------------|--------------------------------------------------|
  /// | `invalidUsernameLength`       | Username must be 2 to 10 characters              |
  /// | `invalidPasswordLength`       | Password must be at least 3 characters           |
  /// | `invalidPasswordCharacters`   | Password needs an uppercase letter and a digit   |
  /// | `emptyEmail`                  | Email can't be empty                             |
  /// | `invalidEmail`                | Email is not valid                               |
  public var message: String {
    CredentialRules.default.message(for: self)
  }

  /// Whether the rule is about the password field (otherwise, the username or email field).
  var isAboutPassword: Bool {
    switch self {
    case .invalidPasswordLength, .invalidPasswordCharacters: true
    case .invalidUsernameLength, .emptyEmail, .invalidEmail: false
    }
  }
}
