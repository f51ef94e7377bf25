import Foundation

/// The canonical JSON of digests, checkpoints and log lines, as the "Action logs and replay"
/// article specifies it, written by ``CanonicalJSONEncoder`` alone: there is no second encoder
/// whose bytes could differ between platforms or Foundation versions.
package enum CanonicalJSON {
  static let newline = UInt8(ascii: "\n")

  /// The canonical JSON of `value`, appended to `data`.
  ///
  /// - Throws: ``CanonicalJSONEncoder/Unsupported`` for a value with no canonical JSON, or
  ///   what the value's `encode(to:)` throws.
  static func append<Value: Encodable>(
    _ value: Value, to data: inout Data, using encoder: CanonicalJSONEncoder
  ) throws {
    try encoder.withEncoded(value) { data.append($0) }
  }

  /// The canonical JSON of `value`.
  ///
  /// - Throws: As ``append(_:to:using:)``.
  package static func data<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) throws -> Data {
    var data = Data()
    try append(value, to: &data, using: encoder)
    return data
  }

  /// The 64-bit FNV-1a hash of the canonical JSON of `value`.
  ///
  /// - Throws: As ``append(_:to:using:)``.
  package static func digest<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) throws -> UInt64 {
    try encoder.withEncoded(value) { StateDigest.fnv1a(UnsafeRawBufferPointer($0)) }
  }

  /// `value` — an action, an effect — on one line, read from its canonical JSON
  /// (``CanonicalJSONText/oneLine(_:)``): what the log tools show of it, with no `Mirror` of
  /// the host's value; for a value that has none, why, in parentheses.
  package static func oneLine<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) -> String {
    do {
      return CanonicalJSONText.oneLine(try encoder.encode(value)) ?? ""
    } catch {
      return "(no canonical JSON: \(failure(error, encoding: Value.self)))"
    }
  }

  /// `value` — a state — as its fields, one per line (``CanonicalJSONText/lines(_:)``), read
  /// from its canonical JSON; for a value that has none, why, in parentheses.
  package static func fields<Value: Encodable>(
    _ value: Value, using encoder: CanonicalJSONEncoder
  ) -> String {
    do {
      return CanonicalJSONText.lines(try encoder.encode(value))?.joined(separator: "\n") ?? ""
    } catch {
      return "(no canonical JSON: \(failure(error, encoding: Value.self)))"
    }
  }

  /// Words for why `value` of type `Value` could not be encoded, for
  /// ``ActionLogError/encodingFailed(_:)``: the type, and what was met where.
  package static func failure<Value>(_ error: any Error, encoding value: Value.Type) -> String {
    let type = String(describing: Value.self)
    if let unsupported = error as? CanonicalJSONEncoder.Unsupported {
      return "\(type): \(unsupported)"
    }
    if case EncodingError.invalidValue(_, let context) = error {
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      let at = path.isEmpty ? type : "\(type) at '\(path)'"
      // The value's own words, when it says why it cannot be encoded (a field edit does).
      let why = context.debugDescription
      return why.isEmpty ? at : "\(at): \(why)"
    }
    return type
  }
}
