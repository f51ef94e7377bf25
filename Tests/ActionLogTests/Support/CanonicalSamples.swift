import Foundation

/// Values that exercise every corner of an `Encoder`, for `CanonicalEncoderTests`.

struct Widths: Encodable {
  var int8 = Int8.min
  var int16 = Int16.min
  var int32 = Int32.min
  var int64 = Int64.min
  var int128 = Int128.min
  var uint = UInt.max
  var uint8 = UInt8.max
  var uint16 = UInt16.max
  var uint32 = UInt32.max
  var uint64 = UInt64.max
  var uint128 = UInt128.max
  var float = Float(-0.5)
  var double = 2.25
  var bool = true
}

struct Optionals: Encodable {
  var plain: Int?
  var nested: Int??
  var list: [Int?]?
}

struct Wrapper<Inner: Encodable>: Encodable {
  var inner: Inner
}

/// Encodes nothing at all: `{}` when nested, an error at the top level.
struct Nothing: Encodable {
  func encode(to encoder: any Encoder) throws {}
}

/// Writes the same key twice: `JSONEncoder` keeps the last value.
struct TwiceKeyed: Encodable {
  enum Keys: String, CodingKey { case value, other }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(1, forKey: .value)
    try container.encode("x", forKey: .other)
    try container.encode(2, forKey: .value)
  }
}

/// Nested keyed and unkeyed containers, `encodeNil`, and single values, all by hand.
struct Handwritten: Encodable {
  enum Keys: String, CodingKey { case zeta, alpha, middle, list, single, empty, path }
  enum InnerKeys: String, CodingKey { case b, a }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encodeNil(forKey: .zeta)
    var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .alpha)
    try nested.encode(true, forKey: .b)
    var deeper = nested.nestedUnkeyedContainer(forKey: .a)
    try deeper.encodeNil()
    try deeper.encode("x/y")
    var inArray = deeper.nestedContainer(keyedBy: InnerKeys.self)
    try inArray.encode(UInt8(7), forKey: .a)
    var arrayInArray = deeper.nestedUnkeyedContainer()
    try arrayInArray.encode(-1.5)
    try container.encode(Single(text: "one"), forKey: .middle)
    var list = container.nestedUnkeyedContainer(forKey: .list)
    try list.encode(contentsOf: [3, 1, 2])
    try list.encode(Single(text: "two"))
    try container.encode([String: Int](), forKey: .single)
    _ = container.nestedUnkeyedContainer(forKey: .empty)
    try container.encode(container.codingPath.count, forKey: .path)
  }
}

struct Single: Encodable {
  var text: String

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text + "\(encoder.codingPath.count)")
  }
}

/// A subclass that encodes its superclass with `superEncoder()`, keyed and unkeyed.
class Base: Encodable {
  var name = "base"
  var tags = ["t"]
}

final class Derived: Base {
  enum Keys: String, CodingKey { case extra, parent, items }

  override func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(42, forKey: .extra)
    try super.encode(to: container.superEncoder())
    try super.encode(to: container.superEncoder(forKey: .parent))
    var items = container.nestedUnkeyedContainer(forKey: .items)
    try items.encode(1)
    try super.encode(to: items.superEncoder())
    _ = items.superEncoder()
    try items.encode(2)
  }
}
