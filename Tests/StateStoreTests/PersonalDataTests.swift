import Foundation
import StateStore
import Testing

struct PersonalDataTests {
  @Test func theMaskKeepsAtSignsDotsAndWhitespaceAndTheClassOfEveryOtherCharacter() {
    #expect(PersonalData("ada@example.com").mask == "aaa@aaaaaaa.aaa")
    #expect(PersonalData("Ada Lovelace").mask == "Aaa Aaaaaaaa")
    #expect(PersonalData("a..b@@c.").mask == "a..a@@a.")
    #expect(PersonalData("x_9-Z").mask == "a*0*A")
    #expect(PersonalData("Émile.Ø@例え.jp").mask == "Aaaaa.A@**.aa")
    #expect(PersonalData("").mask == "")
    for text in ["ada@example.com", "a..b@@c.", "Émile.Ø@例え.jp", "\u{7}\u{1B}[2J"] {
      let data = PersonalData(text)
      #expect(data.mask.count == text.count)
      #expect(data.masked.mask == data.mask, "a mask masks to itself")
    }
  }

  @Test func itShowsInClearInDescriptionsAndDumps() {
    let name: PersonalData = "ada@example.com"
    #expect("\(name)" == "ada@example.com")
    #expect(Dump.render(name) == Dump.render("ada@example.com"))
    struct Form { var username: PersonalData }
    #expect(Dump.render(Form(username: "ada")).contains("username: \"ada\""))
  }

  @Test func itEncodesInClearUnlessTheEncoderAsksForMasks() throws {
    struct Nested: Codable, Equatable {
      var names: [PersonalData]
      var byRole: [String: PersonalData?]
      var deep: [[PersonalData]]
    }
    let value = Nested(
      names: ["ada@example.com"], byRole: ["owner": "Grace Hopper", "none": nil],
      deep: [["x.y@z"]])
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let clear = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(clear.contains("ada@example.com") && clear.contains("Grace Hopper"))
    #expect(try JSONDecoder().decode(Nested.self, from: Data(clear.utf8)) == value)

    encoder.userInfo[.masksPersonalData] = true
    let masked = String(decoding: try encoder.encode(value), as: UTF8.self)
    #expect(
      masked
        == #"{"byRole":{"none":null,"owner":"Aaaaa Aaaaaa"},"deep":[["a.a@a"]],"names":["aaa@aaaaaaa.aaa"]}"#
    )
    encoder.userInfo[.masksPersonalData] = false
    #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == clear)
  }

  @Test func itComparesAndInterpolatesLikeText() {
    let index = 7
    let name: PersonalData = "user-\(index)"
    #expect(name == PersonalData("user-7"))
    #expect(PersonalData("a") < PersonalData("b"))
    #expect(PersonalData("").isEmpty)
  }
}
