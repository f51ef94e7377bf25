import Foundation

/// Turns a `DecodingError` into a short reason that names the field, never the value.
enum DecodingErrorReason {
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "cannot decode the line" }
    switch error {
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty { return "not valid JSON" }
      // The package's own reasons say what was expected (never the value); Foundation's are
      // left out, as they quote the value.
      let expected = context.debugDescription.hasPrefix("expected ")
      return "invalid value at '\(path(context.codingPath))'"
        + (expected ? " (\(context.debugDescription))" : "")
    case .keyNotFound(let key, let context):
      return "missing '\(path(context.codingPath + [key]))'"
    case .typeMismatch(let type, let context):
      if context.codingPath.isEmpty { return "not a JSON object" }
      return "wrong type at '\(path(context.codingPath))' (expected \(type))"
    case .valueNotFound(let type, let context):
      return "null at '\(path(context.codingPath))' (expected \(type))"
    @unknown default:
      return "cannot decode the line"
    }
  }

  static func codingPath(of error: any Error) -> [any CodingKey]? {
    guard let error = error as? DecodingError else { return nil }
    switch error {
    case .dataCorrupted(let context): return context.codingPath
    case .keyNotFound(_, let context): return context.codingPath
    case .typeMismatch(_, let context): return context.codingPath
    case .valueNotFound(_, let context): return context.codingPath
    @unknown default: return nil
    }
  }

  static func path(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + Sanitized.plain(key.stringValue)
      }
    }
    return text
  }
}
