import ActionLog
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output, written with `write(2)` so that a failed write (a full disk, a closed
/// pipe) is an error instead of lost text and a zero exit status.
enum StandardOutput {
  /// Writes all of `text`.
  ///
  /// - Throws: ``DemoFailure`` (`write error: No space left on device`, exit status 1).
  static func write(_ text: String) throws(DemoFailure) {
    let failure = WriteAll.write(text, to: STDOUT_FILENO)
    if let failure {
      throw DemoFailure("write error: \(SystemError.message(failure))")
    }
  }
}
