import Foundation

/// A `Decoder` over `JSONDecoder`'s that reads every `Duration` as a number of seconds.
///
/// Containers wrap `JSONDecoder`'s containers; a value of a type `JSONDecoder` reads in a way
/// of its own (`Date`, `Data`, `URL`, `Decimal`) or a scalar is read by its container, a
/// `Duration` from a `Decimal`, and any other value by its own `init(from:)` over a
/// `SecondsDecoder` of the decoder `JSONDecoder` gives for that place (``Wrapped``), so a
/// `Duration` anywhere inside it is found.
struct SecondsDecoder: Decoder {
  /// A `Value` decoded through a `SecondsDecoder` of the decoder `JSONDecoder` gives for its
  /// place: how the top-level value and every nested value that may hold a `Duration` are read.
  /// Asking `JSONDecoder`'s container for a `Wrapped<Value>` keeps its own decoder and coding
  /// path (a `superDecoder` would allocate a decoder per value).
  struct Wrapped<Value: Decodable>: Decodable {
    var value: Value

    init(from decoder: any Decoder) throws {
      value = try SecondsDecoder(base: decoder).singleValueContainer().decode(Value.self)
    }
  }

  let base: any Decoder

  var codingPath: [any CodingKey] { base.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Keyed(base: try base.container(keyedBy: type)))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    Unkeyed(base: try base.unkeyedContainer())
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    Single(base: try base.singleValueContainer(), decoder: self)
  }

  /// Whether `JSONDecoder`'s container reads a `Value` itself: a type it reads in a way of its
  /// own, or a scalar. None of them holds a `Duration`.
  static func isReadByBase<Value>(_: Value.Type) -> Bool {
    Value.self == String.self || Value.self == Int.self || Value.self == Bool.self
      || Value.self == Double.self || Value.self == Date.self || Value.self == Data.self
      || Value.self == URL.self || Value.self == Decimal.self || Value.self == Int64.self
      || Value.self == UInt64.self
  }

  /// The duration `seconds` stands for.
  ///
  /// - Throws: `DecodingError.dataCorrupted` at `codingPath` when it is no duration.
  static func duration(
    seconds: Decimal, codingPath: @autoclosure () -> [any CodingKey]
  ) throws -> Duration {
    guard let duration = CanonicalBytes.duration(seconds: seconds.description) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath(),
          debugDescription: "not a Duration in seconds: a whole number of attoseconds, within "
            + "±170141183460469231731.687303715884105727 seconds"))
    }
    return duration
  }
}
