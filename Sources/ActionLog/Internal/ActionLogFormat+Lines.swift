import Foundation
import StateStore

// MARK: - Reading a line

extension ActionLogFormat {
  /// One line after the header, decoded in a single pass: the line's container is opened
  /// once, its `kind` read first, and the line type it names decodes its fields from it.
  enum Line<State: Decodable, Action: Decodable, Effect: Decodable>: Decodable {
    case step(RecordedTransition<State, Action, Effect>)
    case gap(Gap<State>)
    case stopped(Stopped)
    case warning(Warning)
    case closed
    case header
    case unknownKind(String)

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      guard let kind = try container.decodeIfPresent(String.self, forKey: .kind) else {
        if container.contains(.format) {
          self = .header
          return
        }
        self = .step(try RecordedTransition(fields: container))
        return
      }
      switch MarkerKind(rawValue: kind) {
      case .gap?: self = .gap(try Gap(fields: container))
      case .stopped?: self = .stopped(try Stopped(fields: container))
      case .closed?: self = .closed
      case .warning?: self = .warning(try Warning(fields: container))
      case nil: self = .unknownKind(kind)
      }
    }
  }

  /// Throws unless the line's `kind` is `expected`.
  static func expectKind(
    _ expected: MarkerKind, in container: KeyedDecodingContainer<Key>
  ) throws {
    guard try container.decode(MarkerKind.self, forKey: .kind) == expected else {
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container, debugDescription: "not a \(expected.rawValue) marker")
    }
  }
}

// MARK: - Writing a line

extension ActionLogFormat {
  /// How every header this build writes begins: `{"format":"loginstore.actionlog"`.
  ///
  /// A file that begins otherwise is not an action log, and the recorder does not replace it.
  static let headerOpening = opening(.format) + "\"" + name + "\""

  /// `{"key":`: the start of a line whose first key is `key`.
  static func opening(_ key: Key) -> String { "{\"" + key.rawValue + "\":" }

  /// `,"key":`: what comes between a value and the next key.
  static func separator(_ key: Key) -> String { ",\"" + key.rawValue + "\":" }

  /// `{"kind":"gap"`: the start of a marker line.
  static func markerOpening(_ kind: MarkerKind) -> String {
    opening(.kind) + "\"" + kind.rawValue + "\""
  }

  /// The bytes closing a log adds: `{"kind":"closed"}` and its newline.
  static var closedLineByteCount: Int { markerOpening(.closed).utf8.count + 2 }

  static let quote = UInt8(ascii: "\"")
  static let closingBrace = UInt8(ascii: "}")

  /// The largest step time a log holds, in milliseconds: `Int.max / 1000` (about 292,000
  /// years). The writer writes no larger time, and every reader refuses one, on its fast path
  /// (`StepLineLayout`) and on `Codable`'s alike.
  static let maximumMilliseconds = Int.max / 1_000

  /// `time` in whole milliseconds, rounded down; 0 for a negative time, at most
  /// ``maximumMilliseconds``.
  static func milliseconds(_ time: Duration) -> Int {
    let (seconds, attoseconds) = time.components
    guard seconds >= 0 else { return 0 }
    guard seconds < Int64(maximumMilliseconds / 1_000) else { return maximumMilliseconds }
    return min(
      Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000), maximumMilliseconds)
  }

  /// Appends the canonical JSON of `value` (see ``CanonicalJSON``).
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming `Value` and what was met where.
  static func appendCanonical<Value: Encodable>(
    _ value: Value, to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    do {
      try CanonicalJSON.append(value, to: &line, using: encoder)
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: Value.self))
    }
  }
}
