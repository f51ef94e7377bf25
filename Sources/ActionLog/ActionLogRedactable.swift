/// What a recorder removes from the values it writes, beyond secrets.
///
/// Secrets are always written as their shape masks; these levels cover data that is not secret
/// but still personal. Today there is one: ``usernames``.
public struct RedactionLevel: OptionSet, Sendable, Hashable {
  /// The raw bits.
  public let rawValue: Int

  /// Creates a level from raw bits.
  ///
  /// - Parameter rawValue: The bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// User names and other account identifiers.
  public static let usernames = RedactionLevel(rawValue: 1 << 0)
}

/// A value that can hand an action-log recorder a copy without personal data.
///
/// Adopt it on a feature's state, actions and effects when their log should be shareable
/// without user names (``RecordingOptions/maskUsernames``). The recorder calls
/// ``redacted(_:)`` on each state, action and effect before encoding them, off the main actor.
/// Use the shape mask of `Secret` so a replay still validates the same way, and redact the same
/// field the same way everywhere, so the reducer's output on a redacted action is the redacted
/// state and digests still match:
///
/// ```swift
/// extension LoginAction: ActionLogRedactable {
///   func redacted(_ level: RedactionLevel) -> LoginAction {
///     guard level.contains(.usernames), case .usernameChanged(let name) = self else { return self }
///     return .usernameChanged(Secret.mask(of: name))
///   }
/// }
/// ```
public protocol ActionLogRedactable {
  /// A copy with the data that `level` covers replaced, for example by its shape mask.
  ///
  /// - Parameter level: What to remove.
  /// - Returns: The redacted copy.
  func redacted(_ level: RedactionLevel) -> Self
}

enum Redaction {
  static func apply<Value>(_ value: Value, _ level: RedactionLevel) -> Value {
    guard !level.isEmpty, let redactable = value as? any ActionLogRedactable else { return value }
    return (redactable.redacted(level) as? Value) ?? value
  }
}
