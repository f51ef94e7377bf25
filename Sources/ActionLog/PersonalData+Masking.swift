import Foundation
import StateStore

extension PersonalData {
  /// A copy of `value` as a log recorded with `RecordingOptions.masksPersonalData` holds it: every
  /// `PersonalData` inside it, at any depth, replaced by its mask, and every `Secret` by its
  /// shape mask. For a bug report, or a test that compares a masked log's replay with the state
  /// it was recorded from.
  ///
  /// ```swift
  /// let shareable = try PersonalData.masking(in: state)
  /// ```
  ///
  /// The copy is made the way the log makes it: `value` is encoded in the log's canonical form
  /// (`PersonalData` and `Secret` masked) and decoded again by the log's reader.
  ///
  /// - Parameter value: Any value that encodes and decodes itself.
  /// - Returns: The value encoded with personal data masked, and decoded again.
  /// - Throws: The `EncodingError` or `DecodingError` of a value that does not survive the
  ///   round trip through the log's JSON: `EncodingError.invalidValue` for a value with no
  ///   canonical JSON (a NaN, a key encoded twice in one object).
  public static func masking<Value: Codable>(in value: Value) throws -> Value {
    let bytes: [UInt8]
    do {
      bytes = try CanonicalJSONEncoder(masksPersonalData: true).encode(value)
    } catch let unsupported as CanonicalJSONEncoder.Unsupported {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: unsupported.description))
    }
    return try CanonicalJSONDecoder().decode(Value.self, from: bytes[...])
  }
}
