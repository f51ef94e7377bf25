import Foundation

/// A save or clear of the session or the lockout that did not happen, as the effect handler
/// reports it to the reducer in ``LoginAction/storageFailed(_:)``.
///
/// A failed effect is an action: the person is told, and the action log and a `TestStore` see
/// it. The ``reason`` is safe to show and to log — a ``StorageError``'s description (the file and
/// why, e.g. `session.json: Read-only file system`), or else only the error's type, never the
/// stored data.
///
/// ```swift
/// store.send(.storageFailed(StorageFailure(.clearSession, reason: "session.json: Read-only file system")))
/// ```
public struct StorageFailure: Sendable, Equatable, Codable {
  /// What the handler was asked to do.
  public enum Operation: String, Sendable, Equatable, Codable {
    /// ``LoginEffect/saveSession(_:)``: keep the session for the next launch.
    case saveSession
    /// ``LoginEffect/clearSession``: forget the kept session.
    case clearSession
    /// ``LoginEffect/updateLockout(_:)``: count a failed attempt, or reset the count.
    case updateLockout
  }

  /// What did not happen.
  public var operation: Operation
  /// Why, in words safe for a person and a log.
  public var reason: String

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - operation: What did not happen.
  ///   - reason: Why, in words safe for a person and a log.
  public init(_ operation: Operation, reason: String) {
    self.operation = operation
    self.reason = reason
  }

  /// Creates a failure from the error a store threw, described by ``describe(_:)``.
  ///
  /// - Parameters:
  ///   - operation: What did not happen.
  ///   - error: What the store threw.
  public init(_ operation: Operation, error: any Error) {
    self.init(operation, reason: Self.describe(error))
  }

  /// Words for a store's error, safe for logs: its description when it is a ``StorageError``,
  /// else only its type — never the data.
  ///
  /// - Parameter error: What a store threw.
  /// - Returns: The words.
  public static func describe(_ error: any Error) -> String {
    if let error = error as? any StorageError { return error.description }
    return "\(type(of: error))"
  }
}
