import Foundation

/// The failed sign-ins that must survive a relaunch: how many, and until when the form is
/// locked.
///
/// Kept by a ``LockoutStore``. The deadline is wall-clock time, written by the effect handler
/// when the form locks, and compared at the next launch with a time that arrives in an action
/// (see ``LoginAction/restored(_:at:)``).
public struct LockoutRecord: Sendable, Equatable, Codable {
  /// Failed sign-ins since the last success or lockout.
  public var failedAttempts: Int
  /// When the lockout ends; `nil` when the form is not locked.
  public var lockedUntil: Date?

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - failedAttempts: Failed sign-ins so far.
  ///   - lockedUntil: When the lockout ends, if the form is locked.
  public init(failedAttempts: Int, lockedUntil: Date? = nil) {
    self.failedAttempts = failedAttempts
    self.lockedUntil = lockedUntil
  }
}

/// Keeps the ``LockoutRecord`` between launches, so that killing the app does not reset the
/// lockout.
///
/// Every change is one ``update(_:)``: the store reads the record, applies the change and
/// keeps the result as one step that no other writer can interleave with — in a file, under an
/// exclusive lock — so that several processes (or app extensions) sharing one record count
/// every failed attempt. ``InMemoryLockoutStore`` keeps it for the life of the process;
/// `FileLockoutStore` (in `LoginFileStores`) in a file.
public protocol LockoutStore: Sendable {
  /// The kept record, if any.
  ///
  /// - Returns: The record last kept.
  /// - Throws: Whatever the storage throws, e.g. for unreadable data; a ``StorageError``
  ///   says why in words safe to show.
  func load() async throws -> LockoutRecord?

  /// Reads the kept record, applies `change` to it, and keeps what it returns (`nil`: keep
  /// none), as one step no other writer interleaves with.
  ///
  /// - Parameter change: The new record, given the kept one (`nil` when none is kept).
  /// - Returns: The record now kept.
  /// - Throws: Whatever the storage throws; then nothing was changed.
  @discardableResult
  func update(
    _ change: @Sendable (LockoutRecord?) -> LockoutRecord?
  ) async throws -> LockoutRecord?
}

/// A ``LockoutStore`` in memory: for tests, previews, and hosts that keep nothing.
public actor InMemoryLockoutStore: LockoutStore {
  private var record: LockoutRecord?

  /// Creates a store holding `record`.
  ///
  /// - Parameter record: What the store starts with.
  public init(record: LockoutRecord? = nil) {
    self.record = record
  }

  /// The kept record.
  ///
  /// - Returns: The record, if any.
  public func load() -> LockoutRecord? {
    record
  }

  /// Applies `change` to the kept record.
  ///
  /// - Parameter change: The new record, given the kept one.
  /// - Returns: The record now kept.
  @discardableResult
  public func update(_ change: @Sendable (LockoutRecord?) -> LockoutRecord?) -> LockoutRecord? {
    record = change(record)
    return record
  }
}
