import Foundation

/// A change to the kept ``LockoutRecord``, applied by a ``LockoutStore`` as one
/// read-modify-write, so that several processes sharing the record count every failure.
///
/// ``LoginReducer`` asks for it with ``LoginEffect/updateLockout(_:)``; the effect handler
/// applies it with ``applied(to:at:seen:)`` inside ``LockoutStore/update(_:)``, passing the
/// record its process last read or kept.
///
/// ```swift
/// let change = LockoutChange.failedAttempt(counted: 2, lockingAt: 5, lockFor: .seconds(30))
/// let record = change.applied(to: LockoutRecord(failedAttempts: 4), at: now, seen: nil)
/// // record?.failedAttempts == 5 (another process counted three), lockedUntil == now + 30 s
/// ```
public enum LockoutChange: Sendable, Equatable, Codable {
  /// One more failed sign-in, the `counted`-th this process has seen: the kept count becomes
  /// one more than before, and at least `counted`, so the kept lockout is never weaker than the
  /// one in memory. When it reaches `lockingAt`, the record locks until `lockFor` after now (a
  /// later deadline already kept stays). A kept lockout that has ended counts from zero again.
  case failedAttempt(counted: Int, lockingAt: Int, lockFor: Duration)
  /// A success, or the end of a lockout: the record is forgotten — if it is still the one this
  /// process saw, or its own lockout has ended. A record another process changed since (more
  /// failures, a later lockout) stays: the end of this process's lockout must not erase
  /// another's.
  case reset

  /// The record after this change.
  ///
  /// - Parameters:
  ///   - record: The kept record, `nil` when there is none.
  ///   - now: The wall-clock time the lockout's deadline is counted from.
  ///   - seen: The record this process last read or kept (`nil` when none): a ``reset`` forgets
  ///     `record` only when it is still that one. Deadlines are compared to the second, as a
  ///     store may keep whole seconds.
  /// - Returns: The record to keep; `nil` to keep none.
  public func applied(
    to record: LockoutRecord?, at now: Date, seen: LockoutRecord?
  ) -> LockoutRecord? {
    switch self {
    case .reset:
      guard let record else { return nil }
      if let until = record.lockedUntil, until <= now { return nil }
      if let seen, record.isKept(as: seen) { return nil }
      return record
    case .failedAttempt(let counted, let limit, let duration):
      var next = record ?? LockoutRecord(failedAttempts: 0)
      // A lockout that has ended starts the count again, as `lockoutEnded` does in memory.
      if let until = next.lockedUntil, until <= now { next = LockoutRecord(failedAttempts: 0) }
      // No trap on a count read from a damaged file.
      next.failedAttempts = max(min(max(0, next.failedAttempts), .max - 1) + 1, counted)
      guard next.failedAttempts >= limit else { return next }
      let deadline = now.addingTimeInterval(duration.timeInterval)
      next.lockedUntil = max(next.lockedUntil ?? deadline, deadline)
      return next
    }
  }
}

extension LockoutRecord {
  /// Whether this record, as read back from a store, is `record` as it was kept: the same
  /// count, and the same deadline to within a second (a store may keep whole seconds).
  func isKept(as record: LockoutRecord) -> Bool {
    guard failedAttempts == record.failedAttempts else { return false }
    switch (lockedUntil, record.lockedUntil) {
    case (nil, nil): return true
    case (let a?, let b?): return abs(a.timeIntervalSince(b)) < 1
    default: return false
    }
  }
}
