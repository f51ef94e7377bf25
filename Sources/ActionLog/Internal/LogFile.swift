import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file opened for writing with plain POSIX calls, so every failure (ENOSPC, EIO) surfaces
/// as an error instead of an exception, and one call writes a whole batch.
///
/// Only the owner may read a log (mode 0600). A new file is created exclusively; an existing
/// one is replaced only when it is an earlier action log or empty (and is then made 0600), or
/// when it is a device or a pipe. A symbolic link at the path is never followed, and any other
/// file is left as it was.
///
/// Unlike the state files and the timeline page (`ReplacementFile`), a log is written in place,
/// not to a temporary file renamed at the end: `--follow` reads it while it grows, and an app
/// that dies mid-recording must leave every step written so far.
final class LogFile {
  private var descriptor: Int32
  private let name: String
  private(set) var size = 0

  private init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.name = name
  }

  /// A new file at `url`, created exclusively (`O_EXCL`), or `nil` when something is there
  /// already — whatever it is, it is left as it was.
  ///
  /// A flight recorder's segments are made this way, so two processes recording into one
  /// folder never write into the same file.
  static func createNew(at url: URL) throws(ActionLogError) -> LogFile? {
    let name = Sanitized.name(url.lastPathComponent)
    let created = PrivateFile.createNew(at: url.path)
    if created >= 0 { return LogFile(descriptor: created, name: name) }
    if errno == EEXIST { return nil }
    throw .ioError("cannot create \(name): \(SystemError.message(errno))")
  }

  init(url: URL) throws(ActionLogError) {
    name = Sanitized.name(url.lastPathComponent)
    let path = url.path
    // Created here, or there already: a file that vanishes in between is tried again.
    for _ in 0..<3 {
      let created = PrivateFile.createNew(at: path)
      if created >= 0 {
        descriptor = created
        return
      }
      guard errno == EEXIST else { break }
      let existing = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
      if existing < 0 {
        if errno == ENOENT { continue }
        if errno == ELOOP {
          throw .ioError("\(name) is a symbolic link; an action log is never written through one")
        }
        break
      }
      do {
        try Self.prepareForReplacing(existing, name: name)
      } catch {
        PrivateFile.close(existing)
        throw error
      }
      descriptor = existing
      return
    }
    throw .ioError("cannot create \(name): \(SystemError.message(errno))")
  }

  /// Checks that the open file at `descriptor` may be replaced, makes it private and empties
  /// it; devices and pipes are written as they are.
  private static func prepareForReplacing(_ descriptor: Int32, name: String) throws(ActionLogError)
  {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .ioError("cannot create \(name): \(SystemError.message(errno))")
    }
    switch status.st_mode & S_IFMT {
    case S_IFCHR, S_IFIFO:
      return
    case S_IFREG:
      break
    default:
      throw .ioError("\(name) is not a file; an action log is written to a file or a device")
    }
    if status.st_size > 0, !startsWithHeader(descriptor) {
      throw .ioError(
        "\(name) is not an action log; it was left as it was (record to a new file)")
    }
    if status.st_mode & 0o7777 != 0o600, fchmod(descriptor, 0o600) != 0 {
      throw .ioError(
        "cannot make \(name) readable by its owner only: \(SystemError.message(errno))")
    }
    guard ftruncate(descriptor, 0) == 0 else {
      throw .ioError("cannot empty \(name): \(SystemError.message(errno))")
    }
  }

  /// Whether the open file at `descriptor` begins as every header this build writes does
  /// (``ActionLogFormat/headerOpening``): how the package recognizes a file it wrote, by its
  /// content, before replacing or deleting it.
  static func startsWithHeader(_ descriptor: Int32) -> Bool {
    let opening = Array(ActionLogFormat.headerOpening.utf8)
    var bytes = [UInt8](repeating: 0, count: opening.count)
    var count = 0
    while count < opening.count {
      let read = bytes[count...].withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(count))
      }
      if read < 0, errno == EINTR { continue }
      guard read > 0 else { return false }
      count += read
    }
    return bytes == opening
  }

  /// What is at `path`, looked at without following a link or blocking on a FIFO: a regular
  /// file that begins with an action log's header (its size and identity), or why not.
  static func identify(_ path: String) -> Identity {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return .gone }
      if code == ELOOP { return .notAFile("a symbolic link") }
      return .unreadable(SystemError.message(code))
    }
    defer { PrivateFile.close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .unreadable(SystemError.message(errno)) }
    if let kind = FileKind.notRegular(status.st_mode) { return .notAFile(kind) }
    if status.st_size == 0 { return .empty }
    guard startsWithHeader(descriptor) else {
      return .foreign("does not begin with an action log's header")
    }
    return .actionLog(
      size: Int(status.st_size), device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
  }

  /// What ``identify(_:)`` found at a path.
  enum Identity: Equatable {
    /// A regular file that begins with an action log's header.
    case actionLog(size: Int, device: UInt64, inode: UInt64)
    /// An empty regular file: perhaps a segment another process has just created.
    case empty
    /// Nothing.
    case gone
    /// Not a regular file: a folder, a link, a FIFO… (``FileKind/notRegular(_:)``'s words).
    case notAFile(String)
    /// A regular file the package did not write, and why it says so.
    case foreign(String)
    /// It cannot be opened or examined: the system's words.
    case unreadable(String)
  }

  deinit {
    close()
  }

  func write(_ data: Data) throws(ActionLogError) {
    guard !data.isEmpty else { return }
    let failure = data.withUnsafeBytes { WriteAll.write($0, to: descriptor) }
    if let failure {
      throw .ioError("cannot write \(name): \(SystemError.message(failure))")
    }
    size += data.count
  }

  func close() {
    guard descriptor >= 0 else { return }
    PrivateFile.close(descriptor)
    descriptor = -1
  }
}
