import Foundation
import StateStore

/// Where the parts of a step line are, for a line in exactly the layout the recorder writes:
/// found by looking at the bytes, without decoding the envelope.
///
/// The reader then decodes only the action (and the effects and the checkpoint when there are
/// any) with the log's decoder: decoding the envelope too, with a keyed container for its six
/// keys, cost more than the rest of a verified replay step. A line in any other layout — other
/// key order, whitespace, escapes in the digest, a number written another way — gives `nil`,
/// and so does anything unexpected: the reader then decodes the whole line as before, which
/// also gives every error its usual words.
package struct StepLineLayout {
  /// The step of a line in the recorder's own layout, with only its values decoded; `nil`
  /// for any other line, or when a value does not decode (the reader then decodes the whole
  /// line, which gives the error its usual words).
  ///
  /// - Parameters:
  ///   - line: One line, without its newline.
  ///   - decoder: Decodes the action, the effects and the checkpoint.
  /// - Returns: The step, with ``RecordedTransition/line`` 0.
  package static func step<State: Decodable, Action: Decodable, Effect: Decodable>(
    in line: Data, using decoder: CanonicalJSONDecoder
  ) -> RecordedTransition<State, Action, Effect>? {
    read(in: line, using: decoder)?.step
  }

  /// A step line read by ``read(in:using:)``: the step, and the parts it does not hold.
  package struct Read<State, Action, Effect> {
    package var step: RecordedTransition<State, Action, Effect>
    /// The step's patch, checked to be JSON.
    package var patch: [UInt8]?
    /// Where the checkpoint's state is, from the line's start.
    package var checkpoint: Range<Int>?
  }

  /// The step of a line in the recorder's own layout, as ``step(in:using:)`` gives it, and
  /// where its parts are (the patch, which the step does not hold, among them).
  package static func read<State: Decodable, Action: Decodable, Effect: Decodable>(
    in line: Data, using decoder: CanonicalJSONDecoder
  ) -> Read<State, Action, Effect>? {
    var values = Values<Action, Effect>(decoder: decoder)
    return read(in: line, using: &values)
  }

  /// Decodes the values of a reader's step lines, keeping the actions and the effects it has
  /// decoded by their bytes (``DecodedValues``): a log repeats them.
  package struct Values<Action: Decodable, Effect: Decodable> {
    /// Decodes every value.
    package let decoder: CanonicalJSONDecoder
    private var actions = DecodedValues<Action>()
    private var effects = DecodedValues<[Effect]>()

    /// Creates an empty one that decodes with `decoder`.
    package init(decoder: CanonicalJSONDecoder) {
      self.decoder = decoder
    }

    mutating func action(from bytes: Data) throws -> Action {
      try actions.value(of: bytes) { [decoder] in try decoder.decode(Action.self, from: $0) }
    }

    mutating func effects(from bytes: Data) throws -> [Effect] {
      try effects.value(of: bytes) { [decoder] in try decoder.decode([Effect].self, from: $0) }
    }
  }

  /// The step of a line in the recorder's own layout and where its parts are, with its values
  /// decoded by `values`.
  package static func read<State: Decodable, Action: Decodable, Effect: Decodable>(
    in line: Data, using values: inout Values<Action, Effect>
  ) -> Read<State, Action, Effect>? {
    guard let layout = find(in: line) else { return nil }
    let base = line.startIndex
    func slice(_ range: Range<Int>) -> Data {
      line[(base + range.lowerBound)..<(base + range.upperBound)]
    }
    // The step does not decode its patch: it must still be JSON, as the whole line's decoding
    // would check.
    let patch = layout.patch.map { Array(slice($0)) }
    if let patch, !JSONValueBytes.isValid(patch[...], maximumDepth: LineClassifier.maximumNesting) {
      return nil
    }
    do {
      let step = RecordedTransition<State, Action, Effect>(
        sequenceNumber: layout.sequenceNumber, time: layout.time.map { .milliseconds($0) },
        origin: layout.origin,
        action: try values.action(from: slice(layout.action)),
        effects: try layout.effects.map { try values.effects(from: slice($0)) } ?? [],
        inputs: try layout.inputs.map {
          try values.decoder.decode(StepInputs.self, from: slice($0))
        } ?? StepInputs(),
        digest: layout.digest,
        checkpoint: try layout.checkpoint.map {
          try values.decoder.decode(State.self, from: slice($0))
        })
      return Read(step: step, patch: patch, checkpoint: layout.checkpoint)
    } catch {
      return nil
    }
  }

  var sequenceNumber: Int
  /// Milliseconds since recording started; `nil` when the line has no time.
  var time: Int?
  var origin: ActionOrigin
  var action: Range<Int>
  /// `nil` for `[]`.
  var effects: Range<Int>?
  /// `nil` for a step that read no inputs.
  var inputs: Range<Int>?
  var digest: String
  var patch: Range<Int>?
  var checkpoint: Range<Int>?

  package static func find(in line: Data) -> StepLineLayout? {
    line.withUnsafeBytes { find(in: $0) }
  }

  static func find(in bytes: UnsafeRawBufferPointer) -> StepLineLayout? {
    var scanner = Scanner(bytes: bytes)
    guard scanner.skip(Fragments.seq), let number = scanner.positiveInteger() else { return nil }
    var time: Int?
    if scanner.skip(Fragments.time) {
      // A larger time is left to the `Codable` reading, which names it.
      guard let milliseconds = scanner.nonNegativeInteger(),
        milliseconds <= ActionLogFormat.maximumMilliseconds
      else { return nil }
      time = milliseconds
    }
    guard scanner.skip(Fragments.origin), let originText = scanner.plainText(),
      let origin = ActionOrigin(rawValue: originText),
      scanner.skip(Fragments.action), let action = scanner.value(),
      scanner.skip(Fragments.effects)
    else { return nil }
    var effects: Range<Int>?
    if !scanner.skip(Fragments.noEffects) {
      guard let range = scanner.value() else { return nil }
      effects = range
    }
    var inputs: Range<Int>?
    if scanner.skip(Fragments.inputs) {
      guard let range = scanner.value() else { return nil }
      inputs = range
    }
    guard scanner.skip(Fragments.digest), let digest = scanner.plainText(),
      scanner.skip(Fragments.quote)
    else { return nil }
    var patch: Range<Int>?
    if scanner.skip(Fragments.patch) {
      guard let range = scanner.value() else { return nil }
      patch = range
    }
    var checkpoint: Range<Int>?
    if scanner.skip(Fragments.checkpoint) {
      guard let range = scanner.value() else { return nil }
      checkpoint = range
    }
    guard scanner.skip(Fragments.end), scanner.isAtEnd else { return nil }
    return StepLineLayout(
      sequenceNumber: number, time: time, origin: origin, action: action, effects: effects,
      inputs: inputs, digest: digest, patch: patch, checkpoint: checkpoint)
  }

  /// The fixed parts of a step line as the recorder writes it (the fields of
  /// `RecordedTransition.writeFields`, written by `ActionLogFormat.LineWriter`), made once.
  private enum Fragments {
    typealias Format = ActionLogFormat
    static let seq = Array(Format.opening(.seq).utf8)
    static let time = Array(Format.separator(.time).utf8)
    /// The origin is a bare name, between quotes.
    static let origin = Array((Format.separator(.origin) + "\"").utf8)
    static let action = Array(("\"" + Format.separator(.action)).utf8)
    static let effects = Array(Format.separator(.effects).utf8)
    /// Most steps return no effects.
    static let noEffects = Array("[]".utf8)
    static let inputs = Array(Format.separator(.inputs).utf8)
    /// The digest is 16 hex digits, between quotes.
    static let digest = Array((Format.separator(.digest) + "\"").utf8)
    static let patch = Array(Format.separator(.patch).utf8)
    static let checkpoint = Array(Format.separator(.checkpoint).utf8)
    static let quote = [Format.quote]
    static let end = [Format.closingBrace]
  }

  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func skip(_ fragment: [UInt8]) -> Bool {
      guard bytes.count - position >= fragment.count else { return false }
      for (offset, byte) in fragment.enumerated() where bytes[position + offset] != byte {
        return false
      }
      position += fragment.count
      return true
    }

    /// 0 or more, without a sign or leading zeros, at most 18 digits.
    mutating func nonNegativeInteger() -> Int? {
      if skip([UInt8(ascii: "0")]) {
        guard position < bytes.count,
          bytes[position] < UInt8(ascii: "0") || bytes[position] > UInt8(ascii: "9")
        else { return nil }
        return 0
      }
      return positiveInteger()
    }

    /// 1 or more, without a sign or leading zeros, at most 18 digits.
    mutating func positiveInteger() -> Int? {
      let start = position
      var value = 0
      while position < bytes.count, position - start < 18,
        case let byte = bytes[position], byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9")
      {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        position += 1
      }
      guard position > start, bytes[start] != UInt8(ascii: "0"), position < bytes.count,
        bytes[position] < UInt8(ascii: "0") || bytes[position] > UInt8(ascii: "9")
      else { return nil }
      return value
    }

    /// Printable ASCII up to (not including) the next quote, without escapes: how the
    /// recorder writes an origin and a digest, whose quotes are part of the fragments around
    /// them.
    mutating func plainText() -> String? {
      let start = position
      while position < bytes.count, bytes[position] != ActionLogFormat.quote {
        let byte = bytes[position]
        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
        position += 1
      }
      guard position < bytes.count else { return nil }
      return String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// The extent of one JSON object, array or string: brackets matched outside strings. The
    /// value itself is checked by the decoder that reads it.
    mutating func value() -> Range<Int>? {
      let start = position
      guard position < bytes.count else { return nil }
      switch bytes[position] {
      case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""): break
      default: return nil
      }
      var nesting = JSONNesting()
      while position < bytes.count {
        // Decoded alone, a value may nest one level deeper than inside the line: leave deep
        // values to the whole line's decoding and its limit.
        if nesting.take(bytes[position]) > 0,
          nesting.depth >= LineClassifier.maximumNesting - 1
        {
          return nil
        }
        position += 1
        if nesting.depth == 0, !nesting.isInString { return start..<position }
      }
      return nil
    }
  }
}
