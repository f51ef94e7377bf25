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
      ("  ab  ", true), ("   ", false), (" a ", false),
      ("a b", true), ("  abcdefghij  ", true),
    ])
  func defaultUsernameIsTwoToTenCharactersAfterTrimming(username: String, isValid: Bool) {
    let errors = CredentialRules.default.validate(username: username, password: "Secr3t")
    #expect(errors == (isValid ? [] : [.invalidUsernameLength]))
  }

  /// Not among the arguments above: the test's name with this argument would print its line
  /// break as it is, a stray line in the suite's output.
  @Test func tabsAndLineBreaksAroundAUsernameAreTrimmed() {
    #expect(CredentialRules.default.validate(username: "\t\nab\n", password: "Secr3t") == [])
    #expect(
      CredentialRules.default.validate(username: "\t\na\n", password: "Secr3t")
        == [.invalidUsernameLength])
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

  @Test(arguments: [1, 2, 3, 6, 10, 64, 1_000])
  func minimumLengthMessagesReadNaturallyAndMatchTheRule(limit: Int) {
    let rules = CredentialRules.minimumLength(limit)
    let characters = limit == 1 ? "1 character" : "\(limit) characters"
    #expect(rules.message(for: .invalidUsernameLength) == "Username must be at least \(characters)")
    #expect(rules.message(for: .invalidPasswordLength) == "Password must be at least \(characters)")
    // The message's number is the rule's: one character short fails, the limit passes.
    let short = String(repeating: "a", count: limit - 1)
    let enough = String(repeating: "a", count: limit)
    #expect(
      rules.validate(username: short, password: Secret(short))
        == [.invalidUsernameLength, .invalidPasswordLength])
    #expect(rules.validate(username: enough, password: Secret(enough)) == [])
  }

  @Test(arguments: [
    (LengthLimit.atLeast(0), "at least 0 characters"),
    (.atLeast(-5), "at least 0 characters"),
    (.atLeast(1), "at least 1 character"),
    (.atLeast(2), "at least 2 characters"),
    (.atLeast(10), "at least 10 characters"),
    (.longerThan(0), "at least 1 character"),
    (.longerThan(1), "longer than 1 character"),
    (.longerThan(2), "longer than 2 characters"),
    (.longerThan(8), "longer than 8 characters"),
    (.between(1, 1), "exactly 1 character"),
    (.between(2, 2), "exactly 2 characters"),
    (.between(0, 1), "at most 1 character"),
    (.between(0, 10), "at most 10 characters"),
    (.between(1, 2), "1 to 2 characters"),
    (.between(2, 10), "2 to 10 characters"),
  ])
  func everyLengthLimitReadsNaturally(limit: LengthLimit, phrase: String) {
    #expect(limit.phrase == phrase)
  }

  @Test func thePresetsMessagesComeFromTheLimitsTheyCheck() {
    let presets = [CredentialRules.default, .email, .minimumLength(6)]
    for rules in presets {
      #expect(
        rules.message(for: .invalidPasswordLength)
          == "Password must be \(rules.passwordLength.phrase)")
    }
    #expect(CredentialRules.default.usernameLength == .between(2, 10))
    #expect(CredentialRules.default.passwordLength == .atLeast(3))
    #expect(CredentialRules.email.passwordLength == .longerThan(8))
    // Each preset's password limit is the one validate applies, at the edge.
    for (rules, shortest) in [(CredentialRules.default, 3), (.email, 9), (.minimumLength(6), 6)] {
      let passing = Secret("A1" + String(repeating: "a", count: shortest - 2))
      let failing = Secret("A1" + String(repeating: "a", count: shortest - 3))
      let username = rules.kind == .email ? "ada@example.com" : "abcdef"
      #expect(
        !rules.validate(username: username, password: passing).contains(.invalidPasswordLength))
      #expect(
        rules.validate(username: username, password: failing).contains(.invalidPasswordLength))
      #expect(rules.passwordLength.allows(shortest) && !rules.passwordLength.allows(shortest - 1))
    }
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
