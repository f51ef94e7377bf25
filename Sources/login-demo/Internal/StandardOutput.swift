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
    var text = text
    let failure: Int32? = text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return nil }
      var offset = 0
      while offset < bytes.count {
        #if canImport(Darwin)
          let written = Darwin.write(STDOUT_FILENO, base + offset, bytes.count - offset)
        #else
          let written = Glibc.write(STDOUT_FILENO, base + offset, bytes.count - offset)
        #endif
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failure {
      throw DemoFailure("write error: \(String(cString: strerror(failure)))")
    }
  }
}
