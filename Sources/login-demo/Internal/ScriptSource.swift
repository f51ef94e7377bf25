import ActionLog
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where script mode reads its lines: a file (`--script FILE`) or stdin, streamed one line at
/// a time, so memory stays bounded by the longest line accepted whatever the input —
/// `--script /dev/zero` included.
///
/// A line longer than ``maximumLineLength`` bytes stops the script with a usage error naming
/// it; every line before it has run.
final class ScriptSource {
  /// 1 MiB: far longer than any line a person writes.
  static let maximumLineLength = 1 << 20
  private static let chunkSize = 64 * 1024

  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// How read errors name the input: `script '/path'` or `the script on standard input`.
  private let name: String
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  /// The number of the last line returned, 1-based.
  private(set) var lineNumber = 0

  /// Opens the file at `path`, or reads stdin when `path` is `nil`.
  ///
  /// - Throws: ``DemoFailure`` when the file cannot be opened: an input error (exit status 2),
  ///   as every path a command line names that is not there.
  init(path: String?) throws(DemoFailure) {
    guard let path else {
      descriptor = STDIN_FILENO
      ownsDescriptor = false
      name = "the script on standard input"
      return
    }
    name = "script \(Sanitized.path(path))"
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .usage("cannot read \(name): \(SystemError.message(errno))")
    }
    ownsDescriptor = true
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
  }

  /// The next line without its newline, or `nil` at the end of the input.
  ///
  /// - Throws: ``DemoFailure``: a usage error (exit status 2) for a line over the limit, or a
  ///   read error (exit status 1).
  func next() throws(DemoFailure) -> String? {
    var searched = start
    while true {
      if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        return try line(upTo: newline, next: newline + 1)
      }
      searched = buffer.count
      if buffer.count - start > Self.maximumLineLength {
        throw .usage(
          "script line \(lineNumber + 1): longer than the limit of \(Self.maximumLineLength) "
            + "bytes; is this a script?")
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        return try line(upTo: buffer.count, next: buffer.count)
      }
      // Keep only the partial line, then read more after it.
      if start > 0 {
        buffer.removeSubrange(0..<start)
        searched -= start
        start = 0
      }
      try fill()
    }
  }

  private func line(upTo end: Int, next: Int) throws(DemoFailure) -> String {
    lineNumber += 1
    if end - start > Self.maximumLineLength {
      throw .usage(
        "script line \(lineNumber): longer than the limit of \(Self.maximumLineLength) bytes; "
          + "is this a script?")
    }
    var text = String(decoding: buffer[start..<end], as: UTF8.self)
    start = next
    // Editors on some systems begin a UTF-8 file with a byte order mark: it is not a command.
    if lineNumber == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    return text
  }

  private func fill() throws(DemoFailure) {
    let old = buffer.count
    // An array, not `repeatElement`, which a debug build appends element by element.
    buffer.append(contentsOf: [UInt8](repeating: 0, count: Self.chunkSize))
    while true {
      let count = buffer.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + old, Self.chunkSize)
      }
      if count >= 0 {
        buffer.removeLast(Self.chunkSize - count)
        if count == 0 { atEnd = true }
        return
      }
      if errno == EINTR { continue }
      let reason = SystemError.message(errno)
      buffer.removeLast(Self.chunkSize)
      throw DemoFailure("cannot read \(name): \(reason)")
    }
  }
}
