import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// The package's own decoder: every leaf reads back as the encoder wrote it, whatever JSON
/// `JSONDecoder` read still reads to the same value, and bad input of every kind is a
/// `DecodingError` at the bad value's path, never a trap or a hang.
struct CanonicalDecoderTests {
  // MARK: - Round trips

  @Test(arguments: CanonicalForm.allCases)
  func everyLeafReadsBackAsTheEncoderWroteIt(form: CanonicalForm) throws {
    let value = Leaves()
    let bytes = try CanonicalJSONEncoder(form: form).encode(value)
    let decoded = try CanonicalJSONDecoder(form: form).decode(Leaves.self, from: Data(bytes))
    #expect(decoded == value)
    #expect(decoded.negativeZero.sign == .minus)
    #expect(try CanonicalJSONEncoder(form: form).encode(decoded) == bytes)
    if form == .v1 {
      // Without seconds, the canonical form is what JSONDecoder reads, to the same value.
      #expect(try JSONDecoder().decode(Leaves.self, from: Data(bytes)) == decoded)
    }
  }

  @Test func superDecodersNestedContainersAndOptionalsReadAsJSONDecoderReadsThem() throws {
    let value = Handmade(
      base: Handmade.Base(id: 7), items: [nil, 1], matrix: [[1], [], [2, 3]], note: nil)
    let bytes = Data(try CanonicalJSONEncoder().encode(value))
    #expect(try CanonicalJSONDecoder().decode(Handmade.self, from: bytes) == value)
    #expect(try JSONDecoder().decode(Handmade.self, from: bytes) == value)
    for text in ["null", "1", "[1]"] {
      let data = Data(#"{"value":\#(text)}"#.utf8)
      #expect(
        (try? CanonicalJSONDecoder().decode(Boxed<Int??>.self, from: data).value)
          == (try? JSONDecoder().decode(Boxed<Int??>.self, from: data).value), "\(text)")
    }
  }

  // MARK: - JSON that is not canonical

  @Test(arguments: [
    #" { "b" : 2 ,"a":1 } "#, "\t{\n\"a\":1,\r\n\"b\":2}\n", "\u{FEFF}{\"a\":1,\"b\":2}",
    #"{"a":1e0,"b":2.0}"#, #"{"a":10e-1,"b":0.2E1}"#, #"{"a":1,"b":2,}"#, #"{"a":1,"a":3,"b":2}"#,
    #"{"\u0061":1,"b":2}"#, #"{"a":-0,"b":2,"junk":"\ud800","more":1.2.3,"raw":"\#u{1}"}"#,
    #"{"a":1.0000000000000001,"b":2}"#,
  ])
  func jsonThatIsNotCanonicalReadsAsJSONDecoderReadsIt(text: String) throws {
    let data = Data(text.utf8)
    #expect(
      try CanonicalJSONDecoder().decode(Pair.self, from: data)
        == JSONDecoder().decode(Pair.self, from: data))
  }

  @Test func numbersStringsAndListsInAnyNotationReadAsJSONDecoderReadsThem() throws {
    let data = Data(
      #"""
      {"double": 1.5e300, "float": -1E-3, "text": "\u00e9\ud83d\ude00\/\b\f\n\r\t\"\\",
       "list": [1, 2, 3,], "date": 1e3, "decimal": 12.50E1, "data": "AQI=",
       "url": "https:\/\/example.com", "int128": 1e18}
      """#.utf8)
    let mine = try CanonicalJSONDecoder().decode(Assorted.self, from: data)
    #expect(mine == (try JSONDecoder().decode(Assorted.self, from: data)))
    #expect(mine.text == "é😀/\u{8}\u{C}\n\r\t\"\\" && mine.int128 == 1_000_000_000_000_000_000)
  }

  /// Canonical JSON of a login session, spaced out, its members shuffled and its strings
  /// escaped at random: read to what `JSONDecoder` reads, and to the value written.
  @Test func reformattedCanonicalJSONReadsAsJSONDecoderReadsIt() throws {
    var random = SeededGenerator(seed: 46)
    let user = User(id: "7", username: "Zoë \"Z\" \\ 😀", displayName: "Zoë\u{1}\u{2028}")
    let values = [
      LoginState(), LoginState(username: "dé😀", password: "Pa55", isLoading: true),
      LoginState(failedAttempts: 5, isLocked: true, lockedFor: .milliseconds(29_999)),
      LoginState(attemptID: .max, user: user, notice: "line\nbreak\t/"),
    ]
    for value in values {
      let bytes = try CanonicalJSONEncoder(form: .v1).encode(value)
      for _ in 0..<5 {
        let text = Reformatter.reformat(bytes, using: &random)
        let mine = try CanonicalJSONDecoder(form: .v1).decode(LoginState.self, from: text)
        #expect(mine == (try JSONDecoder().decode(LoginState.self, from: text)))
        #expect(
          mine == (try CanonicalJSONDecoder(form: .v1).decode(LoginState.self, from: Data(bytes))))
      }
    }
  }

  @Test func largeObjectsFindTheirKeysByIndexFirstOfTwoWinning() throws {
    var random = SeededGenerator(seed: 7)
    let names = (0..<300).map { "key\($0)" }
    let plain = names.shuffled(using: &random).map { #""\#($0)":\#($0.dropFirst(3))"# }
    let escaped = names.map { #""\u006b\#($0.dropFirst())":\#($0.dropFirst(3))"# }
    for members in [plain, escaped, plain + [#""key7":-1"#], [#""key7":-1"#] + plain] {
      let data = Data(("{" + members.joined(separator: ",") + "}").utf8)
      let mine = try CanonicalJSONDecoder().decode([String: Int].self, from: data)
      #expect(mine == (try JSONDecoder().decode([String: Int].self, from: data)))
      #expect(mine.count == 300)
    }
  }

  // MARK: - Bad input

  @Test(arguments: [
    ("name", #""\ud800""#), ("name", #""\udc00x""#), ("name", "\"a\u{1}b\""), ("name", #""\x""#),
    ("name", #""\u12G4""#), ("count", "128"), ("count", "-129"), ("count", "1.5"),
    ("count", "1e999999999999999999999"), ("count", "-"), ("count", "01"), ("ratio", "1e400"),
    ("ratio", "1e-400"), ("ratio", "1.e5"), ("amount", "1e400"), ("wait", "1e-19"),
    ("wait", "1e40"), ("stamp", "1e999"), ("blob", #""AQI""#), ("link", #""""#),
  ])
  func aBadValueIsDataCorruptedAtItsPathSayingWhatItMustBe(field: String, text: String) {
    let data = Data(Target.json(replacing: field, with: text).utf8)
    let error = Self.error(decoding: Target.self, from: data)
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("\(field) = \(text): \(String(describing: error))")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == [field], "\(text)")
    #expect(context.debugDescription.hasPrefix("expected "), "\(context.debugDescription)")
    if field == "name" {
      #expect(!context.debugDescription.contains(text), "the value is quoted")
    }
  }

  @Test func invalidUTF8InAStringIsDataCorruptedAtItsPath() {
    var bytes = Array(Target.json(replacing: "name", with: #""@@""#).utf8)
    let at = bytes.firstIndex(of: UInt8(ascii: "@"))!
    bytes[at] = 0xC3
    bytes[at + 1] = 0x28
    guard case .dataCorrupted(let context)? = Self.error(decoding: Target.self, from: Data(bytes))
    else {
      Issue.record("invalid UTF-8 read")
      return
    }
    #expect(context.codingPath.map(\.stringValue) == ["name"])
  }

  /// The kinds of error `JSONDecoder` gives, at the same paths.
  @Test(arguments: [
    #"{"count":1}"#, #"{"name":null,"count":1}"#, #"{"name":"a","count":null}"#,
    #"{"name":"a","count":"1"}"#, #"{"name":1,"count":1}"#, #"{"name":"a","count":1,"flag":null}"#,
    #"{"name":"a","count":1,"list":{}}"#, #"{"name":"a","count":1,"list":[1,"x"]}"#,
    #"{"name":"a","count":1,"inner":[]}"#, #"{"name":"a","count":1,"inner":null}"#, "[]", "7",
  ])
  func wrongKindsFailAsInJSONDecoder(text: String) {
    let data = Data(text.utf8)
    let mine = Self.error(decoding: Loose.self, from: data)
    let theirs = Self.jsonDecoderError(decoding: Loose.self, from: data)
    #expect(mine.map(Self.summary) == theirs.map(Self.summary), "\(text)")
    #expect(mine != nil)
  }

  @Test func everyCutOfAValueIsNotJSONAtTheTop() throws {
    let bytes = try CanonicalJSONEncoder().encode(Leaves())
    for end in 0..<bytes.count {
      let error = Self.error(decoding: Leaves.self, from: Data(bytes[..<end]))
      guard case .dataCorrupted(let context)? = error, context.codingPath.isEmpty else {
        Issue.record("cut at \(end): \(String(describing: error))")
        return
      }
    }
  }

  @Test func nestingIsBoundedWithoutRecursion() throws {
    func nested(_ depth: Int) -> Data {
      Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    }
    #expect(try CanonicalJSONDecoder().decode(Depth.self, from: nested(512)).levels == 512)
    for depth in [513, 100_000] {
      guard
        case .dataCorrupted(let context)? = Self.error(decoding: Depth.self, from: nested(depth))
      else {
        Issue.record("\(depth) levels read")
        return
      }
      #expect(context.codingPath.isEmpty)
      #expect(context.debugDescription.contains("nested more than 512 levels deep"))
    }
    // Unclosed, and objects.
    let open = Data(String(repeating: #"{"a":"#, count: 100_000).utf8)
    #expect(Self.error(decoding: Depth.self, from: open) != nil)
  }

  @Test func randomBytesNeverTrap() {
    var random = SeededGenerator(seed: 4_646)
    let alphabet = Array(#"{}[],:"\ u0123456789.eE+-tfnrl"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...40, using: &random)
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
      _ = Self.error(decoding: Leaves.self, from: Data(bytes))
      _ = Self.error(decoding: [String: [Int?]].self, from: Data(bytes))
    }
  }

  /// A username whose escape is half a surrogate pair: the reader names the field and says
  /// what a string must be (it said "not valid JSON").
  @Test func theReaderNamesTheFieldOfABadString() throws {
    let folder = try TemporaryFolder()
    let lines = try String(
      contentsOf: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    let bad = lines[1].replacing(#""value":"d""#, with: #""value":"\ud800""#)
    #expect(bad != lines[1])
    let url = try folder.write("bad.jsonl", lines: [lines[0], bad])
    #expect(throws: ActionLogError.self) { try Replayer(reducer: LoginReducer()).replay(url) }
    do {
      _ = try Replayer(reducer: LoginReducer()).replay(url)
    } catch {
      #expect(
        error.description
          == "line 2: malformed: invalid value at 'action.edit._0.value' (expected a JSON "
          + "string: UTF-8 without control characters, and escapes as JSON writes them)")
    }
  }

  // MARK: - Helpers

  private static func error<Value: Decodable>(
    decoding type: Value.Type, from data: Data
  ) -> DecodingError? {
    do {
      _ = try CanonicalJSONDecoder().decode(type, from: data)
      return nil
    } catch let error as DecodingError {
      return error
    } catch {
      Issue.record("not a DecodingError: \(error)")
      return nil
    }
  }

  private static func jsonDecoderError<Value: Decodable>(
    decoding type: Value.Type, from data: Data
  ) -> DecodingError? {
    do {
      _ = try JSONDecoder().decode(type, from: data)
      return nil
    } catch {
      return error as? DecodingError
    }
  }

  /// The error's kind, type or key, and path.
  private static func summary(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map(\.stringValue).joined(separator: ".")
    }
    switch error {
    case .typeMismatch(let type, let context): return "mismatch \(type) at \(path(context))"
    case .valueNotFound(let type, let context): return "null \(type) at \(path(context))"
    case .keyNotFound(let key, let context):
      return "missing \(key.stringValue) at \(path(context))"
    case .dataCorrupted(let context): return "corrupted at \(path(context))"
    @unknown default: return "\(error)"
    }
  }
}

// MARK: - Values

/// Every leaf the canonical form writes.
private struct Leaves: Codable, Equatable {
  var string = "plain"
  var escaped = "quote \" backslash \\ slash / tab \t line \n nul \u{0} unit \u{1F} é 😀 \u{2028}"
  var bool = true
  var int = Int.min
  var int8 = Int8.min
  var int16 = Int16.max
  var int32 = Int32.min
  var int64 = Int64.max
  var int128 = Int128.min
  var uint = UInt.max
  var uint8 = UInt8.max
  var uint16 = UInt16.max
  var uint32 = UInt32.max
  var uint64 = UInt64.max
  var uint128 = UInt128.max
  var doubles = [0.1, 1e16, 1e300, -123_456.789, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
  var negativeZero = -0.0
  var floats: [Float] = [0.1, 3, -1e10, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
  var date = Date(timeIntervalSinceReferenceDate: 123_456.789)
  var data = Data([0, 1, 2, 254, 255])
  var url = URL(string: "https://example.com/a?b=c#d")!
  var decimal = Decimal(string: "-12345678901234567890.123456789")!
  var durations = CanonicalDurationTests.edges
  var optional: Int? = nil
  var nested: Int?? = .some(.some(3))
  var list: [Int?] = [1, nil, 3]
  var byName = Dictionary(uniqueKeysWithValues: (0..<40).map { ("name \($0)", $0) })
  var byNumber: [Int: String] = [3: "c", -1: "a"]
  var empty: [String] = []
  var emptyObject: [String: Int] = [:]
  var choices: [Choice] = [.none, .one("a"), .pair(2, label: "y")]
}

private enum Choice: Codable, Equatable {
  case none
  case one(String)
  case pair(Int, label: String)
}

private struct Pair: Decodable, Equatable {
  var a: Int
  var b: Int
}

private struct Boxed<Value: Decodable>: Decodable {
  var value: Value
}

private struct Assorted: Decodable, Equatable {
  var double: Double
  var float: Float
  var text: String
  var list: [Int]
  var date: Date
  var decimal: Decimal
  var data: Data
  var url: URL
  var int128: Int128
}

/// One field of each kind of leaf, for bad values.
private struct Target: Decodable {
  var name: String
  var count: Int8
  var ratio: Double
  var amount: Decimal
  var wait: Duration
  var stamp: Date
  var blob: Data
  var link: URL

  static func json(replacing field: String, with text: String) -> String {
    var fields = [
      "name": #""n""#, "count": "1", "ratio": "0.5", "amount": "1.25", "wait": "30",
      "stamp": "0", "blob": #""AQI=""#, "link": #""https://example.com""#,
    ]
    fields[field] = text
    return "{" + fields.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",") + "}"
  }
}

private struct Loose: Decodable {
  struct Inner: Decodable { var x: Int }
  var name: String
  var count: Int
  var flag: Bool?
  var list: [Int]?
  var inner: Inner?

  enum CodingKeys: CodingKey { case name, count, flag, list, inner }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    count = try container.decode(Int.self, forKey: .count)
    flag = container.contains(.flag) ? try container.decode(Bool.self, forKey: .flag) : nil
    list = try container.decodeIfPresent([Int].self, forKey: .list)
    inner = container.contains(.inner) ? try container.decode(Inner.self, forKey: .inner) : nil
  }
}

/// Nested arrays, counted with nested containers: no recursion.
private struct Depth: Decodable {
  var levels = 1

  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    while !container.isAtEnd {
      container = try container.nestedUnkeyedContainer()
      levels += 1
    }
  }
}

/// `superEncoder`, `superDecoder`, nested containers and `nil`s by hand.
private struct Handmade: Codable, Equatable {
  struct Base: Codable, Equatable { var id: Int }
  enum Keys: CodingKey { case base, items, matrix, note }

  var base: Base
  var items: [Int?]
  var matrix: [[Int]]
  var note: String?

  init(base: Base, items: [Int?], matrix: [[Int]], note: String?) {
    (self.base, self.items, self.matrix, self.note) = (base, items, matrix, note)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    base = try Base(from: container.superDecoder(forKey: .base))
    var list = try container.nestedUnkeyedContainer(forKey: .items)
    items = []
    while !list.isAtEnd { items.append(try list.decodeNil() ? nil : list.decode(Int.self)) }
    var rows = try container.nestedUnkeyedContainer(forKey: .matrix)
    matrix = []
    while !rows.isAtEnd {
      let row = try rows.superDecoder()
      matrix.append(try [Int](from: row))
    }
    note =
      try container.decodeNil(forKey: .note) ? nil : container.decode(String.self, forKey: .note)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try base.encode(to: container.superEncoder(forKey: .base))
    var list = container.nestedUnkeyedContainer(forKey: .items)
    for item in items {
      if let item { try list.encode(item) } else { try list.encodeNil() }
    }
    var rows = container.nestedUnkeyedContainer(forKey: .matrix)
    for row in matrix { try row.encode(to: rows.superEncoder()) }
    try container.encodeNil(forKey: .note)
  }
}

/// Rewrites canonical JSON as JSON another writer could have written: whitespace between
/// tokens, an object's members in another order, characters of strings escaped as `\uXXXX`.
private struct Reformatter {
  let bytes: [UInt8]
  var index = 0
  var out = ""

  static func reformat(_ bytes: [UInt8], using random: inout SeededGenerator) -> Data {
    var reformatter = Reformatter(bytes: bytes)
    reformatter.out = reformatter.value(&random)
    return Data(reformatter.out.utf8)
  }

  private static func space(_ random: inout SeededGenerator) -> String {
    [" ", "", "\n", "\t ", "\r\n"].randomElement(using: &random)!
  }

  private mutating func value(_ random: inout SeededGenerator) -> String {
    let start = index
    switch bytes[index] {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let isObject = bytes[index] == UInt8(ascii: "{")
      index += 1
      var parts: [String] = []
      while bytes[index] != UInt8(ascii: isObject ? "}" : "]") {
        if bytes[index] == UInt8(ascii: ",") { index += 1 }
        var part = value(&random)
        if isObject {
          index += 1  // the colon
          part += Self.space(&random) + ":" + Self.space(&random) + value(&random)
        }
        parts.append(part)
      }
      index += 1
      if isObject { parts.shuffle(using: &random) }
      let separator = "," + Self.space(&random)
      return (isObject ? "{" : "[") + Self.space(&random) + parts.joined(separator: separator)
        + Self.space(&random) + (isObject ? "}" : "]")
    case UInt8(ascii: "\""):
      index += 1
      while bytes[index] != UInt8(ascii: "\"") {
        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
      }
      index += 1
      let text = (try? JSONDecoder().decode(String.self, from: Data(bytes[start..<index]))) ?? ""
      var escaped = "\""
      for unit in text.utf16 {
        if let scalar = Unicode.Scalar(unit), unit >= 0x20, unit != 0x22, unit != 0x5C,
          !Bool.random(using: &random)
        {
          escaped.unicodeScalars.append(scalar)
        } else {
          escaped += String(format: "\\u%04x", unit)
        }
      }
      return escaped + "\""
    default:
      while index < bytes.count, !",]}".utf8.contains(bytes[index]) { index += 1 }
      return String(decoding: bytes[start..<index], as: UTF8.self)
    }
  }
}
