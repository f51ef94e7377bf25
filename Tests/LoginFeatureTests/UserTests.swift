import Foundation
import LoginFeature
import Testing

struct UserTests {
  @Test func aUserWrittenBeforeEmailExistedStillDecodes() throws {
    let old = #"{"id": "1", "username": "demo", "displayName": "Demo User"}"#
    let user = try JSONDecoder().decode(User.self, from: Data(old.utf8))
    #expect(user == User(id: "1", username: "demo", displayName: "Demo User", email: nil))
  }

  @Test func theEmailRoundTripsAndIsLeftOutWhenUnknown() throws {
    let ada = User(id: "2", username: "ada", displayName: "Ada", email: "ada@example.com")
    let decoded = try JSONDecoder().decode(User.self, from: JSONEncoder().encode(ada))
    #expect(decoded == ada)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(Fixtures.demo), as: UTF8.self)
    #expect(text == #"{"displayName":"Demo User","id":"1","username":"demo"}"#)
  }
}
