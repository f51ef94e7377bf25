#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes every byte to a file descriptor, retrying short writes and `EINTR`: the one write
/// loop of the runtime warnings, the log files, the tools' standard output and error, and the
/// timeline page.
package enum WriteAll {
  /// Writes all of `bytes` to `descriptor`.
  ///
  /// - Returns: `nil` when everything was written, else the `errno` that stopped it.
  package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    guard let base = bytes.baseAddress else { return nil }
    var offset = 0
    while offset < bytes.count {
      #if canImport(Darwin)
        let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
      #elseif canImport(Musl)
        let written = Musl.write(descriptor, base + offset, bytes.count - offset)
      #else
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
      #endif
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }

  /// Writes all of `text`'s UTF-8 to `descriptor`.
  ///
  /// - Returns: `nil` when everything was written, else the `errno` that stopped it.
  package static func write(_ text: String, to descriptor: Int32) -> Int32? {
    var text = text
    return text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
  }
}
