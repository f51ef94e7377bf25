import LoginFeature
import StateStore
import Testing

struct CredentialRulesTests {
  @Test func presetsAllowFiveAttemptsAndLockForThirtySeconds() {
    for rules in [CredentialRules.default, .email, .minimumLength(6)] {
      #expect(rules.maxAttempts == 5)
      #expect(rules.lockoutDuration == .seconds(30))
    }
    #expect(CredentialRules.default.kind == .default)
    #expect(CredentialRules.email.kind == .email)
    #expect(CredentialRules.minimumLength(6).kind == .minimumLength(6))
    #expect(LoginState().rules == .default)
  }

  // MARK: - Default rules

  @Test(
    arguments: [
      ("", false), ("a", false), ("ab", true), ("abcdefghij", true), ("abcdefghijk", false),
      ("  ab  ", true), ("   ", false), (" a ", false), ("\t\nab\n", true),
      ("a b", true), ("  abcdefghij  ", true),
    ])
  func defaultUsernameIsTwoToTenCharactersAfterTrimming(username: String, isValid: Bool) {
    let errors = CredentialRules.default.validate(username: username, password: "Secr3t")
    #expect(errors == (isValid ? [] : [.invalidUsernameLength]))
  }

  @Test(
    arguments: [
      ("👩‍👩‍👧👩‍👩‍👧", true),  // two family emoji, many scalars each
      ("🇫🇷🇩🇪", true),  // two flags
      ("😀", false),
      ("e\u{301}", false),  // one character: e + combining acute
      ("e\u{301}e\u{301}", true),
      (String(repeating: "e\u{301}", count: 10), true),
      (String(repeating: "e\u{301}", count: 11), false),
      (String(repeating: "👍🏽", count: 10), true),
      (String(repeating: "👍🏽", count: 11), false),
      ("日本", true),
      ("\u{3000}日本\u{3000}", true),  // ideographic spaces trimmed
    ])
  func defaultUsernameCountsGraphemeClusters(username: String, isValid: Bool) {
    let errors = CredentialRules.default.validate(username: username, password: "Secr3t")
    #expect(errors == (isValid ? [] : [.invalidUsernameLength]))
  }

  @Test(
    arguments: [
      ("Ab1", [LoginFormValidationError]()),
      ("Secr3t", []),
      ("", [.invalidPasswordLength, .invalidPasswordCharacters]),
      ("A1", [.invalidPasswordLength]),
      ("abc1", [.invalidPasswordCharacters]),
      ("ABCD", [.invalidPasswordCharacters]),
      ("secret", [.invalidPasswordCharacters]),
      ("ÉCOLE1", []),
      ("Ab١", []),  // an Arabic-Indic digit is a decimal digit too
      ("   ", [.invalidPasswordCharacters]),
    ])
  func defaultPasswordNeedsThreeCharactersAnUppercaseLetterAndADigit(
    password: String, expected: [LoginFormValidationError]
  ) {
    let errors = CredentialRules.default.validate(username: "demo", password: Secret(password))
    #expect(errors == expected)
  }

  // MARK: - Email rules

  @Test(
    arguments: [
      ("", [LoginFormValidationError.emptyEmail]),
      ("   ", [.emptyEmail]),
      ("ada@example.com", []),
      ("  ada@example.com  ", []),
      ("1ada@example.com", []),
      ("ada.example.com", [.invalidEmail]),
      ("ada@example", [.invalidEmail]),
      ("@example.com", [.invalidEmail]),
      (".ada@example.com", [.invalidEmail]),
      (String(repeating: "a", count: 52) + "@example.com", []),  // 64 characters
      (String(repeating: "a", count: 53) + "@example.com", [.invalidEmail]),  // 65
    ])
  func emailRulesCheckTheUsernameIsAnEmail(
    username: String, expected: [LoginFormValidationError]
  ) {
    #expect(CredentialRules.email.validate(username: username, password: "123456789") == expected)
  }

  @Test func emailPasswordMustBeLongerThanEightCharacters() {
    let rules = CredentialRules.email
    #expect(
      rules.validate(username: "ada@example.com", password: "12345678") == [.invalidPasswordLength])
    #expect(rules.validate(username: "ada@example.com", password: "123456789") == [])
    #expect(
      rules.validate(username: "", password: "") == [.emptyEmail, .invalidPasswordLength])
  }

  // MARK: - Minimum length

  @Test func minimumLengthAppliesToBothFields() {
    let rules = CredentialRules.minimumLength(6)
    #expect(rules.validate(username: "abcdef", password: "123456") == [])
    #expect(
      rules.validate(username: "abcde", password: "12345")
        == [.invalidUsernameLength, .invalidPasswordLength])
    #expect(rules.validate(username: " abcde ", password: "123456") == [.invalidUsernameLength])
  }

  // MARK: - Messages

  @Test func messagesNameTheLimitsOfTheRulesInForce() {
    #expect(
      LoginFormValidationError.allCases.map(CredentialRules.default.message(for:)) == [
        "Username must be 2 to 10 characters",
        "Password must be at least 3 characters",
        "Password needs an uppercase letter and a digit",
        "Email can't be empty",
        "Email is not valid",
      ])
    #expect(
      LoginFormValidationError.allCases.map(CredentialRules.email.message(for:)) == [
        "Username must be 2 to 10 characters",
        "Password must be longer than 8 characters",
        "Password needs an uppercase letter and a digit",
        "Email can't be empty",
        "Email is not valid",
      ])
    let six = CredentialRules.minimumLength(6)
    #expect(six.message(for: .invalidUsernameLength) == "Username must be at least 6 characters")
    #expect(six.message(for: .invalidPasswordLength) == "Password must be at least 6 characters")
    #expect(
      LoginFormValidationError.allCases.map(\.message)
        == LoginFormValidationError.allCases.map(CredentialRules.default.message(for:)))
  }

  // MARK: - Replays

  @Test(
    arguments: [
      "", "a", "Ab1", "Secr3t", "secret", "SECRET", "P@ss w0rd!", "Ünïcödé9", "👍🏽A1", "e\u{301}A1",
      "123456789", "ab", "        ", "Ab١٢٣", "ΑΒΓ1",
    ])
  func aPasswordAndItsMaskBreakTheSameRules(password: String) {
    let secret = Secret(password)
    let replayed = Secret(secret.mask)
    let usernames = ["demo", "ada@example.com", "abcdef", ""]
    for rules in [CredentialRules.default, .email, .minimumLength(6)] {
      for username in usernames {
        #expect(
          rules.validate(username: username, password: secret)
            == rules.validate(username: username, password: replayed))
      }
    }
  }
}
