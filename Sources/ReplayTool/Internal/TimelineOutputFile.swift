import ActionLog
import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `replay --html` writes its page, opened with care.
///
/// - A path that does not exist yet is created; an existing HTML file (or an empty one) is
///   replaced whole (`ReplacementFile`): the page is written to a new file next to it, flushed
///   to stable storage and renamed over it at the end, so a failed run leaves the old page as
///   it was and never writes through a link. The page is created readable by its owner only
///   (0600), like the log it shows: it holds the same names.
/// - A character device or a pipe (`/dev/null`, `/dev/full`, a FIFO) is written directly,
///   opened with `O_NOFOLLOW`, and checked to be one once open; a pipe with no reader is
///   refused instead of waited on.
/// - A symbolic link, a directory, any other existing file (a log, a source file) and any
///   other kind of file are refused: the page never clobbers what it did not write.
/// - `replay --serve` writes its page to memory (``inMemory()``), to answer requests with.
final class TimelineOutputFile {
  /// The path as given, for messages.
  let path: String
  private var destination: Destination?
  /// The page written to memory, once committed (``inMemory()``).
  private(set) var contents: [UInt8] = []
  private var pending: [UInt8] = []

  /// Where the page goes.
  private enum Destination {
    /// A new file put in place of ``path`` by ``commit()``.
    case file(ReplacementFile)
    /// A device or a pipe, written directly.
    case device(Int32)
    /// Memory: ``contents`` once committed.
    case memory
  }

  private var quoted: String { Sanitized.path(path) }

  private init(path: String, destination: Destination) {
    self.path = path
    self.destination = destination
  }

  deinit {
    discard()
  }

  /// Opens `path` for the page, or explains why it must not be written.
  ///
  /// - Throws: ``ReplayFailure/output(_:)`` (exit status 2).
  static func make(_ path: String) throws(ReplayFailure) -> TimelineOutputFile {
    if let problem = MissingFolder.problem(of: path, option: "--html") { throw .output(problem) }
    switch try Existing.kind(of: path) {
    case .missing, .replaceableFile:
      do throws(ReplacementFile.Failure) {
        return TimelineOutputFile(
          path: path, destination: .file(try ReplacementFile(replacing: path)))
      } catch {
        throw .output("cannot create \(Sanitized.path(path)): \(error.message)")
      }
    case .device, .pipe:
      return TimelineOutputFile(path: path, destination: .device(try openDevice(path)))
    }
  }

  /// A page written to memory: ``contents`` holds it once committed.
  static func inMemory() -> TimelineOutputFile {
    TimelineOutputFile(path: "the served page", destination: .memory)
  }

  /// Opens the device or pipe at `path` and checks that a device or a pipe is what was opened:
  /// the path may have been replaced since it was looked at.
  ///
  /// A pipe is opened without blocking, so one with no reader is refused at once instead of
  /// waiting for one; the writes then block as usual.
  private static func openDevice(_ path: String) throws(ReplayFailure) -> Int32 {
    let quoted = Sanitized.path(path)
    let descriptor = open(
      path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENXIO, (try? Existing.kind(of: path)) == .pipe {
        throw .output("\(quoted) is a pipe with no reader; start what reads it first")
      }
      throw .output("cannot write \(quoted): \(SystemError.message(code))")
    }
    var info = stat()
    let opened: mode_t? = fstat(descriptor, &info) == 0 ? info.st_mode & S_IFMT : nil
    guard opened == S_IFCHR || opened == S_IFIFO else {
      PrivateFile.close(descriptor)
      throw .output("\(quoted) changed while it was opened; it is no longer a device or a pipe")
    }
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
      let code = errno
      PrivateFile.close(descriptor)
      throw .output("cannot write \(quoted): \(SystemError.message(code))")
    }
    return descriptor
  }

  /// Writes all of `text`.
  ///
  /// - Throws: ``ReplayFailure/write(_:)`` (exit status 1) when the system refuses.
  func write(_ text: String) throws(ReplayFailure) {
    switch destination {
    case .file(let file):
      do throws(ReplacementFile.Failure) {
        try file.write(text)
      } catch {
        throw .write("\(quoted): \(error.message)")
      }
    case .device(let descriptor):
      if let failure = WriteAll.write(text, to: descriptor) {
        throw .write("\(quoted): \(SystemError.message(failure))")
      }
    case .memory:
      pending += text.utf8
    case nil:
      throw .write("\(quoted): \(SystemError.message(EBADF))")
    }
  }

  /// Finishes the page: closes it and, for a file, puts it in place of ``path``.
  ///
  /// - Throws: ``ReplayFailure/write(_:)`` when closing reports a late write error, and
  ///   ``ReplayFailure/output(_:)`` when ``path`` has meanwhile become something the page
  ///   must not replace.
  func commit() throws(ReplayFailure) {
    let destination = self.destination.take()
    switch destination {
    case .device(let descriptor):
      if let failure = PrivateFile.close(descriptor) {
        throw .write("\(quoted): \(SystemError.message(failure))")
      }
    case .file(let file):
      do throws(ReplacementFile.Failure) {
        try file.finish()
      } catch {
        throw .write("\(quoted): \(error.message)")
      }
      // Checked again right before the rename; `rename` itself never follows a link at the
      // destination, it replaces the link.
      do throws(ReplayFailure) {
        let now = try Existing.kind(of: path)
        guard now != .device, now != .pipe else {
          throw .output("\(quoted) changed into a device while the page was written")
        }
      } catch {
        file.discard()
        throw error
      }
      do throws(ReplacementFile.Failure) {
        try file.putInPlace()
      } catch {
        throw .output("cannot replace \(quoted): \(error.message)")
      }
    case .memory:
      contents = pending
      pending = []
    case nil:
      return
    }
  }

  /// Closes the page without putting it in place (after a failure).
  func discard() {
    switch destination.take() {
    case .file(let file): file.discard()
    case .device(let descriptor): PrivateFile.close(descriptor)
    case .memory: pending = []
    case nil: return
    }
  }

  /// What is at the output path now.
  enum Existing: Equatable {
    case missing
    case replaceableFile
    case device
    case pipe

    /// Classifies `path` without following a link.
    ///
    /// - Throws: ``ReplayFailure/output(_:)`` for anything the page must not replace.
    static func kind(of path: String) throws(ReplayFailure) -> Existing {
      let quoted = Sanitized.path(path)
      var info = stat()
      guard lstat(path, &info) == 0 else {
        let code = errno
        if code == ENOENT { return .missing }
        throw .output("cannot write \(quoted): \(SystemError.message(code))")
      }
      switch info.st_mode & S_IFMT {
      case S_IFLNK:
        throw .output("\(quoted) is a symbolic link; refusing to write through it")
      case S_IFDIR:
        throw .output("\(quoted) is a directory")
      case S_IFCHR:
        return .device
      case S_IFIFO:
        return .pipe
      case S_IFREG:
        guard try isHTMLOrEmpty(path) else {
          throw .output(
            "\(quoted) exists and is not an HTML page; refusing to overwrite it")
        }
        return .replaceableFile
      default:
        throw .output("\(quoted) is not a regular file or a device; refusing to write to it")
      }
    }

    /// Whether the regular file at `path` is empty or starts like an HTML document.
    private static func isHTMLOrEmpty(_ path: String) throws(ReplayFailure) -> Bool {
      let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
      guard descriptor >= 0 else {
        throw .output("cannot read \(Sanitized.path(path)): \(SystemError.message(errno))")
      }
      defer { PrivateFile.close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: 512)
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 512) }
      guard count > 0 else { return count == 0 }
      var start = buffer.prefix(count)[...]
      if start.starts(with: [0xEF, 0xBB, 0xBF]) { start = start.dropFirst(3) }
      let text = String(decoding: start, as: UTF8.self)
        .drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
        .lowercased()
      return text.hasPrefix("<!doctype html") || text.hasPrefix("<html")
    }
  }
}
