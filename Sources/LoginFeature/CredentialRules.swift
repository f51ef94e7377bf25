import StateStore

/// The rules a login form is validated against, and how many failures lock it.
///
/// Rules are data, not closures, and they live inside ``LoginState``: the reducer stays a pure
/// function of the state and the action, and a replayed action log re-validates every keystroke
/// with exactly the rules the original run used.
///
/// Three presets cover the products we know of:
///
/// - ``default``: username 2…10 characters after trimming surrounding whitespace; password
///   at least 3 characters with an uppercase letter and a decimal digit.
/// - ``email``: the username is an email — it contains `@` and `.`, has at most 64
///   characters and starts with a letter or digit; the password is longer than 8 characters.
/// - ``minimumLength(_:)``: username and password both at least *n* characters.
///
/// Each preset allows 5 failed attempts and then locks the form for 30 seconds.
///
/// Characters are grapheme clusters: `"👩‍👩‍👧"` and `"é"` (with a combining accent) count as one
/// each.
///
/// ```swift
/// let state = LoginState(rules: .email)
/// CredentialRules.default.validate(username: "demo", password: "Secr3t")  // []
/// ```
public struct CredentialRules: Sendable, Equatable, Codable {
  /// Which validation rules apply to the username and the password.
  public enum Kind: Sendable, Equatable, Codable {
    /// Username 2…10 characters; password at least 3 characters with an uppercase letter and
    /// a decimal digit.
    case `default`
    /// Username is an email (contains `@` and `.`, at most 64 characters, starts with a letter
    /// or digit); password longer than 8 characters.
    case email
    /// Username and password both at least this many characters.
    case minimumLength(Int)
  }

  /// Which validation rules apply.
  public var kind: Kind
  /// How many failed attempts with invalid credentials lock the form. Default: 5.
  public var maxAttempts: Int
  /// How long the form stays locked after the last allowed failure. Default: 30 seconds.
  public var lockoutDuration: Duration

  /// Creates rules.
  ///
  /// - Parameters:
  ///   - kind: Which validation rules apply.
  ///   - maxAttempts: How many failures with invalid credentials lock the form.
  ///   - lockoutDuration: How long the form stays locked.
  public init(
    kind: Kind = .default,
    maxAttempts: Int = 5,
    lockoutDuration: Duration = .seconds(30)
  ) {
    self.kind = kind
    self.maxAttempts = maxAttempts
    self.lockoutDuration = lockoutDuration
  }

  /// Username 2…10 characters; password at least 3 characters with an uppercase letter and a
  /// decimal digit; 5 attempts, 30 seconds of lockout.
  public static let `default` = CredentialRules()

  /// The username is an email address; the password is longer than 8 characters; 5 attempts,
  /// 30 seconds of lockout.
  public static let email = CredentialRules(kind: .email)

  /// Username and password both at least `length` characters; 5 attempts, 30 seconds of
  /// lockout.
  ///
  /// - Parameter length: The minimum number of characters of each field.
  /// - Returns: The rules.
  public static func minimumLength(_ length: Int) -> CredentialRules {
    CredentialRules(kind: .minimumLength(length))
  }

  /// Every rule the username and password break, in a stable order: username rules first.
  ///
  /// The password is judged by its length and character classes only (uppercase, lowercase,
  /// decimal digit, whitespace, other), the same classes its ``StateStore/Secret/mask`` keeps. So a
  /// password read back from an action log — which holds the mask — breaks exactly the same
  /// rules as the original.
  ///
  /// - Parameters:
  ///   - username: The username as typed; surrounding whitespace is ignored.
  ///   - password: The password.
  /// - Returns: The broken rules; empty when the form is valid.
  public func validate(username: String, password: Secret) -> [LoginFormValidationError] {
    let name = username.trimmingSurroundingWhitespace()
    // The mask has the same length and classes as the password; judging the mask keeps the
    // clear value out of everything below.
    let shape = Secret.mask(of: password.reveal())
    var errors: [LoginFormValidationError] = []
    if kind == .email {
      if let error = Self.validateEmail(name) { errors.append(error) }
    } else if !usernameLength.allows(name.count) {
      errors.append(.invalidUsernameLength)
    }
    if !passwordLength.allows(shape.count) { errors.append(.invalidPasswordLength) }
    if kind == .default, !shape.contains("A") || !shape.contains("0") {
      errors.append(.invalidPasswordCharacters)
    }
    return errors
  }

  /// The username's length limit: what ``validate(username:password:)`` checks and what the
  /// message says. The email rules check an address instead; their message for a username
  /// length is the default one.
  package var usernameLength: LengthLimit {
    switch kind {
    case .default, .email: .between(2, 10)
    case .minimumLength(let length): .atLeast(length)
    }
  }

  /// The password's length limit: what ``validate(username:password:)`` checks and what the
  /// message says.
  package var passwordLength: LengthLimit {
    switch kind {
    case .default: .atLeast(3)
    case .email: .longerThan(8)
    case .minimumLength(let length): .atLeast(length)
    }
  }

  /// The user-facing message for `error` under these rules.
  ///
  /// Length messages are written from the very limits ``validate(username:password:)``
  /// checks, so `.minimumLength(6)` says "at least 6 characters" where ``default`` says "2 to
  /// 10 characters", and `.minimumLength(1)` says "at least 1 character".
  ///
  /// - Parameter error: A broken rule.
  /// - Returns: One sentence a person can act on.
  public func message(for error: LoginFormValidationError) -> String {
    switch error {
    case .invalidUsernameLength: "Username must be \(usernameLength.phrase)"
    case .invalidPasswordLength: "Password must be \(passwordLength.phrase)"
    case .invalidPasswordCharacters: "Password needs an uppercase letter and a digit"
    case .emptyEmail: "Email can't be empty"
    case .invalidEmail: "Email is not valid"
    }
  }

  /// The rule the email address breaks, the same check the ``email`` rules make of the
  /// username; `nil` for a valid address.
  ///
  /// An address contains `@` and `.`, has at most 64 characters and starts with a letter or
  /// digit; surrounding whitespace is ignored. The password-reset step checks the address it
  /// asks for with it, whatever the form's rules are.
  ///
  /// ```swift
  /// CredentialRules.validateEmail("ada@example.com")  // nil
  /// CredentialRules.validateEmail("  ")               // .emptyEmail
  /// CredentialRules.validateEmail("ada")              // .invalidEmail
  /// ```
  ///
  /// - Parameter address: The address as typed.
  /// - Returns: ``LoginFormValidationError/emptyEmail``,
  ///   ``LoginFormValidationError/invalidEmail``, or `nil`.
  public static func validateEmail(_ address: String) -> LoginFormValidationError? {
    let trimmed = address.trimmingSurroundingWhitespace()
    if trimmed.isEmpty { return .emptyEmail }
    return isEmail(trimmed) ? nil : .invalidEmail
  }

  private static func isEmail(_ string: String) -> Bool {
    guard let first = string.first, first.isLetter || first.isNumber else { return false }
    return string.count <= 64 && string.contains("@") && string.contains(".")
  }
}
