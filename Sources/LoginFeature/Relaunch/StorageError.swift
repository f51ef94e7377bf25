/// An error thrown by a ``SessionStore`` or a ``LockoutStore`` whose description is safe to show
/// a person and to write to an action log: it says what failed and why, never the stored data.
///
/// The effect handler puts the description of such an error into the action it sends back (a
/// launch's ``LaunchRecord``, a failed save or clear). Any other error is described by its type
/// alone, because its description might hold a token. Conform the errors of your own stores
/// (a Keychain wrapper, say) so that people read why, not just that, a save failed.
///
/// ```swift
/// struct KeychainError: StorageError {
///   var status: Int32
///   var description: String { "keychain: status \(status)" }
/// }
/// ```
public protocol StorageError: Error, Sendable, CustomStringConvertible {}
