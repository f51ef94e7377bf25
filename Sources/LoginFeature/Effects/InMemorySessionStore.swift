/// A ``SessionStore`` that keeps the session in memory, for the life of the process.
///
/// ```swift
/// let store = InMemorySessionStore()
/// try await store.save(session)
/// try await store.load()   // session
/// ```
public actor InMemorySessionStore: SessionStore {
  private var session: Session?

  /// Creates a store, optionally holding a session already.
  ///
  /// - Parameter session: The session kept from the start.
  public init(session: Session? = nil) {
    self.session = session
  }

  /// Keeps `session`.
  ///
  /// - Parameter session: The session to keep.
  public func save(_ session: Session) {
    self.session = session
  }

  /// The kept session, if any.
  ///
  /// - Returns: The session last saved and not cleared since.
  public func load() -> Session? {
    session
  }

  /// Forgets the kept session.
  public func clear() {
    session = nil
  }
}
