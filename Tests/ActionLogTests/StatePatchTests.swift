import ActionLog
import Foundation
import StateStore
import Testing
import ToolTestSupport

/// A step line's patch rebuilds the state after the step from the state before it, byte for
/// byte, whatever changed: scalars, members added and removed (keys that need escapes
/// included), arrays that grow, shrink or change type, and whole values. The patch of a small
/// change to a large state stays small.
struct StatePatchTests {
  /// Any JSON value; its canonical bytes come from the package's encoder (keys sorted).
  indirect enum JSON: Encodable, Equatable {
    case number(Int)
    case text(String)
    case flag(Bool)
    case null
    case list([JSON])
    case object([String: JSON])

    func encode(to encoder: any Encoder) throws {
      switch self {
      case .number(let value):
        var container = encoder.singleValueContainer()
        try container.encode(value)
      case .text(let value):
        var container = encoder.singleValueContainer()
        try container.encode(value)
      case .flag(let value):
        var container = encoder.singleValueContainer()
        try container.encode(value)
      case .null:
        var container = encoder.singleValueContainer()
        try container.encodeNil()
      case .list(let values):
        var container = encoder.unkeyedContainer()
        for value in values { try container.encode(value) }
      case .object(let members):
        var container = encoder.container(keyedBy: NamedKey.self)
        for (key, value) in members {
          try container.encode(value, forKey: NamedKey(stringValue: key))
        }
      }
    }

    var bytes: [UInt8] {
      get throws { try CanonicalJSONEncoder().encode(self) }
    }
  }

  /// Keys chosen to sort differently escaped and unescaped (`/` is written `\/`).
  private static let keys = ["a", "b", "B", "_0", "/", "a/b", "q\"", "é", "line\nbreak", "zz"]

  private static func randomValue(depth: Int, _ random: inout SeededGenerator) -> JSON {
    let pick =
      depth > 2 ? Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<6, using: &random)
    switch pick {
    case 0: return .number(Int.random(in: -1000...1000, using: &random))
    case 1: return .text(keys.randomElement(using: &random)!)
    case 2: return .flag(Bool.random(using: &random))
    case 3: return .null
    case 4:
      return .list(
        (0..<Int.random(in: 0...5, using: &random)).map { _ in
          randomValue(depth: depth + 1, &random)
        })
    default:
      var members: [String: JSON] = [:]
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        members[keys.randomElement(using: &random)!] = randomValue(depth: depth + 1, &random)
      }
      return .object(members)
    }
  }

  /// `value` with one random change somewhere in it (or none, now and then).
  private static func mutated(_ value: JSON, depth: Int, _ random: inout SeededGenerator) -> JSON {
    switch (value, Int.random(in: 0..<10, using: &random)) {
    case (_, 0): return randomValue(depth: depth, &random)
    case (.list(var values), let roll) where !values.isEmpty:
      switch roll {
      case 1: values.removeLast(Int.random(in: 1...values.count, using: &random))
      case 2: values.append(randomValue(depth: depth + 1, &random))
      case 3: values.remove(at: Int.random(in: 0..<values.count, using: &random))
      default:
        let index = Int.random(in: 0..<values.count, using: &random)
        values[index] = mutated(values[index], depth: depth + 1, &random)
      }
      return .list(values)
    case (.object(var members), let roll) where !members.isEmpty:
      let key = members.keys.sorted().randomElement(using: &random)!
      switch roll {
      case 1: members[key] = nil
      case 2: members[keys.randomElement(using: &random)!] = randomValue(depth: depth + 1, &random)
      default: members[key] = mutated(members[key]!, depth: depth + 1, &random)
      }
      return .object(members)
    case (.number(let number), 1...5): return .number(number + 1)
    default: return value
    }
  }

  @Test func aChainOfRandomPatchesRebuildsEveryStateExactly() throws {
    var random = SeededGenerator(seed: 0x5747_E9A7)
    for _ in 0..<200 {
      var value = Self.randomValue(depth: 0, &random)
      var rebuilt = StatePatch.Rebuilt(base: try value.bytes[...])
      for _ in 0..<8 {
        let next = Self.mutated(value, depth: 0, &random)
        let patch = StatePatch.patch(from: try value.bytes, to: try next.bytes)
        if next == value { #expect(patch == Array("[]".utf8)) }
        try rebuilt.apply(patch[...])
        let text = String(decoding: patch, as: UTF8.self)
        #expect(rebuilt.bytes == (try next.bytes), "patch \(text)")
        value = next
      }
    }
  }

  /// The documented examples, byte for byte.
  @Test func aPatchIsWrittenInTheDocumentedForm() throws {
    func patch(_ old: JSON, _ new: JSON) throws -> String {
      String(decoding: StatePatch.patch(from: try old.bytes, to: try new.bytes), as: UTF8.self)
    }
    let item: (String) -> JSON = { label in
      .object(["id": .number(7), "label": .text(label), "notes": .text("a long note, kept")])
    }
    let before = JSON.object([
      "items": .list([item("a"), item("b"), item("draft")]), "username": .text("d"),
      "notice": .text("Hi"),
    ])
    var after = before
    if case .object(var members) = after {
      members["username"] = .text("demo")
      members["items"] = .list([item("a"), item("b"), item("published")])
      members["notice"] = nil
      after = .object(members)
    }
    #expect(
      try patch(before, after)
        == #"[{"at":["items",2,"label"],"value":"published"},{"at":["username"],"value":"demo"},"#
        + #"{"at":["notice"],"remove":true}]"#)
    #expect(
      try patch(
        .list([.number(1), .number(2), .number(3)]), .list([.number(4), .number(5), .number(6)]))
        == #"[{"at":[],"value":[4,5,6]}]"#)
    #expect(
      try patch(
        .list([.text("long value 1"), .text("long value 2")]), .list([.text("long value 1")]))
        == #"[{"at":[],"count":1}]"#)
    #expect(
      try patch(
        .object(["a": .list([.text("x")])]), .object(["a": .list([.text("x"), .text("y")])]))
        == #"[{"at":["a",1],"value":"y"}]"#)
    #expect(try patch(.number(1), .text("one")) == #"[{"at":[],"value":"one"}]"#)
    #expect(try patch(.number(1), .number(1)) == "[]")
  }

  /// The committed vectors of the "Action logs and replay" article: each pair of states gives
  /// its patch byte for byte, and the patch turns the first into the second.
  @Test func everyPatchVectorIsWrittenAndAppliedAsCommitted() throws {
    let url = ReplayProcess.fixtures.appendingPathComponent("patch-vectors.txt")
    let vectors = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }
    #expect(vectors.count >= 13)
    for vector in vectors {
      let fields = vector.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      try #require(fields.count == 4, "\(vector)")
      let (name, before, after, patch) = (fields[0], fields[1], fields[2], fields[3])
      let written = StatePatch.patch(from: Array(before.utf8), to: Array(after.utf8))
      #expect(String(decoding: written, as: UTF8.self) == patch, "\(name)")
      var rebuilt = StatePatch.Rebuilt(base: Array(before.utf8)[...])
      try rebuilt.apply(Array(patch.utf8)[...])
      #expect(String(decoding: rebuilt.bytes, as: UTF8.self) == after, "\(name)")
    }
  }

  /// A hostile patch whose path is 100,000 keys long is refused before it is walked (walking
  /// it would recurse that deep), and a huge flat patch of real operations still applies.
  @Test func aPathDeeperThanALineMayNestIsRefusedAndALongPatchApplies() throws {
    var rebuilt = StatePatch.Rebuilt(base: Array(#"{"a":1}"#.utf8)[...])
    let deep =
      "[{\"at\":[" + Array(repeating: "\"a\"", count: 100_000).joined(separator: ",")
      + "],\"value\":1}]"
    #expect(
      throws: StatePatch.Malformed(
        reason: "patch operation 1: 'at' is 100000 steps deep (a line nests at most 512 levels)")
    ) {
      try rebuilt.apply(Array(deep.utf8)[...])
    }
    var list = StatePatch.Rebuilt(base: Array(#"{"items":[]}"#.utf8)[...])
    let appends = (0..<50_000).map { #"{"at":["items",\#($0)],"value":\#($0)}"# }
    try list.apply(Array(("[" + appends.joined(separator: ",") + "]").utf8)[...])
    let bytes = list.bytes
    #expect(bytes.count > 200_000)
    #expect(bytes.suffix(13).elementsEqual("49998,49999]}".utf8))
  }

  /// The reader's check that a patch it does not decode is JSON: the grammar, strictly.
  @Test func onlyJSONPassesTheStrictCheck() {
    let valid = [
      "[]", "{}", "0", "-0", "1.5e+3", "-12E-1", "true", "null", #""a\u00e9\ud83d\ude00\/""#,
      #"[{"at":["a",0],"value":{"b":[1,false]}}]"#, "\"é\"",
    ]
    let invalid = [
      "", "[", "[1,]", "{\"a\"}", "{\"a\":}", "01", "1.", "1e", "+1", "tru", "nul", "[1 ]",
      "\"\u{1}\"", #""\x""#, #""\ud83d""#, #""\ude00""#, #""\u12""#, "[][]", "{1:2}", "\"a",
    ]
    for text in valid {
      #expect(JSONValueBytes.isValid(Array(text.utf8)[...], maximumDepth: 8), "\(text)")
    }
    for text in invalid {
      #expect(!JSONValueBytes.isValid(Array(text.utf8)[...], maximumDepth: 8), "\(text)")
    }
    #expect(!JSONValueBytes.isValid([0x22, 0xC3, 0x22][...], maximumDepth: 8), "invalid UTF-8")
    #expect(!JSONValueBytes.isValid(Array("[[[1]]]".utf8)[...], maximumDepth: 2), "too deep")
    #expect(JSONValueBytes.isValid(Array("[[[1]]]".utf8)[...], maximumDepth: 3))
  }

  /// The same login session recorded before steps had patches and with them: the log grows by
  /// at most half (`login-demo`'s scripted sessions measured 1.15–1.44×, see the CHANGELOG).
  @Test func patchesGrowALoginLogByAtMostHalf() throws {
    let size = { (name: String) in
      try Data(contentsOf: ReplayProcess.fixtures.appendingPathComponent(name)).count
    }
    let with = try size("login.jsonl")
    let without = try size("login-before-patches.jsonl")
    #expect(with > without)
    #expect(Double(with) <= 1.5 * Double(without), "\(with) bytes against \(without)")
  }

  @Test func oneChangedItemOfAThousandWritesAFewBytesNotTheList() throws {
    let items = (0..<1_000).map { JSON.object(["id": .number($0), "label": .text("item \($0)")]) }
    var changed = items
    changed[512] = .object(["id": .number(512), "label": .text("renamed")])
    let old = try JSON.object(["items": .list(items)]).bytes
    let new = try JSON.object(["items": .list(changed)]).bytes
    let patch = StatePatch.patch(from: old, to: new)
    #expect(
      String(decoding: patch, as: UTF8.self) == #"[{"at":["items",512,"label"],"value":"renamed"}]"#
    )
    #expect(old.count > 25_000)
  }

  @Test(arguments: [
    ("{}", "the patch is not an array of operations"),
    (#"[{"at":["x"],"value":1}"#, "the patch is not an array of operations"),
    (#"[{"value":1}]"#, "patch operation 1: has no 'at'"),
    (#"[{"at":["a"]}]"#, "patch operation 1: has none of 'value', 'remove', 'count'"),
    (#"[{"at":["a"],"remove":false}]"#, "patch operation 1: 'remove' is not true"),
    (
      #"[{"at":["a"],"value":1,"remove":true}]"#,
      "patch operation 1: has more than one of 'value', 'remove' and 'count'"
    ),
    (
      #"[{"at":["a"],"move":1}]"#,
      "patch operation 1: has the unknown key 'move' (an operation has 'at' and one of 'value', 'remove' and 'count')"
    ),
    (#"[{"at":["a"],"count":-1}]"#, "patch operation 1: 'count' is not a whole number from 0"),
    (#"[{"at":["list"],"count":4}]"#, "patch operation 1: keeps 4 elements of an array of 2"),
    (#"[{"at":["list",3],"value":1}]"#, "patch operation 1: reaches element 3 of an array of 2"),
    (
      #"[{"at":["a",0],"value":1}]"#,
      "patch operation 1: names an index in a value that is not an array"
    ),
    (
      #"[{"at":["list","k"],"value":1}]"#,
      "patch operation 1: names a key in a value that is not an object"
    ),
    (#"[{"at":["nope"],"remove":true}]"#, "patch operation 1: removes a member the state lacks"),
    (
      #"[{"at":["nope","deeper"],"value":1}]"#,
      "patch operation 1: reaches into a member the state lacks"
    ),
    (#"[{"at":[],"remove":true}]"#, "patch operation 1: removes the whole state"),
    (
      #"[{"at":[true],"value":1}]"#,
      "patch operation 1: 'at' holds something that is not a key or an index"
    ),
    (#"[{"at":["a"],"value":1},7]"#, "patch operation 2: not an object"),
  ])
  func aDamagedPatchIsATypedErrorThatSaysWhy(patch: String, reason: String) throws {
    var rebuilt = StatePatch.Rebuilt(base: Array(#"{"a":1,"list":[1,2]}"#.utf8)[...])
    #expect(throws: StatePatch.Malformed(reason: reason)) {
      try rebuilt.apply(Array(patch.utf8)[...])
    }
  }
}
