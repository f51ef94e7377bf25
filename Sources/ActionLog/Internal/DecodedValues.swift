import Foundation

/// Values a reader has decoded, by the bytes they were decoded from: a log repeats its actions
/// and effects (every keystroke of a masked password, every tap of the same button, every
/// empty effect list), and decoding one through `Codable` costs far more than finding its
/// bytes again.
///
/// A value is decoded from its bytes alone, so the same bytes give the same value: what
/// `Decodable` promises, and what a replay rests on anyway (a log replays the same way twice).
/// Only values that decoded are kept; bytes that fail are decoded again, and fail with their
/// usual words. Memory stays bounded: values of more than ``longestKept`` bytes are never
/// kept (a long text rarely comes back), and past ``maximumKept`` values, or ``byteLimit``
/// bytes of them (each counted with what keeping it costs besides its bytes), the cache starts
/// again empty: a log of mostly distinct actions pays for a few thousand at a time, not for
/// all of them.
struct DecodedValues<Value> {
  /// The longest value kept, in bytes.
  static var longestKept: Int { 4 * 1024 }
  /// The values kept at most, before the cache starts again.
  static var maximumKept: Int { 8 * 1024 }
  /// The bytes of the values kept at most, before the cache starts again.
  static var byteLimit: Int { 2 * 1024 * 1024 }
  /// What keeping a value costs besides its bytes, about: its key's array, its slot.
  static var costPerValue: Int { 96 }

  private struct Key: Hashable {
    let hash: UInt64
    let bytes: [UInt8]

    static func == (lhs: Key, rhs: Key) -> Bool { lhs.hash == rhs.hash && lhs.bytes == rhs.bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  }

  private var values: [Key: Value] = [:]
  private var bytesKept = 0

  /// The value `bytes` decode to: the one kept for the same bytes, or `decode(bytes)`.
  ///
  /// - Throws: What `decode` throws.
  mutating func value(
    of bytes: Data, decode: (ArraySlice<UInt8>) throws -> Value
  ) rethrows -> Value {
    let array = Array(bytes)
    guard array.count <= Self.longestKept else { return try decode(array[...]) }
    let key = Key(hash: StateDigest.fnv1a(array), bytes: array)
    if let value = values[key] { return value }
    let value = try decode(array[...])
    let cost = array.count + Self.costPerValue
    if values.count == Self.maximumKept || bytesKept + cost > Self.byteLimit {
      values.removeAll(keepingCapacity: true)
      bytesKept = 0
    }
    values[key] = value
    bytesKept += cost
    return value
  }
}
