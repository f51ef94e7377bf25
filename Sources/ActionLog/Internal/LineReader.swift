import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file line by line in 64 KiB chunks, with a maximum line length, so memory stays
/// bounded by that limit whatever the file holds.
final class LineReader {
  struct Line {
    /// 1-based.
    var number: Int
    /// Without the newline (and without a trailing carriage return).
    var bytes: Data
    /// False for a last line that has no newline.
    var isTerminated: Bool
  }

  static let chunkSize = 64 * 1024

  let maximumLineLength: Int
  /// Whether the end of the file is only where the writer has got to (`replay --follow`): a
  /// partial last line waits for the rest instead of being returned, and reading on later
  /// picks up what was appended.
  var follows = false
  private let descriptor: Int32
  /// The bytes read and not yet taken as lines are `buffer[start..<end]`. An array the reader
  /// owns: no manual allocation (the package's one is its lock type's).
  private var buffer = [UInt8](repeating: 0, count: LineReader.chunkSize)
  private var start = 0
  private var end = 0
  private var atEndOfFile = false
  private var failure: ActionLogError?
  private(set) var lineNumber = 0
  /// Bytes read from the file so far.
  private var bytesFilled = 0
  /// The file's size when it was opened: a log is only ever appended to.
  private let openedSize: Int
  /// The first bytes read from the file (a log's header up to past its `created` time) and the
  /// last ones: what ``isRewritten()`` looks for again at the same places.
  private var head: [UInt8] = []
  private var tail: [UInt8] = []
  static let headLength = 512
  static let tailLength = 64

  /// Bytes of the file taken as lines so far: how far into the file the reading is.
  var bytesConsumed: Int { bytesFilled - (end - start) }

  init(url: URL, maximumLineLength: Int) throws(ActionLogError) {
    self.maximumLineLength = max(1, maximumLineLength)
    // The path as it was given (a URL made from a typed path keeps it as its relative path).
    let name = Sanitized.path(url.relativePath)
    // Non-blocking, so that opening a FIFO with no writer returns instead of waiting for one;
    // only regular files are read, and reading them never blocks either way.
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      throw .ioError("cannot open \(name): \(SystemError.message(errno))")
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let message = SystemError.message(errno)
      close(descriptor)
      throw .ioError("cannot read \(name): \(message)")
    }
    if let kind = FileKind.notRegular(info.st_mode) {
      close(descriptor)
      throw .ioError("\(name) is \(kind), not an action log")
    }
    self.descriptor = descriptor
    openedSize = Int(info.st_size)
  }

  deinit {
    close(descriptor)
  }

  /// The next line, or `nil` at the end of the file.
  func next() throws(ActionLogError) -> Line? {
    if let failure { throw failure }
    do {
      return try readLine()
    } catch {
      failure = error
      throw error
    }
  }

  private func readLine() throws(ActionLogError) -> Line? {
    while true {
      if end > start, let newline = newlineIndex() {
        lineNumber += 1
        var length = newline - start
        guard length <= maximumLineLength else {
          throw .lineTooLong(line: lineNumber, limit: maximumLineLength)
        }
        if length > 0, buffer[start + length - 1] == 13 {
          length -= 1
        }
        let bytes = Data(buffer[start..<(start + length)])
        start = newline + 1
        return Line(number: lineNumber, bytes: bytes, isTerminated: true)
      }
      if end - start > maximumLineLength {
        throw .lineTooLong(line: lineNumber + 1, limit: maximumLineLength)
      }
      if atEndOfFile, follows {
        atEndOfFile = false
        return nil
      }
      if atEndOfFile {
        guard start < end else { return nil }
        lineNumber += 1
        let bytes = Data(buffer[start..<end])
        start = end
        return Line(number: lineNumber, bytes: bytes, isTerminated: false)
      }
      try fill()
    }
  }

  /// Where the first newline in `buffer[start..<end]` is, found by `memchr` over the reader's
  /// own bytes.
  private func newlineIndex() -> Int? {
    buffer.withUnsafeBytes { bytes -> Int? in
      guard let base = bytes.baseAddress,
        let found = memchr(base + start, Int32(CanonicalJSON.newline), end - start)
      else { return nil }
      return base.distance(to: UnsafeRawPointer(found))
    }
  }

  /// Moves the partial line to the front, grows the buffer if a chunk does not fit, and reads.
  private func fill() throws(ActionLogError) {
    if start > 0 {
      if end > start {
        let (from, count) = (start, end - start)
        buffer.withUnsafeMutableBytes { bytes in
          guard let base = bytes.baseAddress else { return }
          memmove(base, base + from, count)
        }
      }
      end -= start
      start = 0
    }
    if buffer.count - end < Self.chunkSize {
      // The partial line is at most maximumLineLength + 1 bytes here, so this stays bounded.
      let grown = max(buffer.count * 2, end + Self.chunkSize)
      // An array, not `repeatElement`: unoptimized (a host's debug build, the test suite), that
      // one is appended element by element, 50 ms per 64 KiB against 0.15 ms.
      buffer.append(contentsOf: [UInt8](repeating: 0, count: grown - buffer.count))
    }
    while true {
      let filled = end
      let count = buffer.withUnsafeMutableBytes { bytes in
        read(descriptor, bytes.baseAddress.map { $0 + filled }, bytes.count - filled)
      }
      // A reader that does not follow reads one recording: bytes of another one, or an end
      // where the file was cut, would be taken for the log's own.
      if count >= 0, !follows, isRewritten() {
        throw .rewrittenWhileRead(line: lineNumber + 1)
      }
      if count > 0 {
        noteWitnesses(buffer[end..<(end + count)])
        end += count
        bytesFilled += count
        return
      }
      if count == 0 {
        atEndOfFile = true
        return
      }
      if errno == EINTR { continue }
      throw .ioError("cannot read line \(lineNumber + 1): \(SystemError.message(errno))")
    }
  }

  /// Keeps the first and the last bytes read, from the bytes one read just got: a few dozen
  /// bytes copied per 64 KiB read.
  private func noteWitnesses(_ bytes: ArraySlice<UInt8>) {
    if head.count < Self.headLength { head += bytes.prefix(Self.headLength - head.count) }
    tail =
      bytes.count >= Self.tailLength
      ? Array(bytes.suffix(Self.tailLength)) : Array((tail + bytes).suffix(Self.tailLength))
  }

  /// Whether the path this reader opened no longer names the file it reads, or names it
  /// rewritten from the start (`replay --follow`: the app recorded the path again).
  ///
  /// Told by the file, never by time: another file at the path (its device and inode differ
  /// from the open file's, which cannot be reused while this reader holds it open), the file
  /// shorter than what was read from it, or the first or the last bytes read no longer at their
  /// places (``isRewritten()``). A file recorded again byte for byte the same up to there
  /// cannot be told apart. A path with nothing at it is not a replacement (yet).
  ///
  /// - Parameter path: The path the reader was opened at.
  func isReplaced(atPath path: String) -> Bool {
    var named = stat()
    var open = stat()
    guard stat(path, &named) == 0, fstat(descriptor, &open) == 0 else { return false }
    if named.st_dev != open.st_dev || named.st_ino != open.st_ino { return true }
    return isRewritten()
  }

  /// Whether the open file no longer holds what was read from it: it is shorter than what was
  /// read or than it was when opened, or the first or the last bytes read are no longer at
  /// their places. Checked after
  /// every read of a reader that does not follow (three system calls per 64 KiB), so bytes of
  /// another recording are never taken for the log's.
  func isRewritten() -> Bool {
    var open = stat()
    guard fstat(descriptor, &open) == 0 else { return false }
    if Int(open.st_size) < max(bytesFilled, openedSize) { return true }
    return !holds(head, at: 0) || !holds(tail, at: bytesFilled - tail.count)
  }

  /// Whether the open file holds `bytes` at `offset` now.
  private func holds(_ bytes: [UInt8], at offset: Int) -> Bool {
    guard !bytes.isEmpty else { return true }
    var found = [UInt8](repeating: 0, count: bytes.count)
    var filled = 0
    while filled < found.count {
      let count = found.withUnsafeMutableBytes { raw in
        pread(
          descriptor, raw.baseAddress.map { $0 + filled }, raw.count - filled,
          off_t(offset + filled))
      }
      if count > 0 {
        filled += count
      } else if count == 0 {
        return false  // The file ends before: it is shorter than it was.
      } else if errno != EINTR {
        // Unreadable now: no sign of another recording. The next read reports the error.
        return true
      }
    }
    return found == bytes
  }
}
