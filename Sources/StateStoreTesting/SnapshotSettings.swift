import Foundation

/// Where snapshots are stored and how record mode is switched on.
///
/// The defaults follow the convention: snapshots live in `__Snapshots__/<TestFile>/` beside the
/// test file, and setting `SNAPSHOT_RECORD=1` in the environment re-records them. Tests of
/// snapshot tooling (and unusual layouts) override them for a task:
///
/// ```swift
/// let settings = SnapshotSettings(directory: temporaryFolder, environment: { _ in nil })
/// SnapshotSettings.$current.withValue(settings) {
///   assertSnapshot(of: state)
/// }
/// ```
public struct SnapshotSettings: Sendable {
  /// The environment variable that turns record mode on when set to anything but `0`.
  public static let recordVariable = "SNAPSHOT_RECORD"

  /// The folder that replaces `<test file's folder>/__Snapshots__`, or `nil` for that default.
  public var directory: String?

  /// Reads an environment variable; the process environment by default.
  public var environment: @Sendable (String) -> String?

  /// Creates settings.
  ///
  /// - Parameters:
  ///   - directory: The folder that replaces `__Snapshots__`; `nil` for the default.
  ///   - environment: Reads an environment variable.
  public init(
    directory: String? = nil,
    environment: @escaping @Sendable (String) -> String? = {
      ProcessInfo.processInfo.environment[$0]
    }
  ) {
    self.directory = directory
    self.environment = environment
  }

  /// The settings snapshot assertions in this task use.
  @TaskLocal public static var current = SnapshotSettings()

  /// Whether record mode is on: ``recordVariable`` is set, and not to `0` or an empty string.
  public var isRecording: Bool {
    guard let value = environment(Self.recordVariable) else { return false }
    return !value.isEmpty && value != "0"
  }

  /// The file a snapshot is stored in.
  ///
  /// - Parameters:
  ///   - filePath: The test file's path (`#filePath`).
  ///   - function: The test function (`#function`); everything from its `(` is dropped.
  ///   - name: An optional name that tells several snapshots of one test apart.
  /// - Returns: `<directory>/<TestFile>/<test>[.<name>].txt`.
  public func path(filePath: String, function: String, name: String?) -> String {
    let testFile = URL(fileURLWithPath: filePath)
    let root =
      directory.map { URL(fileURLWithPath: $0) }
      ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
    let test = function.prefix { $0 != "(" }
    let fileName = ([String(test)] + (name.map { [$0] } ?? [])).map(Self.sanitized)
      .joined(separator: ".")
    return
      root
      .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
      .appendingPathComponent(fileName + ".txt").path
  }

  private static func sanitized(_ component: String) -> String {
    let allowed = component.map { character -> Character in
      character.isLetter || character.isNumber || "-_".contains(character) ? character : "-"
    }
    return allowed.isEmpty ? "-" : String(allowed)
  }
}
