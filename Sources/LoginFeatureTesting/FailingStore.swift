import LoginFeature

/// A session and lockout store whose writes (and, if asked, reads) fail: for testing what a
/// person sees when the device cannot keep or forget what the login flow saves.
///
/// It throws ``Failure``, a ``LoginFeature/StorageError`` whose description is the reason you
/// give, so the reducer's ``LoginFeature/LoginAction/storageFailed(_:)`` carries exactly that
/// text. What was there before stays readable, as on a disk that turned read-only.
///
/// ```swift
/// let store = FailingStore(reason: "session.json: Read-only file system", session: saved)
/// var dependencies = fakes.dependencies
/// dependencies.sessionStore = store
/// ```
public actor FailingStore: SessionStore, LockoutStore {
  /// The error every failing call throws.
  public struct Failure: StorageError, Equatable {
    /// The reason, as given to the store.
    public var description: String

    /// Creates a failure.
    ///
    /// - Parameter description: The reason.
    public init(description: String) {
      self.description = description
    }
  }

  /// The reason every failing call gives.
  public let reason: String
  /// Whether `load()` fails too (an unreadable store), not only saves and clears.
  public let failsReads: Bool
  private let session: Session?
  private let lockout: LockoutRecord?
  /// How many writes were attempted (each failed).
  public private(set) var attemptedWrites = 0

  /// Creates a store holding `session` and `lockout`, whose writes fail with `reason`.
  ///
  /// - Parameters:
  ///   - reason: What every failure says, e.g. `session.json: Read-only file system`.
  ///   - failsReads: Whether `load()` fails too.
  ///   - session: The session `load()` answers.
  ///   - lockout: The lockout record `load()` answers.
  public init(
    reason: String, failsReads: Bool = false, session: Session? = nil,
    lockout: LockoutRecord? = nil
  ) {
    self.reason = reason
    self.failsReads = failsReads
    self.session = session
    self.lockout = lockout
  }

  private func fail() -> Failure {
    Failure(description: reason)
  }

  /// Fails.
  ///
  /// - Parameter session: Ignored.
  /// - Throws: ``Failure``.
  public func save(_ session: Session) throws {
    attemptedWrites += 1
    throw fail()
  }

  /// The session the store was made with.
  ///
  /// - Returns: The session.
  /// - Throws: ``Failure`` when `failsReads`.
  public func load() throws -> Session? {
    if failsReads { throw fail() }
    return session
  }

  /// Fails.
  ///
  /// - Throws: ``Failure``.
  public func clear() throws {
    attemptedWrites += 1
    throw fail()
  }

  /// The lockout record the store was made with.
  ///
  /// - Returns: The record.
  /// - Throws: ``Failure`` when `failsReads`.
  public func load() throws -> LockoutRecord? {
    if failsReads { throw fail() }
    return lockout
  }

  /// Fails; nothing changes.
  ///
  /// - Parameter change: Not called.
  /// - Returns: Never.
  /// - Throws: ``Failure``.
  @discardableResult
  public func update(_ change: @Sendable (LockoutRecord?) -> LockoutRecord?) throws
    -> LockoutRecord?
  {
    attemptedWrites += 1
    throw fail()
  }
}
