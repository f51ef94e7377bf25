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
/// ``InMemoryLockoutStore`` keeps it for the life of the process; ``LoginFileStores/FileLockoutStore`` in a
/// file.
public protocol LockoutStore: Sendable {
  /// Keeps `record`, replacing any kept before.
  ///
  /// - Parameter record: The record to keep.
  /// - Throws: Whatever the storage throws.
  func save(_ record: LockoutRecord) async throws

  /// The kept record, if any.
  ///
  /// - Returns: The record last saved and not cleared since.
  /// - Throws: Whatever the storage throws, e.g. for unreadable data.
  func load() async throws -> LockoutRecord?

  /// Forgets the kept record.
  ///
  /// - Throws: Whatever the storage throws.
  func clear() async throws
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

  /// Keeps `record`.
  ///
  /// - Parameter record: The record to keep.
  public func save(_ record: LockoutRecord) {
    self.record = record
  }

  /// The kept record.
  ///
  /// - Returns: The record, if any.
  public func load() -> LockoutRecord? {
    record
  }

  /// Forgets the record.
  public func clear() {
    record = nil
  }
}
