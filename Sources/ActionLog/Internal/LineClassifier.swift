import Foundation

/// Names what is wrong with a line that did not decode.
enum LineClassifier {
  static func isText(_ bytes: Data) -> Bool {
    for byte in bytes where byte < 0x20 && byte != 9 && byte != 13 { return false }
    return String(validating: bytes, as: UTF8.self) != nil
  }

  /// The JSON decoder's nesting limit: deeper input is refused as "not valid JSON".
  static let maximumNesting = CanonicalJSONDecoder.maximumDepth

  /// Why JSON the decoder refused cannot be read, when that can be told from the bytes
  /// (nesting deeper than the decoder's limit), or `nil`.
  static func unreadableJSON(_ bytes: Data) -> String? {
    var nesting = JSONNesting()
    for byte in bytes where nesting.take(byte) > 0 && nesting.depth > maximumNesting {
      return "nested more than \(maximumNesting) levels deep"
    }
    return nil
  }

  static func classify(_ error: any Error, line: LineReader.Line) -> ActionLogError {
    guard isText(line.bytes) else { return .notText(line: line.number) }
    let path = DecodingErrorReason.codingPath(of: error) ?? []
    guard let root = path.first?.stringValue else {
      if case .dataCorrupted? = error as? DecodingError, let reason = unreadableJSON(line.bytes) {
        return .malformedLine(line: line.number, reason: reason)
      }
      return .malformedLine(line: line.number, reason: DecodingErrorReason.describe(error))
    }
    // An unknown case fails as a type mismatch (a synthesized enum finds none of its keys) or
    // as corrupted data (a raw-value enum's string): a missing or null key inside a known case
    // (an edit without its value) is not one, and is named as what it is below.
    guard isUnknownCaseError(error) else {
      return .malformedLine(line: line.number, reason: DecodingErrorReason.describe(error))
    }
    // The action itself, or a child action embedded in it (`action.login._0`).
    if root == ActionLogFormat.Key.action.rawValue, path.count == 1 || isEmbedding(path),
      let name = caseName(in: line.bytes, at: path, nested: path.count > 1)
    {
      return .unknownAction(line: line.number, name: qualified(name, path.dropFirst()))
    }
    if root == ActionLogFormat.Key.effects.rawValue, path.count >= 2, path[1].intValue != nil,
      path.count == 2 || isEmbedding(Array(path.dropFirst())),
      let name = caseName(in: line.bytes, at: path, nested: path.count > 2)
    {
      return .malformedLine(
        line: line.number,
        reason: "unknown effect case \(Sanitized.name(qualified(name, path.dropFirst(2))))")
    }
    return .malformedLine(line: line.number, reason: DecodingErrorReason.describe(error))
  }

  /// Whether `error` is how a value of an unknown enum case fails to decode.
  private static func isUnknownCaseError(_ error: any Error) -> Bool {
    switch error as? DecodingError {
    case .typeMismatch?, .dataCorrupted?: true
    default: false
    }
  }

  /// Whether `path` (after its root) goes through embedded children only: a parent's case, then
  /// its `_0` payload, any number of times.
  private static func isEmbedding(_ path: [any CodingKey]) -> Bool {
    let rest = path.dropFirst()
    guard !rest.isEmpty, rest.count.isMultiple(of: 2) else { return false }
    return rest.enumerated().allSatisfy { offset, key in
      offset.isMultiple(of: 2) ? key.intValue == nil : key.stringValue == "_0"
    }
  }

  /// `frobnicate` inside `login._0` → `login.frobnicate`: the parents' cases, then the name.
  private static func qualified(_ name: String, _ path: ArraySlice<any CodingKey>) -> String {
    (path.map(\.stringValue).filter { $0 != "_0" } + [name]).joined(separator: ".")
  }

  /// The case name of an enum value that failed to decode: the single key of a synthesized
  /// enum encoding (`{"frobnicate":{}}`) or the string of a raw-value enum (`"frobnicate"`).
  /// A `nested` value must be the synthesized form: a raw string there may be a payload.
  private static func caseName(
    in bytes: Data, at path: [any CodingKey], nested: Bool
  ) -> String? {
    guard var value = try? JSONSerialization.jsonObject(with: bytes) else { return nil }
    for key in path {
      if let index = key.intValue {
        guard let array = value as? [Any], array.indices.contains(index) else { return nil }
        value = array[index]
      } else {
        guard let object = value as? [String: Any], let next = object[key.stringValue] else {
          return nil
        }
        value = next
      }
    }
    if let object = value as? [String: Any], object.count == 1 { return object.keys.first }
    return nested ? nil : value as? String
  }
}
