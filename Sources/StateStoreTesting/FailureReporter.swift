import StateStore
import Testing
import XCTest

/// Where a failed assertion was written: the caller's file, line and column.
///
/// Every assertion in this module takes these as defaulted arguments, so a failure points at
/// the line of the test, not at the library.
public struct FailureLocation: Equatable, Sendable, CustomStringConvertible {
  /// The file's ID, `Module/File.swift`.
  public var fileID: String
  /// The file's full path, as XCTest wants it.
  public var filePath: StaticString
  /// The line, from 1.
  public var line: Int
  /// The column, from 1.
  public var column: Int

  /// Creates a location; the defaults capture the caller's.
  ///
  /// - Parameters:
  ///   - fileID: The file's ID.
  ///   - filePath: The file's full path.
  ///   - line: The line.
  ///   - column: The column.
  public init(
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: Int = #line,
    column: Int = #column
  ) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `fileID:line:column`.
  public var description: String { "\(fileID):\(line):\(column)" }

  /// Whether both name the same file, line and column.
  ///
  /// - Parameters:
  ///   - lhs: A location.
  ///   - rhs: Another location.
  /// - Returns: `true` when every field is equal.
  public static func == (lhs: FailureLocation, rhs: FailureLocation) -> Bool {
    lhs.fileID == rhs.fileID && "\(lhs.filePath)" == "\(rhs.filePath)" && lhs.line == rhs.line
      && lhs.column == rhs.column
  }
}

/// Reports test failures: to Swift Testing and to XCTest by default, or anywhere you like.
///
/// On Linux neither framework sees the other's failures, so the default reporter records a
/// Swift Testing issue *and*, when no Swift Testing test is running, calls `XCTFail` — each
/// at the caller's location. Swap the reporter for a task (``current``) to capture failures,
/// for example to test an assertion helper of your own:
///
/// ```swift
/// let failures = FailureReporter.Recorder()
/// await FailureReporter.$current.withValue(failures.reporter) {
///   await store.send(.increment)  // fails: the state changed
/// }
/// #expect(failures.failures.count == 1)
/// ```
public struct FailureReporter: Sendable {
  private let report: @Sendable (String, FailureLocation) -> Void

  /// Creates a reporter that hands each failure to `report`.
  ///
  /// - Parameter report: Receives the full message and the caller's location.
  public init(
    _ report: @escaping @Sendable (_ message: String, _ location: FailureLocation) -> Void
  ) {
    self.report = report
  }

  /// Records a Swift Testing issue, and fails the running XCTest test if there is one.
  ///
  /// `Issue.record` is always called (outside a Swift Testing test it is ignored on Linux);
  /// `XCTFail` only when `Test.current` is `nil`, so a Swift Testing test on a platform with
  /// interoperability does not see the failure twice.
  public static let testFrameworks = FailureReporter { message, location in
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: location.fileID, filePath: "\(location.filePath)", line: location.line,
        column: location.column))
    if Test.current == nil {
      XCTFail(message, file: location.filePath, line: UInt(location.line))
    }
  }

  /// The reporter the assertions of this task use; ``testFrameworks`` unless overridden.
  @TaskLocal public static var current = FailureReporter.testFrameworks

  /// Reports `message` at `location`.
  ///
  /// - Parameters:
  ///   - message: The whole failure message.
  ///   - location: The caller's location.
  public func callAsFunction(_ message: String, at location: FailureLocation) {
    report(message, location)
  }
}

extension FailureReporter {
  /// Collects failures instead of reporting them, for tests of assertions.
  public final class Recorder: Sendable {
    private let recorded = Guarded<[(message: String, location: FailureLocation)]>([])

    /// Creates an empty recorder.
    public init() {}

    /// A reporter that appends to this recorder.
    public var reporter: FailureReporter {
      FailureReporter { message, location in
        self.recorded.withLock { $0.append((message, location)) }
      }
    }

    /// The failures so far, in order.
    public var failures: [(message: String, location: FailureLocation)] {
      recorded.withLock { $0 }
    }

    /// The messages of the failures so far, in order.
    public var messages: [String] { failures.map(\.message) }
  }
}
