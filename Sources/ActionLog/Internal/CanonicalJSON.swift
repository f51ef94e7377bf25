import Foundation

/// The canonical JSON of digests, checkpoints and log lines: `JSONEncoder` with `.sortedKeys`
/// and otherwise default strategies.
///
/// ``CanonicalJSONEncoder`` writes the same bytes much faster; whatever it does not reproduce
/// (see ``CanonicalJSONEncoder/Unsupported``) is encoded here with `JSONEncoder` itself, so the
/// bytes — and therefore every digest and log file — never depend on which path ran.
package enum CanonicalJSON {
  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  static let newline = UInt8(ascii: "\n")

  /// The canonical JSON of `value`, appended to `data`.
  ///
  /// - Throws: What `JSONEncoder` throws for a value it cannot encode.
  static func append<Value: Encodable>(
    _ value: Value, to data: inout Data, using encoder: CanonicalJSONEncoder
  ) throws {
    do {
      try encoder.withEncoded(value) { data.append($0) }
    } catch {
      data.append(try makeEncoder().encode(value))
    }
  }

  /// The canonical JSON of `value`.
  ///
  /// - Throws: What `JSONEncoder` throws for a value it cannot encode.
  package static func data<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) throws -> Data {
    var data = Data()
    try append(value, to: &data, using: encoder)
    return data
  }

  /// The 64-bit FNV-1a hash of the canonical JSON of `value`.
  ///
  /// - Throws: What `JSONEncoder` throws for a value it cannot encode.
  package static func digest<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) throws -> UInt64 {
    do {
      return try encoder.withEncoded(value) { StateDigest.fnv1a(UnsafeRawBufferPointer($0)) }
    } catch {
      return try makeEncoder().encode(value).withUnsafeBytes { StateDigest.fnv1a($0) }
    }
  }
}
