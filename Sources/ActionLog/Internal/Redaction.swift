import StateStore

/// Applies a ``StateStore/Redactable`` value's redaction before it is encoded.
enum Redaction {
  static func apply<Value>(_ value: Value, _ level: RedactionLevel) -> Value {
    guard !level.isEmpty, let redactable = value as? any Redactable else { return value }
    return (redactable.redacted(level) as? Value) ?? value
  }
}
