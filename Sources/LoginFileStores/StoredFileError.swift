import Foundation
import LoginFeature

/// Why a stored session or lockout file could not be read, written or removed. Its description
/// names the file and the reason, never the file's content, so the effect handler passes it on
/// to the reducer (it is a ``LoginFeature/StorageError``).
///
/// <!-- sample: stored-file-errors -->
/// ```text
/// session.json: not a loginstore.session file; refusing to replace it
/// lockout.json: is not a regular file
/// ```
public struct StoredFileError: StorageError, Equatable {
  /// The file's path.
  public var path: String
  /// What is wrong, e.g. "not valid JSON" or "is a symbolic link; refusing to remove it".
  public var reason: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - reason: What is wrong.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `<file name>: <reason>`.
  public var description: String {
    "\(URL(fileURLWithPath: path).lastPathComponent): \(reason)"
  }
}
