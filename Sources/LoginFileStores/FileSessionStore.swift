import Foundation
import LoginFeature
import StateStore

/// A ``LoginFeature/SessionStore`` in a file: the session survives a relaunch.
///
/// The file is JSON in a versioned envelope (`"format": "loginstore.session"`), mode 0600,
/// replaced atomically and durably on every save, under an exclusive lock shared with every
/// other process using the folder.
///
/// It replaces or removes only a file of its own format: a file someone else put at the path
/// (another format, a newer version, a folder, a symbolic link, anything unreadable) is left
/// untouched, and ``load()``, ``save(_:)`` and ``clear()`` throw a ``StoredFileError`` naming
/// it. The launch restore shows that in a notice, and a failed save or clear comes back to the
/// reducer as ``LoginFeature/LoginAction/storageFailed(_:)``.
///
/// The file holds the token in clear — that is what a session store is for — so keep it where
/// only the app can read it. It is the portable default; on iOS and macOS a bearer token
/// belongs in the Keychain (see "Sessions and relaunch" for a store over it).
///
/// ```swift
/// let sessions = FileSessionStore(url: stateFolder.appendingPathComponent("session.json"))
/// ```
public struct FileSessionStore: SessionStore {
  private struct Body: Codable, Sendable {
    var user: User
    var token: String
    var expiresAt: Date?
  }

  private let file: StoredFile<Body>

  /// Creates a store that keeps the session at `url`.
  ///
  /// - Parameter url: The file; its folder must exist. A lock file, `.<name>.lock`, is kept
  ///   beside it.
  public init(url: URL) {
    file = StoredFile(url: url, format: "loginstore.session")
  }

  /// A store whose wait for another process's lock runs on `lockClock`, trying again every
  /// `lockPollInterval`: a test's clock, to step through the wait.
  package init(url: URL, lockClock: some Clock<Duration>, lockPollInterval: Duration) {
    file = StoredFile(
      url: url, format: "loginstore.session", lockClock: lockClock,
      lockPollInterval: lockPollInterval)
  }

  /// Keeps `session`, token in clear, replacing the file atomically.
  ///
  /// - Parameter session: The session to keep.
  /// - Throws: ``StoredFileError`` when the file cannot be written, or is not the store's own.
  public func save(_ session: Session) async throws {
    try await file.save(
      Body(user: session.user, token: session.token.reveal(), expiresAt: session.expiresAt))
  }

  /// The kept session.
  ///
  /// - Returns: The session, or `nil` when there is no file.
  /// - Throws: ``StoredFileError`` for a file that cannot be read as a session.
  public func load() async throws -> Session? {
    guard let body = try file.load() else { return nil }
    return Session(user: body.user, token: Secret(body.token), expiresAt: body.expiresAt)
  }

  /// Removes the file; no file is fine.
  ///
  /// - Throws: ``StoredFileError`` when the file cannot be removed, or is not the store's own.
  public func clear() async throws {
    try await file.remove()
  }
}
