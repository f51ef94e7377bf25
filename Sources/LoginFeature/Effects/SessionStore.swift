/// Keeps the signed-in session between launches (a keychain, a file, memory).
///
/// The effect handler saves the session after a successful login and clears it on logout.
/// ``InMemorySessionStore`` keeps it for the life of the process; `FileSessionStore` (in
/// `LoginFileStores`) in a file. On iOS and macOS, keep a bearer token in the Keychain: the
/// "Sessions and relaunch" article shows a store over it.
///
/// A store that cannot do what it is asked throws, and the handler answers
/// ``LoginAction/storageFailed(_:)``: throw a ``StorageError`` so that the person reads why. A
/// store replaces or removes only what it wrote itself.
public protocol SessionStore: Sendable {
  /// Keeps `session`, replacing any kept before.
  ///
  /// - Parameter session: The session to keep.
  /// - Throws: Whatever the storage throws.
  func save(_ session: Session) async throws

  /// The kept session, if any.
  ///
  /// - Returns: The session last saved and not cleared since.
  /// - Throws: Whatever the storage throws.
  func load() async throws -> Session?

  /// Forgets the kept session. Clearing when nothing is kept does nothing.
  ///
  /// - Throws: Whatever the storage throws.
  func clear() async throws
}
