import Foundation
import LoginFeature

/// A ``LoginFeature/LockoutStore`` in a file: a lockout holds across relaunches, and processes
/// sharing the folder count every failed attempt.
///
/// The same kind of file as ``FileSessionStore``'s (`"format": "loginstore.lockout"`, mode
/// 0600, atomic and durable replacement, only a file of its own format replaced or removed).
/// Each ``update(_:)`` reads, changes and writes the record under an exclusive lock on
/// `.lockout.json.lock`, so three app instances failing four times each leave twelve failed
/// attempts, not four.
///
/// ```swift
/// let lockout = FileLockoutStore(url: stateFolder.appendingPathComponent("lockout.json"))
/// ```
public struct FileLockoutStore: LockoutStore {
  private let file: StoredFile<LockoutRecord>

  /// Creates a store that keeps the record at `url`.
  ///
  /// - Parameter url: The file; its folder must exist. A lock file, `.<name>.lock`, is kept
  ///   beside it.
  public init(url: URL) {
    file = StoredFile(url: url, format: "loginstore.lockout")
  }

  /// A store whose wait for another process's lock runs on `lockClock`, trying again every
  /// `lockPollInterval`: a test's clock, to step through the wait.
  package init(url: URL, lockClock: some Clock<Duration>, lockPollInterval: Duration) {
    file = StoredFile(
      url: url, format: "loginstore.lockout", lockClock: lockClock,
      lockPollInterval: lockPollInterval)
  }

  /// The kept record.
  ///
  /// - Returns: The record, or `nil` when there is no file.
  /// - Throws: ``StoredFileError`` for a file that cannot be read as a lockout record.
  public func load() async throws -> LockoutRecord? {
    try file.load()
  }

  /// Reads the record, applies `change`, and keeps the result (`nil` removes the file), under
  /// the lock. A damaged record of the store's own format reads as none.
  ///
  /// - Parameter change: The new record, given the kept one.
  /// - Returns: The record now kept.
  /// - Throws: ``StoredFileError`` when the file cannot be read or written, or is not the
  ///   store's own; then nothing was changed.
  @discardableResult
  public func update(
    _ change: @Sendable (LockoutRecord?) -> LockoutRecord?
  ) async throws -> LockoutRecord? {
    try await file.update(change)
  }
}
