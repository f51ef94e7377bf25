import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file opened for writing with plain POSIX calls, so every failure (ENOSPC, EIO) surfaces
/// as an error instead of an exception, and one call writes a whole batch.
final class LogFile {
  private var descriptor: Int32
  private let name: String
  private(set) var size = 0

  init(url: URL) throws(ActionLogError) {
    name = Sanitized.name(url.lastPathComponent)
    descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .ioError("cannot create \(name): \(SystemError.message(errno))")
    }
  }

  deinit {
    close()
  }

  func write(_ data: Data) throws(ActionLogError) {
    guard !data.isEmpty else { return }
    let failure: Int32? = data.withUnsafeBytes { raw -> Int32? in
      guard let base = raw.baseAddress else { return nil }
      var offset = 0
      while offset < raw.count {
        #if canImport(Darwin)
          let written = Darwin.write(descriptor, base + offset, raw.count - offset)
        #else
          let written = Glibc.write(descriptor, base + offset, raw.count - offset)
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
      throw .ioError("cannot write \(name): \(SystemError.message(failure))")
    }
    size += data.count
  }

  func close() {
    guard descriptor >= 0 else { return }
    #if canImport(Darwin)
      _ = Darwin.close(descriptor)
    #else
      _ = Glibc.close(descriptor)
    #endif
    descriptor = -1
  }
}
