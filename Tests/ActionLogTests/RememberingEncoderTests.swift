import ActionLog
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// The replay's encoder remembers the top-level object's values between states, and every
/// encoder remembers how it sorted an object's keys. Neither may change a single byte: each
/// encoding here is checked against `JSONEncoder` with `.sortedKeys`, which writes the first
/// version of the canonical form, and the second version against an encoder that remembers
/// nothing.
struct RememberingEncoderTests {
  @Test func aRandomSessionEncodesEveryStateLikeJSONEncoder() throws {
    var random = SeededGenerator(seed: 20_261_125)
    let generator = LoginActionGenerator(longTextPerMille: 20)
    let reducer = LoginReducer()
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    let remembering = CanonicalJSONEncoder(remembersTopLevelValues: true)
    let fresh = CanonicalJSONEncoder()
    var state = LoginState(rules: .email)
    var changed = 0
    for step in 0..<2_000 {
      let action = generator.next(for: state, using: &random)
      let before = state
      _ = WarningLog.expectingAbsentChildWarnings {
        reducer.reduce(into: &state, action: action)
      }
      if state != before { changed += 1 }
      try CanonicalReference.expectSameBytes(state, encoder)
      #expect(try remembering.encode(state) == fresh.encode(state))
      // Other top-level types in between make it forget, then start again.
      if step.isMultiple(of: 7) {
        try CanonicalReference.expectSameBytes(action, encoder)
        #expect(try remembering.encode(action) == fresh.encode(action))
      }
      if step.isMultiple(of: 50) { state.lockedFor = .milliseconds(step) }
      if step.isMultiple(of: 50) { state.rules = step.isMultiple(of: 100) ? .default : .email }
    }
    #expect(changed > 500)
  }

  /// A value of megabytes is not remembered whole (a copy of it and its bytes, held between
  /// encodings): only its elements are. Smaller values still are, and the bytes do not change.
  @Test func aValueOfMegabytesIsNotRememberedWhole() throws {
    struct Large: Encodable {
      var name = Small()
      var lines: [String]
    }
    struct Small: Codable, Equatable {
      var title = "notes"
    }
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true)
    var large = Large(lines: (0..<40_000).map { "line number \($0) of the notes" })
    for index in 0..<3 {
      large.lines[index] = "changed \(index)"
      #expect(try encoder.encode(large) == CanonicalJSONEncoder().encode(large))
      #expect(encoder.rememberedValueBytes > 0, "the small value is remembered")
      #expect(encoder.rememberedValueBytes < 1_024, "the list of 1.4 MB is not")
    }
  }

  @Test func aValueThatChangesIsEncodedAgain() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    var state = LoginState(rules: .minimumLength(3))
    try CanonicalReference.expectSameBytes(state, encoder)
    try CanonicalReference.expectSameBytes(state, encoder)
    state.rules.maxAttempts = 9
    try CanonicalReference.expectSameBytes(state, encoder)
    state.user = User(id: "1", username: "ada")
    try CanonicalReference.expectSameBytes(state, encoder)
    state.user = nil  // the keys after it move up one place
    try CanonicalReference.expectSameBytes(state, encoder)
    state.user = User(id: "1", username: "ada", email: "a@b.c")
    try CanonicalReference.expectSameBytes(state, encoder)
  }

  @Test func theSameKeyWithAnotherTypeIsNotTakenFromMemory() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    try CanonicalReference.expectSameBytes(Shifting(payload: .number(1)), encoder)
    try CanonicalReference.expectSameBytes(
      Shifting(payload: .pair(Pair(left: 1, right: 2))), encoder)
    try CanonicalReference.expectSameBytes(Shifting(payload: .list([1, 2])), encoder)
    try CanonicalReference.expectSameBytes(
      Shifting(payload: .pair(Pair(left: 1, right: 2))), encoder)
    try CanonicalReference.expectSameBytes(
      Shifting(payload: .pair(Pair(left: 2, right: 1))), encoder)
  }

  @Test func valuesThatAreNotEquatableAreEncodedEveryTime() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    for count in 0..<5 {
      try CanonicalReference.expectSameBytes(
        Opaque(inner: NotEquatable(count: count), rules: .email), encoder)
    }
  }

  @Test func anObjectChangedInPlaceIsEncodedAgain() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    let holder = Holder(model: Model(count: 1))
    try CanonicalReference.expectSameBytes(holder, encoder)
    holder.model.count = 2  // the same instance: `==` against the kept reference is true
    try CanonicalReference.expectSameBytes(holder, encoder)
    #expect(
      String(decoding: try encoder.encode(holder), as: UTF8.self) == #"{"model":{"count":2}}"#)
  }

  @Test func aTopLevelDictionaryWithManyKeysStaysBoundedAndRight() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    var dictionary: [String: Pair] = [:]
    for index in 0..<300 {
      dictionary["key\(index)"] = Pair(left: index, right: -index)
      if index.isMultiple(of: 3) { dictionary["key\(index / 2)"] = Pair(left: 0, right: 0) }
      try CanonicalReference.expectSameBytes(dictionary, encoder)
    }
  }

  @Test func aValueThatCannotBeReproducedStillFallsBackAndIsNotRemembered() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    #expect(throws: CanonicalJSONEncoder.Unsupported.self) {
      try encoder.encode(Measured(reading: Reading(value: .nan)))
    }
    try CanonicalReference.expectSameBytes(Measured(reading: Reading(value: 1.5)), encoder)
    try CanonicalReference.expectSameBytes(Measured(reading: Reading(value: 1.5)), encoder)
    #expect(throws: CanonicalJSONEncoder.Unsupported.self) {
      try encoder.encode(Measured(reading: Reading(value: .infinity)))
    }
    try CanonicalReference.expectSameBytes(Measured(reading: Reading(value: 2)), encoder)
  }

  @Test func theRememberedDigestIsTheDigestOfTheJSONEncoderBytes() throws {
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: true, form: .v1)
    var state = LoginState(rules: .minimumLength(4), username: "ada")
    for attempt in 1...3 {
      state.attemptID = attempt
      let expected = StateDigest.fnv1a(try CanonicalReference.encoder.encode(state))
      #expect(try CanonicalJSON.digest(state, using: encoder) == expected)
    }
  }

  // MARK: - Sorting keys once per shape

  @Test func theSameKeysInAnotherOrderAreSortedAgain() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    let orders = [
      ["b", "a", "c"], ["a", "b", "c"], ["c", "b", "a"], ["c", "a"], ["a", "c", "b"],
    ]
    for keys in orders + orders {
      let bytes = try encoder.encode(InOrder(keys: keys))
      let expected =
        "{"
        + keys.sorted().map { "\"\($0)\":\($0.utf8.first!)" }.joined(
          separator: ",") + "}"
      #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }
  }

  @Test func aKeyWrittenTwiceIsRefusedEvenAfterTheShapeWasSorted() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    _ = try encoder.encode(InOrder(keys: ["b", "a"]))
    #expect(throws: CanonicalJSONEncoder.Unsupported.self) {
      try encoder.encode(InOrder(keys: ["b", "b"]))
    }
    _ = try encoder.encode(InOrder(keys: ["b", "a"]))
    #expect(throws: CanonicalJSONEncoder.Unsupported.self) {
      try encoder.encode(InOrder(keys: ["a", "b", "a"]))
    }
  }

  // MARK: - Digest text

  @Test func aDigestMatchesOnlyItsOwnSixteenLowercaseDigits() {
    var random = SeededGenerator(seed: 16)
    for hash in [0, 1, 0xa, UInt64.max, 0x0123_4567_89ab_cdef]
      + (0..<200).map({ _ in
        random.next()
      })
    {
      let text = StateDigest.hex(hash)
      #expect(StateDigest.hash(hash, isWrittenAs: text))
      #expect(!StateDigest.hash(hash &+ 1, isWrittenAs: text))
      #expect(!StateDigest.hash(hash ^ (1 << 63), isWrittenAs: text))
      #expect(!StateDigest.hash(hash, isWrittenAs: String(text.dropFirst())))
      #expect(!StateDigest.hash(hash, isWrittenAs: text + "0"))
      if text.contains(where: \.isLetter) {
        #expect(!StateDigest.hash(hash, isWrittenAs: text.uppercased()))
      }
    }
    #expect(!StateDigest.hash(1, isWrittenAs: "+000000000000001"))
    #expect(!StateDigest.hash(0, isWrittenAs: ""))
  }
}

private struct Pair: Codable, Equatable {
  var left: Int
  var right: Int
}

/// One key whose value has another type from one encoding to the next.
private struct Shifting: Encodable {
  enum Payload {
    case number(Int)
    case pair(Pair)
    case list([Int])
  }

  var payload: Payload

  enum CodingKeys: CodingKey { case payload, after }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch payload {
    case .number(let number): try container.encode(number, forKey: .payload)
    case .pair(let pair): try container.encode(pair, forKey: .payload)
    case .list(let list): try container.encode(list, forKey: .payload)
    }
    try container.encode(Pair(left: 0, right: 0), forKey: .after)
  }
}

private final class Model: Encodable, Equatable {
  var count: Int
  init(count: Int) { self.count = count }
  static func == (left: Model, right: Model) -> Bool { left.count == right.count }
}

private struct Holder: Encodable {
  var model: Model
}

private struct NotEquatable: Encodable {
  var count: Int
}

private struct Opaque: Encodable {
  var inner: NotEquatable
  var rules: CredentialRules
}

private struct Reading: Encodable, Equatable {
  var value: Double
}

private struct Measured: Encodable {
  var reading: Reading
}

/// An object whose keys come in the given order, each holding its first byte.
private struct InOrder: Encodable {
  var keys: [String]

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NamedKey.self)
    for key in keys {
      try container.encode(Int(key.utf8.first!), forKey: NamedKey(stringValue: key))
    }
  }
}

/// The elements of a list (or dictionary) directly inside the state are remembered too, by
/// index or key: one changed item of many is the only one encoded again, and the bytes never
/// differ from a fresh encoding.
struct RememberedElementTests {
  /// Counts its own encodings, to see which items were encoded again.
  struct Item: Encodable, Equatable {
    nonisolated(unsafe) static var encodings = 0
    var id: Int
    var name: String
    var tags: [String] = []

    enum CodingKeys: String, CodingKey { case id, name, tags }

    func encode(to encoder: any Encoder) throws {
      Self.encodings += 1
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(name, forKey: .name)
      try container.encode(tags, forKey: .tags)
    }
  }

  struct Inventory: Encodable, Equatable {
    var items: [Item]
    var byName: [String: Item]
    var labels: [String]
    var revision: Int
  }

  @Test(.serialized, arguments: [false, true])
  func oneChangedItemIsTheOnlyOneEncodedAgain(remembers: Bool) throws {
    var inventory = Inventory(
      items: (0..<300).map { Item(id: $0, name: "item \($0)") },
      byName: Dictionary(uniqueKeysWithValues: (0..<20).map { ("k\($0)", Item(id: $0, name: "")) }),
      labels: ["a", "b"], revision: 0)
    let encoder = CanonicalJSONEncoder(remembersTopLevelValues: remembers)
    let fresh = CanonicalJSONEncoder(form: .v1)
    #expect(try encoder.encode(inventory) == fresh.encode(inventory))
    for step in 1...50 {
      inventory.items[step * 5].name += "!"
      inventory.items[step].tags.append("t\(step)")
      if step.isMultiple(of: 10) { inventory.items.removeLast() }
      if step.isMultiple(of: 7) { inventory.items.insert(Item(id: -step, name: "new"), at: 0) }
      inventory.byName["k\(step % 20)"]?.name = "renamed \(step)"
      if step.isMultiple(of: 9) { inventory.byName["k\(step)"] = nil }
      inventory.revision = step
      let expected = try fresh.encode(inventory)
      Item.encodings = 0
      #expect(try encoder.encode(inventory) == expected, "step \(step)")
      if remembers, !step.isMultiple(of: 7) {
        // Two items and one dictionary value changed; an insertion at 0 shifts every index.
        #expect(Item.encodings <= 3, "step \(step): \(Item.encodings) items encoded")
      }
    }
  }
}
