import Foundation

/// Reads the values of a log's lines in the canonical form its header names: with
/// `JSONDecoder`, and from ``CanonicalForm/v2`` on with every `Duration` read as the number of
/// seconds ``CanonicalJSONEncoder`` writes.
///
/// `JSONDecoder` reads all the rest the way the canonical form writes it. For a v2 value it
/// decodes through ``SecondsDecoder``, which hands every container and value to
/// `JSONDecoder`'s own and reads a `Duration` itself: as a `Decimal` — whose 128-bit
/// significand holds every attosecond count a `Duration` can hold, exactly — turned into
/// attoseconds by ``CanonicalBytes/duration(seconds:)``.
package struct CanonicalJSONDecoder {
  /// The form the values were written in.
  package let form: CanonicalForm
  private let json = JSONDecoder()

  /// Creates a decoder for values written in `form`.
  ///
  /// - Parameter form: The form the log's header names.
  package init(form: CanonicalForm = .current) {
    self.form = form
  }

  /// Decodes a value of `type` from its canonical JSON.
  ///
  /// - Parameters:
  ///   - type: The value's type.
  ///   - data: One JSON value.
  /// - Returns: The value.
  /// - Throws: `DecodingError`, as `JSONDecoder` does; a v2 `Duration` that is not a number
  ///   of whole attoseconds a `Duration` holds is `DecodingError.dataCorrupted`.
  package func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    guard form.writesDurationsAsSeconds else { return try json.decode(Value.self, from: data) }
    return try json.decode(SecondsDecoder.Wrapped<Value>.self, from: data).value
  }
}
