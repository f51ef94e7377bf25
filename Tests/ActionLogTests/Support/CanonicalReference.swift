import ActionLog
import Foundation
import Testing

/// What `CanonicalJSONEncoder` must reproduce byte for byte: `JSONEncoder` with `.sortedKeys`.
enum CanonicalReference {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  /// Expects `encoder` to give the reference's bytes for `value`, showing both when not.
  static func expectSameBytes<Value: Encodable>(
    _ value: Value, _ encoder: CanonicalJSONEncoder,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = Array(try Self.encoder.encode(value))
    let actual = try encoder.encode(value)
    #expect(
      actual == expected,
      "\(String(decoding: actual, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))",
      sourceLocation: sourceLocation)
  }
}
