import Foundation

/// A system call's error number in words, for messages.
package enum SystemError {
  /// What `strerror` says about `code` (`No space left on device`), or `error <code>` when it
  /// says nothing.
  package static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
