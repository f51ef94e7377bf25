import Foundation

extension CanonicalJSONDecoder {
  /// A keyed container's object: its path, and its members by key.
  ///
  /// A key is found by its bytes when every key of the object is plain printable ASCII, as
  /// canonical JSON writes keys: one after the other in a small object, by binary search in a
  /// large one (its members sorted once, so a large dictionary decodes in n log n). An object
  /// with another key (an escape, a letter outside ASCII) compares keys as `String`s, as
  /// `JSONDecoder` does, after checking every key once. With two members of one key, the
  /// first counts, as in `JSONDecoder`.
  final class ObjectFrame: CodingPathNode {
    let reader: ValueReader
    let object: Int
    private let index: MemberIndex?

    /// Objects of more members than this get an index.
    private static var scannedMembers: Int { 16 }

    private enum MemberIndex {
      /// Plain keys: the key tokens, sorted by their bytes (first the first of equal ones).
      case sorted([Int])
      /// Other keys: the first value of each.
      case hashed([String: Int])
    }

    /// The container of token `object`, the value at `key` in the container at `parent`.
    init(
      reader: ValueReader, object: Int, parent: CodingPathNode?, key: (any CodingKey)?
    ) throws {
      guard reader.kind(object) == .object else {
        let path = CodingPathNode.path(parent, key)
        guard reader.kind(object) == .null else {
          throw reader.mismatch([String: Any].self, object, at: path)
        }
        throw DecodingError.valueNotFound(
          [String: Any].self,
          .init(
            codingPath: path,
            debugDescription: "Cannot get keyed decoding container -- found null value instead"))
      }
      self.reader = reader
      self.object = object
      let tape = reader.tape
      let isPlain = tape.tokens[object].flags == 0
      var names: [String: Int] = [:]
      if !isPlain {
        for (keyToken, valueToken) in Self.members(of: object, in: tape) {
          guard let name = Self.name(of: keyToken, in: tape) else {
            throw DecodingError.dataCorrupted(
              .init(
                codingPath: CodingPathNode.path(parent, key),
                debugDescription: "expected keys that are JSON strings: UTF-8 without control "
                  + "characters, and escapes as JSON writes them"))
          }
          if names[name] == nil { names[name] = valueToken }
        }
      }
      if tape.count(of: object) <= Self.scannedMembers {
        index = nil
      } else if isPlain {
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
      super.init(parent: parent, key: key)
    }

    /// The key and value tokens of `object`'s members, in order.
    static func members(of object: Int, in tape: JSONTape) -> [(key: Int, value: Int)] {
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
    static func name(of key: Int, in tape: JSONTape) -> String? {
      let contents = tape.text(of: key)
      return tape.tokens[key].flags == 0
        ? String(decoding: contents, as: UTF8.self) : JSONString.value(ofContents: contents)
    }

    /// The value token of the member named `name`, or `nil`.
    func member(named name: String) -> Int? {
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
        let found = name.utf8.withContiguousStorageIfAvailable { utf8 in
          scan(for: utf8, name: name, tokens: tape.tokens, bytes: tape.bytes)
        }
        return found
          ?? scan(for: Array(name.utf8), name: name, tokens: tape.tokens, bytes: tape.bytes)
      }
    }

    /// The value token of the member whose key is `utf8` (`name`), one member after another.
    private func scan<UTF8: RandomAccessCollection<UInt8>>(
      for utf8: UTF8, name: String, tokens: [JSONTape.Token], bytes: ArraySlice<UInt8>
    ) -> Int? where UTF8.Index == Int {
      let length = utf8.count
      var key = object + 1
      for _ in 0..<Int(tokens[object].endOrCount) {
        let token = tokens[key]
        if token.flags == 0 {
          let start = Int(token.start) + 1
          if Int(token.endOrCount) - 1 - start == length {
            var offset = 0
            while offset < length, bytes[start + offset] == utf8[utf8.startIndex + offset] {
              offset += 1
            }
            if offset == length { return key + 1 }
          }
        } else if JSONString.value(
          ofContents: bytes[(Int(token.start) + 1)..<(Int(token.endOrCount) - 1)]) == name
        {
          return key + 1
        }
        key = Int(tokens[key + 1].next)
      }
      return nil
    }
  }

  /// An object's members, by key (``ObjectFrame``).
  struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let frame: ObjectFrame

    private var reader: ValueReader { frame.reader }

    var codingPath: [any CodingKey] { CodingPathNode.path(frame, nil) }

    var allKeys: [Key] {
      let tape = reader.tape
      let count = tape.count(of: frame.object)
      var keys: [Key] = []
      keys.reserveCapacity(count)
      // Each name once: the first member of a key counts.
      var seen: Set<String> = []
      var token = frame.object + 1
      for member in 0..<count {
        defer { token = tape.next(after: token + 1) }
        // Checked when the container was made.
        guard let name = ObjectFrame.name(of: token, in: tape) else { continue }
        if member > 0 {
          if seen.isEmpty, let first = ObjectFrame.name(of: frame.object + 1, in: tape) {
            seen.insert(first)
          }
          guard seen.insert(name).inserted else { continue }
        }
        if let key = Key(stringValue: name) { keys.append(key) }
      }
      return keys
    }

    private func value(_ key: Key) throws -> Int {
      guard let value = frame.member(named: key.stringValue) else {
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
      guard let value = frame.member(named: key.stringValue), reader.kind(value) != .null else {
        return nil
      }
      return value
    }

    private func path(_ key: Key) -> [any CodingKey] { CodingPathNode.path(frame, key) }

    func contains(_ key: Key) -> Bool { frame.member(named: key.stringValue) != nil }

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
    // Each width named here, so the reader's integer function is specialized for it.
    func decode(_: Int.Type, forKey key: Key) throws -> Int {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: Int128.Type, forKey key: Key) throws -> Int128 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 {
      try reader.integer(value(key), at: path(key))
    }
    func decode(_: UInt128.Type, forKey key: Key) throws -> UInt128 {
      try reader.integer(value(key), at: path(key))
    }
    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
      try reader.unwrap(type, value(key), parent: frame, key: key)
    }

    // One lookup each, where the protocol's own would make three.
    func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? {
      guard let value = present(key) else { return nil }
      return try reader.bool(value, at: path(key))
    }
    func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? {
      guard let value = present(key) else { return nil }
      return try reader.string(value, at: path(key))
    }
    func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? {
      guard let value = present(key) else { return nil }
      return try reader.double(value, at: path(key))
    }
    func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? {
      guard let value = present(key) else { return nil }
      return try reader.integer(value, at: path(key))
    }
    func decodeIfPresent<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value? {
      guard let value = present(key) else { return nil }
      return try reader.unwrap(type, value, parent: frame, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      KeyedDecodingContainer(
        KeyedReader<NestedKey>(
          frame: try ObjectFrame(reader: reader, object: value(key), parent: frame, key: key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      UnkeyedReader(
        frame: try ArrayFrame(reader: reader, array: value(key), parent: frame, key: key))
    }

    func superDecoder() throws -> any Decoder {
      let key = CanonicalJSONEncoder.SuperKey()
      return ValueReader(
        tape: reader.tape, form: reader.form, token: frame.member(named: key.stringValue) ?? -1,
        parent: frame, key: key)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      ValueReader(
        tape: reader.tape, form: reader.form, token: frame.member(named: key.stringValue) ?? -1,
        parent: frame, key: key)
    }
  }

  /// An unkeyed container's array: its path and its count.
  final class ArrayFrame: CodingPathNode {
    let reader: ValueReader
    let count: Int
    /// The token of the first element.
    let first: Int

    /// The container of token `array`, the value at `key` in the container at `parent`.
    init(reader: ValueReader, array: Int, parent: CodingPathNode?, key: (any CodingKey)?) throws {
      guard reader.kind(array) == .array else {
        let path = CodingPathNode.path(parent, key)
        guard reader.kind(array) == .null else {
          throw reader.mismatch([Any].self, array, at: path)
        }
        throw DecodingError.valueNotFound(
          [Any].self,
          .init(
            codingPath: path,
            debugDescription: "Cannot get unkeyed decoding container -- found null value instead"
          ))
      }
      self.reader = reader
      count = reader.tape.count(of: array)
      first = array + 1
      super.init(parent: parent, key: key)
    }
  }

  /// An array's elements, one after the other (three words: no box of its own as
  /// `any UnkeyedDecodingContainer`).
  struct UnkeyedReader: UnkeyedDecodingContainer {
    let frame: ArrayFrame
    private(set) var currentIndex = 0
    /// The token of element `currentIndex`.
    private var position: Int

    init(frame: ArrayFrame) {
      self.frame = frame
      position = frame.first
    }

    private var reader: ValueReader { frame.reader }
    private var path: CodingPathNode { frame }
    private var elementCount: Int { frame.count }

    var codingPath: [any CodingKey] { CodingPathNode.path(frame, nil) }
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
      let container = KeyedReader<NestedKey>(
        frame: try ObjectFrame(
          reader: reader, object: next(KeyedDecodingContainer<NestedKey>.self), parent: frame,
          key: indexKey))
      advance()
      return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let element = try next(
        UnkeyedDecodingContainer.self,
        "Cannot get nested unkeyed container -- unkeyed container is at end.")
      let container = UnkeyedReader(
        frame: try ArrayFrame(reader: reader, array: element, parent: frame, key: indexKey))
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
