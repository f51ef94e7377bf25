import Foundation

extension SecondsDecoder {
  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    func contains(_ key: Key) -> Bool { base.contains(key) }
    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
      try base.decode(type, forKey: key)
    }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
      try base.decode(type, forKey: key)
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
      if Value.self == Duration.self,
        let duration = try SecondsDecoder.duration(
          seconds: base.decode(Decimal.self, forKey: key), codingPath: codingPath + [key])
          as? Value
      {
        return duration
      }
      if SecondsDecoder.isReadByBase(Value.self) { return try base.decode(type, forKey: key) }
      return try base.decode(SecondsDecoder.Wrapped<Value>.self, forKey: key).value
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      KeyedDecodingContainer(
        Keyed<NestedKey>(base: try base.nestedContainer(keyedBy: type, forKey: key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      Unkeyed(base: try base.nestedUnkeyedContainer(forKey: key))
    }

    func superDecoder() throws -> any Decoder { SecondsDecoder(base: try base.superDecoder()) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      SecondsDecoder(base: try base.superDecoder(forKey: key))
    }
  }

  struct Unkeyed: UnkeyedDecodingContainer {
    var base: any UnkeyedDecodingContainer

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool { try base.decodeNil() }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try base.decode(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try base.decode(type) }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
      if Value.self == Duration.self {
        let path = codingPath + [CanonicalJSONEncoder.IndexKey(index: currentIndex)]
        if let duration = try SecondsDecoder.duration(
          seconds: base.decode(Decimal.self), codingPath: path) as? Value
        {
          return duration
        }
      }
      if SecondsDecoder.isReadByBase(Value.self) { return try base.decode(type) }
      return try base.decode(SecondsDecoder.Wrapped<Value>.self).value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
      KeyedDecodingContainer(Keyed<NestedKey>(base: try base.nestedContainer(keyedBy: type)))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      Unkeyed(base: try base.nestedUnkeyedContainer())
    }

    mutating func superDecoder() throws -> any Decoder {
      SecondsDecoder(base: try base.superDecoder())
    }
  }

  struct Single: SingleValueDecodingContainer {
    let base: any SingleValueDecodingContainer
    let decoder: SecondsDecoder

    var codingPath: [any CodingKey] { base.codingPath }

    func decodeNil() -> Bool { base.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try base.decode(type) }
    func decode(_ type: String.Type) throws -> String { try base.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try base.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try base.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try base.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try base.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try base.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try base.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try base.decode(type) }
    func decode(_ type: Int128.Type) throws -> Int128 { try base.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try base.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try base.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try base.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try base.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try base.decode(type) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try base.decode(type) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
      if Value.self == Duration.self,
        let duration = try SecondsDecoder.duration(
          seconds: base.decode(Decimal.self), codingPath: codingPath) as? Value
      {
        return duration
      }
      if SecondsDecoder.isReadByBase(Value.self) { return try base.decode(type) }
      return try Value(from: decoder)
    }
  }
}
