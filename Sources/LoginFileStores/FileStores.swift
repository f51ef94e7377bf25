import Foundation
import LoginFeature
import StateStore

/// A ``LoginFeature/SessionStore`` in a file: the session survives a relaunch.
///
/// The file is JSON in a versioned envelope (`"format": "loginstore.session"`), mode 0600,
/// replaced atomically on every save. It holds the token in clear — that is what a session
/// store is for — so keep it where only the app can read it. A corrupt, foreign or symlinked
/// file throws a ``StoredFileError`` from ``load()``; the launch restore turns that into a
/// problem in its ``LoginFeature/LaunchRecord`` and clears the file.
///
/// ```swift
/// let sessions = FileSessionStore(url: stateFolder.appendingPathComponent("session.json"))
/// ```
public struct FileSessionStore: SessionStore {
  private struct Body: Codable {
    var user: User
    var token: String
    var expiresAt: Date?
  }

  private let file: StoredFile<Body>

  /// Creates a store that keeps the session at `url`.
  ///
  /// - Parameter url: The file; its folder must exist.
  public init(url: URL) {
    file = StoredFile(url: url, format: "loginstore.session")
  }

  /// Keeps `session`, token in clear, replacing the file atomically.
  ///
  /// - Parameter session: The session to keep.
  /// - Throws: ``StoredFileError``.
  public func save(_ session: Session) async throws {
    try file.save(
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

  /// Removes the file.
  ///
  /// - Throws: ``StoredFileError``.
  public func clear() async throws {
    try file.remove()
  }
}

/// A ``LoginFeature/LockoutStore`` in a file: a lockout holds across relaunches.
///
/// The same kind of file as ``FileSessionStore``'s (`"format": "loginstore.lockout"`, mode
/// 0600, atomic replacement).
public struct FileLockoutStore: LockoutStore {
  private let file: StoredFile<LockoutRecord>

  /// Creates a store that keeps the record at `url`.
  ///
  /// - Parameter url: The file; its folder must exist.
  public init(url: URL) {
    file = StoredFile(url: url, format: "loginstore.lockout")
  }

  /// Keeps `record`, replacing the file atomically.
  ///
  /// - Parameter record: The record to keep.
  /// - Throws: ``StoredFileError``.
  public func save(_ record: LockoutRecord) async throws {
    try file.save(record)
  }

  /// The kept record.
  ///
  /// - Returns: The record, or `nil` when there is no file.
  /// - Throws: ``StoredFileError`` for a file that cannot be read as a lockout record.
  public func load() async throws -> LockoutRecord? {
    try file.load()
  }

  /// Removes the file.
  ///
  /// - Throws: ``StoredFileError``.
  public func clear() async throws {
    try file.remove()
  }
}
