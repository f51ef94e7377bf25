#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A system call's error number in words, for messages: the one way the package's files,
/// logs and tools say what `errno` means.
package enum SystemError {
  /// What `strerror` says about `code` (`No space left on device`), or `error <code>` when it
  /// says nothing.
  package static func message(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
