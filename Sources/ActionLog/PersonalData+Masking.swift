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
  /// - Parameter value: Any value that encodes and decodes itself.
  /// - Returns: The value encoded with personal data masked, and decoded again.
  /// - Throws: The `EncodingError` or `DecodingError` of a value that does not survive the
  ///   round trip through JSON.
  public static func masking<Value: Codable>(in value: Value) throws -> Value {
    let encoder = JSONEncoder()
    encoder.userInfo[.masksPersonalData] = true
    return try JSONDecoder().decode(Value.self, from: encoder.encode(value))
  }
}
