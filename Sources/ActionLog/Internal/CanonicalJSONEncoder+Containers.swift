import Foundation

extension CanonicalJSONEncoder {
  /// The `Encoder` a value's `encode(to:)` receives; also its single-value container.
  ///
  /// Like `JSONEncoder`'s, asking twice for a keyed (or unkeyed) container returns the same
  /// one. Mixing kinds, or a second single value, breaks the `Encoder` contract (`JSONEncoder`
  /// traps); here it marks the encoding unsupported so the fallback decides.
  final class ValueEncoder: Encoder, SingleValueEncodingContainer {
    let core: Core
    private(set) var parent: Int
    private(set) var key: (any CodingKey)?
    var node: Node?

    init(core: Core, parent: Int, key: (any CodingKey)?) {
      self.core = core
      self.parent = parent
      self.key = key
    }

    func reset(parent: Int, key: (any CodingKey)?) {
      self.parent = parent
      self.key = key
      node = nil
    }

    var codingPath: [any CodingKey] { core.codingPath(frame: parent, key: key) }
    var userInfo: [CodingUserInfoKey: Any] { core.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      KeyedEncodingContainer(KeyedContainer<Key>(core: core, frame: frame(isObject: true)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
      UnkeyedContainer(core: core, frame: frame(isObject: false))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    private func frame(isObject: Bool) -> Int {
      if case .frame(let index) = node, core.frames[index].isObject == isObject { return index }
      if node != nil {
        core.fail(
          "a container requested after another value at the same path",
          at: core.pathText(frame: parent, key: key))
      }
      let index = core.makeFrame(isObject: isObject, parent: parent, key: key, nestedIn: nil)
      if node == nil { node = .frame(index) }
      return index
    }

    private func set(_ value: Node) {
      if node != nil {
        core.fail(
          "a second single value at the same path", at: core.pathText(frame: parent, key: key))
      }
      node = value
    }

    func encodeNil() throws { set(core.writeLiteral("null")) }
    func encode(_ value: Bool) throws { set(core.writeLiteral(value ? "true" : "false")) }
    func encode(_ value: String) throws { set(core.writeString(value)) }
    func encode(_ value: Double) throws {
      set(try core.writeFloat(value, at: core.pathText(frame: parent, key: key)))
    }
    func encode(_ value: Float) throws {
      set(try core.writeFloat(value, at: core.pathText(frame: parent, key: key)))
    }
    func encode(_ value: Int) throws { set(core.writeInteger(value)) }
    func encode(_ value: Int8) throws { set(core.writeInteger(value)) }
    func encode(_ value: Int16) throws { set(core.writeInteger(value)) }
    func encode(_ value: Int32) throws { set(core.writeInteger(value)) }
    func encode(_ value: Int64) throws { set(core.writeInteger(value)) }
    func encode(_ value: Int128) throws { set(core.writeInteger(value)) }
    func encode(_ value: UInt) throws { set(core.writeInteger(value)) }
    func encode(_ value: UInt8) throws { set(core.writeInteger(value)) }
    func encode(_ value: UInt16) throws { set(core.writeInteger(value)) }
    func encode(_ value: UInt32) throws { set(core.writeInteger(value)) }
    func encode(_ value: UInt64) throws { set(core.writeInteger(value)) }
    func encode(_ value: UInt128) throws { set(core.writeInteger(value)) }

    func encode<Value: Encodable>(_ value: Value) throws {
      // JSONEncoder encodes a nested single value with the same encoder: same path.
      set(try core.encodeValue(value, parent: parent, key: key) ?? .emptyObject)
    }
  }

  /// The key of an element of an unkeyed container, for `codingPath`.
  struct IndexKey: CodingKey {
    var intValue: Int?
    // JSONEncoder names them so in coding paths.
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
  }

  /// The key `superEncoder()` uses.
  struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(intValue: Int) { nil }
    init?(stringValue: String) { if stringValue != "super" { return nil } }
  }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let core: Core
    let frame: Int

    var codingPath: [any CodingKey] { core.codingPath(frame: frame, key: nil) }

    private func put(_ node: Node, _ key: Key) {
      core.append(node, key: key.stringValue, to: frame)
    }

    mutating func encodeNil(forKey key: Key) throws { put(core.writeLiteral("null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      put(core.writeLiteral(value ? "true" : "false"), key)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      put(core.writeString(value), key)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      put(try core.writeFloat(value, at: core.pathText(frame: frame, key: key)), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
      put(try core.writeFloat(value, at: core.pathText(frame: frame, key: key)), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: Int128, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
      put(core.writeInteger(value), key)
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
      let mark = core.mark()
      let node = try core.encodeValue(value, in: frame, key: key)
      put(try core.collapse(node, since: mark, in: frame, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = core.makeFrame(isObject: true, parent: frame, key: key, nestedIn: frame)
      put(.frame(nested), key)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(core: core, frame: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let nested = core.makeFrame(isObject: false, parent: frame, key: key, nestedIn: frame)
      put(.frame(nested), key)
      return UnkeyedContainer(core: core, frame: nested)
    }

    mutating func superEncoder() -> any Encoder {
      let encoder = core.superEncoder(in: frame, key: SuperKey())
      core.append(.deferred(encoder), key: "super", to: frame)
      return encoder
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      let encoder = core.superEncoder(in: frame, key: key)
      put(.deferred(encoder), key)
      return encoder
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let core: Core
    let frame: Int

    var codingPath: [any CodingKey] { core.codingPath(frame: frame, key: nil) }
    var count: Int { core.frames[frame].entries.count + core.frames[frame].elementsInLeaves }

    private func put(_ node: Node) { core.append(node, key: "", to: frame) }

    mutating func encodeNil() throws { put(core.writeLiteral("null")) }
    mutating func encode(_ value: Bool) throws { put(core.writeLiteral(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { put(core.writeString(value)) }
    mutating func encode(_ value: Double) throws {
      put(try core.writeFloat(value, at: core.pathText(frame: frame, key: nil, index: count)))
    }
    mutating func encode(_ value: Float) throws {
      put(try core.writeFloat(value, at: core.pathText(frame: frame, key: nil, index: count)))
    }
    mutating func encode(_ value: Int) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: Int8) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: Int16) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: Int32) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: Int64) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: Int128) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: UInt) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: UInt8) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: UInt16) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: UInt32) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: UInt64) throws { put(core.writeInteger(value)) }
    mutating func encode(_ value: UInt128) throws { put(core.writeInteger(value)) }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
      let key = IndexKey(index: count)
      let mark = core.mark()
      let node = try core.encodeValue(value, in: frame, key: key)
      put(try core.collapse(node, since: mark, in: frame, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = core.makeFrame(
        isObject: true, parent: frame, key: IndexKey(index: count), nestedIn: frame)
      put(.frame(nested))
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(core: core, frame: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let nested = core.makeFrame(
        isObject: false, parent: frame, key: IndexKey(index: count), nestedIn: frame)
      put(.frame(nested))
      return UnkeyedContainer(core: core, frame: nested)
    }

    mutating func superEncoder() -> any Encoder {
      let encoder = core.superEncoder(in: frame, key: IndexKey(index: count))
      put(.deferred(encoder))
      return encoder
    }
  }
}
