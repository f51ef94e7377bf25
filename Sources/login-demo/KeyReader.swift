import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A key the interactive mode understands.
enum Key: Equatable {
  case character(Character)
  case tab
  case backTab
  case enter
  case escape
  case backspace
  case interrupt
  case up
  case down
  case left
  case right
  case unknown
}

/// Turns the bytes a raw-mode terminal sends into keys.
///
/// Handles Tab, Shift-Tab (`ESC [ Z`), Enter (CR or LF), Esc, Backspace (DEL or BS), Ctrl-C,
/// the arrow keys, and printable UTF-8 characters — including one split across two reads.
/// A lone `ESC` at the end of a read is the Esc key; an `ESC` followed by more bytes in the
/// same read starts an escape sequence.
struct KeyDecoder {
  private var pending: [UInt8] = []

  mutating func decode(_ chunk: [UInt8]) -> [Key] {
    let bytes = pending + chunk
    pending = []
    var keys: [Key] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x03:
        keys.append(.interrupt)
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x0A, 0x0D:
        keys.append(.enter)
        index += 1
      case 0x08, 0x7F:
        keys.append(.backspace)
        index += 1
      case 0x1B:
        let (key, length) = Self.escapeSequence(bytes[(index + 1)...])
        keys.append(key)
        index += 1 + length
      case 0x00..<0x20:
        keys.append(.unknown)
        index += 1
      default:
        let length = Self.utf8Length(byte)
        guard length > 0 else {
          keys.append(.unknown)
          index += 1
          continue
        }
        guard index + length <= bytes.count else {
          pending = Array(bytes[index...])
          return keys
        }
        let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
        keys.append(text.first.map(Key.character) ?? .unknown)
        index += length
      }
    }
    return keys
  }

  /// The key of the escape sequence after an `ESC`, and how many bytes after the `ESC` it used.
  private static func escapeSequence(_ rest: ArraySlice<UInt8>) -> (Key, Int) {
    guard let introducer = rest.first else { return (.escape, 0) }
    switch introducer {
    case UInt8(ascii: "["):
      // CSI: parameters, then a final byte in 0x40...0x7E.
      var length = 1
      for byte in rest.dropFirst() {
        length += 1
        if (0x40...0x7E).contains(byte) {
          switch byte {
          case UInt8(ascii: "A"): return (.up, length)
          case UInt8(ascii: "B"): return (.down, length)
          case UInt8(ascii: "C"): return (.right, length)
          case UInt8(ascii: "D"): return (.left, length)
          case UInt8(ascii: "Z"): return (.backTab, length)
          default: return (.unknown, length)
          }
        }
      }
      return (.unknown, length)
    case UInt8(ascii: "O"):
      guard rest.count >= 2 else { return (.unknown, 1) }
      switch rest[rest.startIndex + 1] {
      case UInt8(ascii: "A"): return (.up, 2)
      case UInt8(ascii: "B"): return (.down, 2)
      case UInt8(ascii: "C"): return (.right, 2)
      case UInt8(ascii: "D"): return (.left, 2)
      default: return (.unknown, 2)
      }
    default:
      // Esc followed by another key (Alt-key or a fast typist): the Esc alone.
      return (.escape, 0)
    }
  }

  private static func utf8Length(_ lead: UInt8) -> Int {
    switch lead {
    case 0x20..<0x80: 1
    case 0xC2..<0xE0: 2
    case 0xE0..<0xF0: 3
    case 0xF0..<0xF5: 4
    default: 0
    }
  }
}

/// Reads keys from stdin on a thread of its own.
enum KeyReader {
  /// The keys typed on stdin; the stream finishes at end of input or on a read error.
  static func keys() -> AsyncStream<Key> {
    let (stream, continuation) = AsyncStream.makeStream(of: Key.self)
    DispatchQueue.global().async {
      var decoder = KeyDecoder()
      var buffer = [UInt8](repeating: 0, count: 64)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { break }
        for key in decoder.decode(Array(buffer[0..<count])) { continuation.yield(key) }
      }
      continuation.finish()
    }
    return stream
  }
}
