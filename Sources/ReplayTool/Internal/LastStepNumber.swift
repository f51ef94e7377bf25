import ActionLog
import Foundation

/// The sequence number of a log's last step, read from the end of the file alone: what
/// `--until N` checks before it prints anything, so that a log with fewer steps is said at
/// once instead of after the whole timeline.
///
/// Only whole lines count (a truncated last line is no step), and only a line in the
/// recorder's layout, `{"seq":N,…`; the markers after the last step are skipped. When the last
/// step line does not start within the last `window` bytes, or the file cannot be read, the
/// number is not known cheaply: `nil`, and the replay finds out as it goes. A log without
/// steps gives 0. Sequence numbers
/// follow one another (the reader refuses a log where they do not), so no step of the log is
/// numbered past its last one.
enum LastStepNumber {
  /// How far from the end a step line is looked for: one read.
  static let window = 1 << 20

  /// The last step's number in the log at `url` (0 when it has none), or `nil` when it is not
  /// known cheaply.
  static func of(_ url: URL) -> Int? {
    let data: Data
    let start: UInt64
    do {
      // Closed when it goes.
      let handle = try FileHandle(forReadingFrom: url)
      let size = try handle.seekToEnd()
      start = size > UInt64(window) ? size - UInt64(window) : 0
      try handle.seek(toOffset: start)
      data = try handle.read(upToCount: window) ?? Data()
    } catch {
      // Not known cheaply: the replay reads the file and reports what is wrong with it.
      return nil
    }
    let bytes = [UInt8](data)
    guard let end = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return start == 0 ? 0 : nil }
    var lineEnd = end
    while lineEnd > 0 {
      let lineStart = bytes[..<lineEnd].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }
      // A line that starts before the window is not whole in it.
      guard lineStart != nil || start == 0 else { return nil }
      let line = bytes[(lineStart ?? 0)..<lineEnd]
      if let number = stepNumber(in: line) { return number }
      // The whole file holds no step: 0.
      guard let lineStart else { return 0 }
      lineEnd = lineStart - 1
    }
    return nil
  }

  /// `N` of a line that starts `{"seq":N,`, in the recorder's layout.
  private static func stepNumber(in line: ArraySlice<UInt8>) -> Int? {
    let prefix = Array(("{\"" + ActionLogFormat.Key.seq.rawValue + "\":").utf8)
    guard line.starts(with: prefix) else { return nil }
    let digits = line.dropFirst(prefix.count).prefix { (0x30...0x39).contains($0) }
    guard !digits.isEmpty, digits.count <= 18,
      line.dropFirst(prefix.count + digits.count).first == UInt8(ascii: ",")
    else { return nil }
    return Int(String(decoding: digits, as: UTF8.self))
  }
}

extension LastStepNumber {
  /// The last step's number across a flight recorder's segments (0 when none has a step), or
  /// `nil` when one segment's is not known cheaply.
  static func of(_ segments: [URL]) -> Int? {
    var last = 0
    for segment in segments {
      guard let number = of(segment) else { return nil }
      last = max(last, number)
    }
    return last
  }
}
