import Foundation
import StateStore
import Testing

struct SecretTests {
  private let canary = "Canary-9-Pass"

  @Test func maskKeepsLengthAndCharacterClasses() {
    #expect(Secret.mask(of: "Ab3x") == "Aa0a")
    #expect(Secret.mask(of: "Pass word 9!") == "Aaaa aaaa 0*")
    #expect(Secret.mask(of: "") == "")
    #expect(Secret.mask(of: "Éé٣😀") == "Aa0*")  // ٣ is an Arabic-Indic decimal digit
    #expect(Secret.mask(of: "tab\there") == "aaa\taaaa")
    #expect(Secret("e\u{301}X").mask == "aA")
  }

  @Test func maskOfAMaskIsItself() {
    for value in ["Secr3t", "hunter2", "P@ss w0rd", "ÄÖÜ123", ""] {
      let mask = Secret.mask(of: value)
      #expect(Secret.mask(of: mask) == mask)
    }
  }

  @Test func descriptionsNeverShowTheValue() {
    let secret = Secret(canary)
    #expect(secret.description == "Secret(Aaaaaa*0*Aaaa)")
    #expect(String(describing: secret) == "Secret(Aaaaaa*0*Aaaa)")
    #expect(String(reflecting: secret) == "Secret(Aaaaaa*0*Aaaa)")
    #expect("\(secret)" == "Secret(Aaaaaa*0*Aaaa)")
    #expect(!"\([secret])".contains(canary))
    #expect(!"\(Optional(secret) as Any)".contains(canary))
  }

  @Test func dumpAndMirrorNeverShowTheValue() {
    struct Form {
      var password: Secret
    }
    var dumped = ""
    dump(Form(password: Secret(canary)), to: &dumped)
    #expect(!dumped.contains(canary))
    #expect(dumped.contains("Aaaaaa*0*Aaaa"))

    let children = Mirror(reflecting: Secret(canary)).children.map { "\($0.value)" }
    #expect(children == ["Aaaaaa*0*Aaaa"])
    #expect(
      Dump.render(Form(password: Secret(canary)))
        == "SecretTests.Form(\n  password: Secret(Aaaaaa*0*Aaaa)\n)")
  }

  @Test func jsonHoldsTheMaskOnly() throws {
    struct SignInForm: Codable {
      var username: String
      var password: Secret
    }
    let data = try JSONEncoder().encode(SignInForm(username: "demo", password: Secret(canary)))
    let json = String(decoding: data, as: UTF8.self)
    #expect(!json.contains(canary))
    #expect(json.contains(#""password":"Aaaaaa*0*Aaaa""#))

    let decoded = try JSONDecoder().decode(SignInForm.self, from: data)
    #expect(decoded.password.reveal() == "Aaaaaa*0*Aaaa")
    #expect(decoded.password.mask == Secret(canary).mask)
  }

  @Test func decodingSomethingOtherThanAStringThrows() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Secret].self, from: Data("[42]".utf8))
    }
  }

  @Test func revealReturnsTheClearValueAndEqualityUsesIt() {
    let secret: Secret = "Secr3t"
    #expect(secret.reveal() == "Secr3t")
    #expect(secret == Secret("Secr3t"))
    #expect(secret != Secret("Secr4t"))
    #expect(Set([secret, Secret("Secr3t")]).count == 1)
    #expect(Secret("").isEmpty)
  }
}

struct SecretMaskFastPathTests {
  /// The ASCII fast path must agree with the character rules for every ASCII character.
  @Test func asciiMasksMatchTheCharacterRules() {
    for value in 0..<128 {
      let character = Character(Unicode.Scalar(UInt8(value)))
      let expected: String =
        if character.isWhitespace {
          String(character)
        } else if character.isUppercase {
          "A"
        } else if character.isLowercase {
          "a"
        } else if character.isWholeNumber {
          "0"
        } else {
          "*"
        }
      #expect(Secret.mask(of: String(character)) == expected, "character \(value)")
    }
    #expect(Secret.mask(of: "Ab3 x\r\n!") == "Aa0 a\r\n*")
    #expect(Secret.mask(of: "Ab3é") == "Aa0a")
  }
}
