import Dispatch
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A key the interactive mode understands.
package enum Key: Equatable, Sendable {
  case character(Character)
  /// Several characters typed at once — a paste — made by ``coalesced(_:)`` from a run of
  /// ``character(_:)`` keys, so they change a field once.
  case text(String)
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
  /// Home, or Ctrl-A: the cursor to the start of the field.
  case home
  /// End, or Ctrl-E: the cursor to the end of the field.
  case end
  /// Delete (forward): the character under the cursor.
  case delete
  /// Ctrl-U: everything before the cursor.
  case deleteToStart
  /// Ctrl-W: the word before the cursor.
  case deleteWord
  case unknown

  /// What the key types, if it types text.
  var typedText: String? {
    switch self {
    case .character(let character): String(character)
    case .text(let text): text
    default: nil
    }
  }

  /// `keys` with every run of characters joined into one ``text(_:)`` key.
  package static func coalesced(_ keys: [Key]) -> [Key] {
    var result: [Key] = []
    var run = ""
    var runLength = 0
    func endRun() {
      if runLength == 1, let character = run.first {
        result.append(.character(character))
      } else if runLength > 1 {
        result.append(.text(run))
      }
      run = ""
      runLength = 0
    }
    for key in keys {
      if case .character(let character) = key {
        run.append(character)
        runLength += 1
      } else {
        endRun()
        result.append(key)
      }
    }
    endRun()
    return result
  }
}

/// Turns the bytes a raw-mode terminal sends into keys.
///
/// Handles Tab, Shift-Tab (`ESC [ Z`), Enter (CR or LF), Esc, Backspace (DEL or BS), Ctrl-C,
/// the arrow keys, Home and End (`ESC [ H`, `ESC [ F`, `ESC [ 1 ~`, `ESC [ 4 ~`, `ESC O H`, …,
/// Ctrl-A, Ctrl-E), Delete (`ESC [ 3 ~`), Ctrl-U, Ctrl-W, and printable UTF-8 characters —
/// including one split across two reads.
/// A lone `ESC` at the end of a read is the Esc key; an `ESC` followed by more bytes in the
/// same read starts an escape sequence.
package struct KeyDecoder {
  private var pending: [UInt8] = []

  package init() {}

  package mutating func decode(_ chunk: [UInt8]) -> [Key] {
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
      case 0x01, 0x05, 0x15, 0x17:
        let control: [UInt8: Key] = [
          0x01: .home, 0x05: .end, 0x15: .deleteToStart, 0x17: .deleteWord,
        ]
        keys.append(control[byte] ?? .unknown)
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
      var parameter: [UInt8] = []
      for byte in rest.dropFirst() {
        length += 1
        if (0x40...0x7E).contains(byte) {
          switch byte {
          case UInt8(ascii: "A"): return (.up, length)
          case UInt8(ascii: "B"): return (.down, length)
          case UInt8(ascii: "C"): return (.right, length)
          case UInt8(ascii: "D"): return (.left, length)
          case UInt8(ascii: "H"): return (.home, length)
          case UInt8(ascii: "F"): return (.end, length)
          case UInt8(ascii: "Z"): return (.backTab, length)
          case UInt8(ascii: "~"):
            switch String(decoding: parameter, as: UTF8.self) {
            case "1", "7": return (.home, length)
            case "4", "8": return (.end, length)
            case "3": return (.delete, length)
            default: return (.unknown, length)
            }
          default: return (.unknown, length)
          }
        }
        parameter.append(byte)
      }
      return (.unknown, length)
    case UInt8(ascii: "O"):
      guard rest.count >= 2 else { return (.unknown, 1) }
      switch rest[rest.startIndex + 1] {
      case UInt8(ascii: "A"): return (.up, 2)
      case UInt8(ascii: "B"): return (.down, 2)
      case UInt8(ascii: "C"): return (.right, 2)
      case UInt8(ascii: "D"): return (.left, 2)
      case UInt8(ascii: "H"): return (.home, 2)
      case UInt8(ascii: "F"): return (.end, 2)
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

/// Reads keys from stdin on a thread of its own, in batches.
///
/// A batch is every key that arrived while the app was busy with the previous one, so a paste
/// (thousands of bytes at once) is one batch that the app turns into one field change and one
/// redraw. After a large read the reader waits up to 10 ms for the rest of a paste the terminal
/// delivers in pieces; single key presses are handed on at once.
enum KeyReader {
  /// Reads larger than this are taken for a paste.
  static let pasteThreshold = 64
  /// How long the reader waits for more of a paste.
  static let pasteWaitMilliseconds: Int32 = 10
  /// The most bytes one batch reads, so a paste of any size still draws now and then.
  static let maximumBatchBytes = 1 << 20

  /// The batches of keys typed on stdin; `nil` from ``KeyQueue/next()`` at end of input or on
  /// a read error.
  static func keys() -> KeyQueue {
    let queue = KeyQueue()
    DispatchQueue.global().async {
      var decoder = KeyDecoder()
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      reading: while true {
        var bytes: [UInt8] = []
        var count = readSome(&buffer)
        guard count > 0 else { break }
        bytes += buffer[0..<count]
        while count > pasteThreshold, bytes.count < maximumBatchBytes,
          isReadable(waitingMilliseconds: pasteWaitMilliseconds)
        {
          count = readSome(&buffer)
          guard count > 0 else {
            queue.append(decoder.decode(bytes))
            break reading
          }
          bytes += buffer[0..<count]
        }
        queue.append(decoder.decode(bytes))
      }
      queue.finish()
    }
    return queue
  }

  /// One `read`, retried when a signal (a resize) interrupts it: 0 at end of input, -1 on
  /// an error.
  private static func readSome(_ buffer: inout [UInt8]) -> Int {
    while true {
      let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      return count
    }
  }

  private static func isReadable(waitingMilliseconds timeout: Int32) -> Bool {
    var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&descriptor, 1, timeout) > 0
  }
}

/// The keys the reader thread decoded and the app has not taken yet: the app takes all of
/// them at once, as one batch.
final class KeyQueue: Sendable {
  private struct State {
    var keys: [Key] = []
    var isFinished = false
    var waiter: CheckedContinuation<[Key]?, Never>?
  }

  private let state = Guarded(State())

  /// Adds keys; wakes the app if it is waiting.
  func append(_ keys: [Key]) {
    guard !keys.isEmpty else { return }
    let waiter: CheckedContinuation<[Key]?, Never>? = state.withLock { state in
      if let waiter = state.waiter {
        state.waiter = nil
        return waiter
      }
      state.keys += keys
      return nil
    }
    waiter?.resume(returning: keys)
  }

  /// Ends the input: once the keys left are taken, ``next()`` returns `nil`.
  func finish() {
    let waiter: CheckedContinuation<[Key]?, Never>? = state.withLock { state in
      state.isFinished = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Every key waiting, or the next ones to arrive; `nil` at the end of input. One caller at a
  /// time.
  func next() async -> [Key]? {
    await withCheckedContinuation { continuation in
      let ready: [Key]?? = state.withLock { state in
        if !state.keys.isEmpty {
          defer { state.keys = [] }
          return .some(state.keys)
        }
        if state.isFinished { return .some(nil) }
        state.waiter = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
