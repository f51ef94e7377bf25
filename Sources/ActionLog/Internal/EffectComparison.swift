import Foundation
import StateStore

/// Compares the effects a replay returned with the recorded ones: with `==` when the effect
/// type is `Equatable`, otherwise by their canonical JSON.
enum EffectComparison {
  static func same<Effect: Encodable>(_ recorded: [Effect], _ replayed: [Effect]) -> Bool {
    guard recorded.count == replayed.count else { return false }
    if recorded.isEmpty { return true }
    if Effect.self is any Equatable.Type {
      for (left, right) in zip(recorded, replayed) {
        guard let left = left as? any Equatable, isEqual(left, right) else { return false }
      }
      return true
    }
    let encoder = CanonicalJSON.makeEncoder()
    guard let left = try? encoder.encode(recorded), let right = try? encoder.encode(replayed) else {
      return false
    }
    return left == right
  }

  private static func isEqual<Value: Equatable>(_ value: Value, _ other: Any) -> Bool {
    guard let other = other as? Value else { return false }
    return value == other
  }
}

enum OneLine {
  /// `Dump.render(value)` folded onto one line, at most 160 characters.
  static func render(_ value: Any) -> String {
    let text = Dump.render(value)
      .split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
      .replacingOccurrences(of: "( ", with: "(")
      .replacingOccurrences(of: "[ ", with: "[")
      .replacingOccurrences(of: ", )", with: ")")
      .replacingOccurrences(of: " )", with: ")")
      .replacingOccurrences(of: " ]", with: "]")
    return text.count > 160 ? String(text.prefix(159)) + "…" : text
  }
}
