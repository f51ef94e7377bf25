/// What a redacted copy leaves out, beyond secrets.
///
/// Secrets are always shown and written as their shape masks; these levels cover data that is
/// not secret but still personal. Today there is one: ``usernames``.
///
/// ```swift
/// let shareable = state.redacted(.usernames)
/// ```
public struct RedactionLevel: OptionSet, Sendable, Hashable {
  /// The raw bits.
  public let rawValue: Int

  /// Creates a level from raw bits.
  ///
  /// - Parameter rawValue: The bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// User names, email addresses and the names people are greeted with.
  public static let usernames = RedactionLevel(rawValue: 1 << 0)
}

/// A value that can make a copy of itself without personal data.
///
/// Adopt it on a feature's state, actions and effects so that whatever writes them somewhere
/// others will read — an action-log recorder with `maskUsernames`, a bug report — can leave
/// user names out. It lives in `StateStore`, next to ``Secret``, because it is a property of the
/// values, not of any file format: a feature module adopts it without depending on the module
/// that writes the files.
///
/// Replace a field by its ``Secret/mask(of:)`` (or another mask with the same length and the
/// characters the feature's rules look at), and redact the same field the same way everywhere —
/// in the state, in the actions that set it and in the effects that carry it — so that
/// reducing a redacted action gives the redacted state. An action log replays and verifies
/// then exactly as without redaction.
///
/// ```swift
/// extension SignUpAction: Redactable {
///   public func redacted(_ level: RedactionLevel) -> SignUpAction {
///     guard level.contains(.usernames), case .usernameChanged(let name) = self else { return self }
///     return .usernameChanged(Secret.mask(of: name))
///   }
/// }
/// ```
public protocol Redactable {
  /// A copy with the data that `level` covers replaced, for example by its shape mask.
  ///
  /// - Parameter level: What to remove; an empty level returns the value unchanged.
  /// - Returns: The redacted copy.
  func redacted(_ level: RedactionLevel) -> Self
}
