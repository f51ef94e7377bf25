/// Keeps the signed-in session between launches (a keychain, a file, memory).
///
/// The effect handler saves the session after a successful login and clears it on logout.
/// ``InMemorySessionStore`` keeps it for the life of the process.
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
