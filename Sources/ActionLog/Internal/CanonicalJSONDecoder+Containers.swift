import Foundation

extension CanonicalJSONDecoder {
  /// An object's members, by key.
  ///
  /// A key is found by its bytes when every key of the object is plain printable ASCII, as
  /// canonical JSON writes keys: one after the other in a small object, by binary search in a
  /// large one (its members sorted once, so a large dictionary decodes in n log n). An object
  /// with another key (an escape, a letter outside ASCII) compares keys as `String`s, as
  /// `JSONDecoder` does, after checking every key once. With two members of one key, the
  /// first counts, as in `JSONDecoder`.
  struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: ValueReader
    let object: Int
    let path: CodingPathNode?
    private let index: MemberIndex?

    /// Objects of more members than this get an index.
    private static var scannedMembers: Int { 16 }

    private enum MemberIndex {
      /// Plain keys: the key tokens, sorted by their bytes (first the first of equal ones).
      case sorted([Int])
      /// Other keys: the first value of each.
      case hashed([String: Int])
    }

    init(reader: ValueReader, object: Int, path: CodingPathNode?) throws {
      self.reader = reader
      self.object = object
      self.path = path
      guard reader.kind(object) == .object else {
        guard reader.kind(object) == .null else {
          throw reader.mismatch([String: Any].self, object, at: CodingPathNode.path(path, nil))
        }
        throw DecodingError.valueNotFound(
          [String: Any].self,
          .init(
            codingPath: CodingPathNode.path(path, nil),
            debugDescription: "Cannot get keyed decoding container -- found null value instead"))
      }
      let tape = reader.tape
      let isPlain = tape.tokens[object].flags == 0
      var names: [String: Int] = [:]
      if !isPlain {
        for (key, value) in Self.members(of: object, in: tape) {
          guard let name = Self.name(of: key, in: tape) else {
            throw DecodingError.dataCorrupted(
              .init(
                codingPath: CodingPathNode.path(path, nil),
                debugDescription: "expected keys that are JSON strings: UTF-8 without control "
                  + "characters, and escapes as JSON writes them"))
          }
          if names[name] == nil { names[name] = value }
        }
      }
      guard tape.count(of: object) > Self.scannedMembers else {
        index = nil
        return
      }
      if isPlain {
        let keys = Self.members(of: object, in: tape).map(\.key)
        index = .sorted(
          keys.indices.sorted { left, right in
            let leftKey = tape.text(of: keys[left])
            let rightKey = tape.text(of: keys[right])
            return leftKey.lexicographicallyPrecedes(rightKey)
              || (leftKey.elementsEqual(rightKey) && left < right)
          }.map { keys[$0] })
      } else {
        index = .hashed(names)
      }
    }

    /// The key and value tokens of `object`'s members, in order.
    private static func members(of object: Int, in tape: JSONTape) -> [(key: Int, value: Int)] {
      var members: [(key: Int, value: Int)] = []
      members.reserveCapacity(tape.count(of: object))
      var key = object + 1
      for _ in 0..<tape.count(of: object) {
        members.append((key, key + 1))
        key = tape.next(after: key + 1)
      }
      return members
    }

    /// The text of key token `key`; `nil` when it is no JSON string.
    private static func name(of key: Int, in tape: JSONTape) -> String? {
      let contents = tape.text(of: key)
      return tape.tokens[key].flags == 0
        ? String(decoding: contents, as: UTF8.self) : JSONString.value(ofContents: contents)
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(path, nil) }

    var allKeys: [Key] {
      let tape = reader.tape
      var seen: [String] = []
      var seenLots: Set<String> = []
      var keys: [Key] = []
      for (token, _) in Self.members(of: object, in: tape) {
        // Checked when the container was made.
        guard let name = Self.name(of: token, in: tape) else { continue }
        if tape.count(of: object) > Self.scannedMembers {
          guard seenLots.insert(name).inserted else { continue }
        } else {
          guard !seen.contains(name) else { continue }
          seen.append(name)
        }
        if let key = Key(stringValue: name) { keys.append(key) }
      }
      return keys
    }

    /// The value token of the member named `name`, or `nil`.
    private func member(named name: String) -> Int? {
      let tape = reader.tape
      switch index {
      case .hashed(let values)?:
        return values[name]
      case .sorted(let keys)?:
        var low = 0
        var high = keys.count
        while low < high {
          let middle = (low + high) / 2
          if tape.text(of: keys[middle]).lexicographicallyPrecedes(name.utf8) {
            low = middle + 1
          } else {
            high = middle
          }
        }
        guard low < keys.count, tape.text(of: keys[low]).elementsEqual(name.utf8) else {
          return nil
        }
        return keys[low] + 1
      case nil:
        let utf8 = name.utf8
        var key = object + 1
        for _ in 0..<tape.count(of: object) {
          let token = tape.tokens[key]
          if token.flags == 0 {
            if Int(token.endOrCount - token.start) - 2 == utf8.count,
              tape.text(of: key).elementsEqual(utf8)
            {
              return key + 1
            }
          } else if JSONString.value(ofContents: tape.text(of: key)) == name {
            return key + 1
          }
          key = tape.next(after: key + 1)
        }
        return nil
      }
    }

    private func value(_ key: Key) throws -> Int {
      guard let value = member(named: key.stringValue) else {
        throw DecodingError.keyNotFound(
          key,
          .init(
            codingPath: codingPath,
            debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
      }
      return value
    }

    /// The value token of `key` when it is there and not `null`.
    private func present(_ key: Key) -> Int? {
      guard let value = member(named: key.stringValue), reader.kind(value) != .null else {
        return nil
      }
      return value
    }

    private func path(_ key: Key) -> [any CodingKey] { CodingPathNode.path(path, key) }

    func contains(_ key: Key) -> Bool { member(named: key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { reader.kind(try value(key)) == .null }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool {
      try reader.bool(value(key), at: path(key))
    }
    func decode(_: String.Type, forKey key: Key) throws -> String {
      try reader.string(value(key), at: path(key))
    }
    func decode(_: Double.Type, forKey key: Key) throws -> Double {
      try reader.double(value(key), at: path(key))
    }
    func decode(_: Float.Type, forKey key: Key) throws -> Float {
      try reader.float(value(key), at: path(key))
    }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode(_: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
      try reader.unwrap(type, value(key), parent: path, key: key)
    }

    private func integer<Integer: FixedWidthInteger>(_ key: Key) throws -> Integer {
      try reader.integer(value(key), at: path(key))
    }

    // One lookup each, where the protocol's own would make three.
    func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? {
      try present(key).map { try reader.bool($0, at: path(key)) }
    }
    func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? {
      try present(key).map { try reader.string($0, at: path(key)) }
    }
    func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? {
      try present(key).map { try reader.double($0, at: path(key)) }
    }
    func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? {
      try present(key).map { try reader.integer($0, at: path(key)) }
    }
    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
      try present(key).map { try reader.unwrap(type, $0, parent: path, key: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      KeyedDecodingContainer(
        try KeyedReader<NestedKey>(
          reader: reader, object: value(key), path: CodingPathNode(parent: path, key: key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try UnkeyedReader(
        reader: reader, array: value(key), path: CodingPathNode(parent: path, key: key))
    }

    func superDecoder() throws -> any Decoder {
      let key = CanonicalJSONEncoder.SuperKey()
      return ValueReader(
        tape: reader.tape, form: reader.form, token: member(named: key.stringValue) ?? -1,
        parent: path, key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      ValueReader(
        tape: reader.tape, form: reader.form, token: member(named: key.stringValue) ?? -1,
        parent: path, key: key)
    }
  }

  /// An array's elements, one after the other.
  struct UnkeyedReader: UnkeyedDecodingContainer {
    let reader: ValueReader
    let path: CodingPathNode?
    private let elementCount: Int
    private(set) var currentIndex = 0
    /// The token of element `currentIndex`.
    private var position: Int

    init(reader: ValueReader, array: Int, path: CodingPathNode?) throws {
      guard reader.kind(array) == .array else {
        guard reader.kind(array) == .null else {
          throw reader.mismatch([Any].self, array, at: CodingPathNode.path(path, nil))
        }
        throw DecodingError.valueNotFound(
          [Any].self,
          .init(
            codingPath: CodingPathNode.path(path, nil),
            debugDescription: "Cannot get unkeyed decoding container -- found null value instead"
          ))
      }
      self.reader = reader
      self.path = path
      elementCount = reader.tape.count(of: array)
      position = array + 1
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(path, nil) }
    var count: Int? { elementCount }
    var isAtEnd: Bool { currentIndex >= elementCount }

    private var indexKey: CanonicalJSONEncoder.IndexKey { .init(index: currentIndex) }
    private var elementPath: [any CodingKey] { CodingPathNode.path(path, indexKey) }

    /// The token of the next element, for a `type`.
    private func next<Value>(_ type: Value.Type, _ message: String = "Unkeyed container is at end.")
      throws -> Int
    {
      guard currentIndex < elementCount else {
        throw DecodingError.valueNotFound(
          type, .init(codingPath: elementPath, debugDescription: message))
      }
      return position
    }

    private mutating func advance() {
      position = reader.tape.next(after: position)
      currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
      guard reader.kind(try next(Never.self)) == .null else { return false }
      advance()
      return true
    }

    mutating func decode(_: Bool.Type) throws -> Bool {
      let value = try reader.bool(next(Bool.self), at: elementPath)
      advance()
      return value
    }
    mutating func decode(_: String.Type) throws -> String {
      let value = try reader.string(next(String.self), at: elementPath)
      advance()
      return value
    }
    mutating func decode(_: Double.Type) throws -> Double {
      let value = try reader.double(next(Double.self), at: elementPath)
      advance()
      return value
    }
    mutating func decode(_: Float.Type) throws -> Float {
      let value = try reader.float(next(Float.self), at: elementPath)
      advance()
      return value
    }
    mutating func decode(_: Int.Type) throws -> Int { try integer() }
    mutating func decode(_: Int8.Type) throws -> Int8 { try integer() }
    mutating func decode(_: Int16.Type) throws -> Int16 { try integer() }
    mutating func decode(_: Int32.Type) throws -> Int32 { try integer() }
    mutating func decode(_: Int64.Type) throws -> Int64 { try integer() }
    mutating func decode(_: Int128.Type) throws -> Int128 { try integer() }
    mutating func decode(_: UInt.Type) throws -> UInt { try integer() }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try integer() }
    mutating func decode(_: UInt16.Type) throws -> UInt16 { try integer() }
    mutating func decode(_: UInt32.Type) throws -> UInt32 { try integer() }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try integer() }
    mutating func decode(_: UInt128.Type) throws -> UInt128 { try integer() }
    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
      let value = try reader.unwrap(type, next(type), parent: path, key: indexKey)
      advance()
      return value
    }

    private mutating func integer<Integer: FixedWidthInteger>() throws -> Integer {
      let value: Integer = try reader.integer(next(Integer.self), at: elementPath)
      advance()
      return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
      let container = try KeyedReader<NestedKey>(
        reader: reader, object: next(KeyedDecodingContainer<NestedKey>.self),
        path: CodingPathNode(parent: path, key: indexKey))
      advance()
      return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let element = try next(
        UnkeyedDecodingContainer.self,
        "Cannot get nested unkeyed container -- unkeyed container is at end.")
      let container = try UnkeyedReader(
        reader: reader, array: element, path: CodingPathNode(parent: path, key: indexKey))
      advance()
      return container
    }

    mutating func superDecoder() throws -> any Decoder {
      let element = try next(
        (any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
      let decoder = ValueReader(
        tape: reader.tape, form: reader.form, token: element, parent: path, key: indexKey)
      advance()
      return decoder
    }
  }
}
