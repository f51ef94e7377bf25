/// How much a ``TestStore`` insists on being told.
///
/// Exhaustive tests (the default) read like a complete account of a scenario: every state
/// change, every effect returned without a handler, every action an effect sent. Integration
/// tests that care about the end result switch exhaustivity off and assert only what they name.
///
/// ```swift
/// store.exhaustivity = .off
/// await store.send(.loginButtonTapped)
/// await store.receive(.loginResponse(.success(session))) { $0.isLoggedIn = true }
/// ```
public enum Exhaustivity: Hashable, Sendable {
  /// Every state change, effect and received action must be asserted.
  case on
  /// Only what a test names is checked: a trailing closure's values must match the actual
  /// state, `receive` skips the actions before the one it expects, and unasserted effects or
  /// actions are ignored. Effects still running at ``TestStore/finish(timeout:fileID:filePath:line:column:)``
  /// are cancelled without a failure.
  case off
}
