import Foundation

// MARK: - A line's fields, stated once

extension ActionLogFormat {
  /// Where a line type writes its fields, one after the other, in the line's order.
  ///
  /// Each line type states its keys, their order and their values once, in its
  /// `writeFields(to:)`; the recorder's `LineWriter` turns them into the line's bytes and
  /// `KeyedFields` into a keyed container for the public `Encodable` conformances. So the two
  /// writers of a line cannot disagree on a key, its spelling or its place.
  package protocol Fields {
    /// What writing a field throws.
    associatedtype Failure: Error
    /// A whole JSON value a step carries (its patch, its checkpoint): for the recorder's
    /// writer, its canonical bytes, already encoded; for `Encodable`, the value.
    associatedtype JSON

    /// Writes `number` under `key`.
    mutating func number(_ number: Int, for key: Key) throws(Failure)
    /// Writes `text` under `key`, as a JSON string.
    mutating func text(_ text: String, for key: Key) throws(Failure)
    /// Writes `value` under `key`.
    mutating func value<Value: Encodable>(_ value: Value, for key: Key) throws(Failure)
    /// Writes `values` under `key`, as a JSON array (most steps return no effects).
    mutating func list<Element: Encodable>(_ values: [Element], for key: Key) throws(Failure)
    /// Writes `json` under `key`.
    mutating func json(_ json: JSON, for key: Key) throws(Failure)
  }

  /// A line type whose fields are all its own: the header and the markers (a step's patch and
  /// checkpoint may come already encoded, see `RecordedTransition.writeFields`).
  package protocol WritableLine {
    /// Writes the line's fields, in the documented order: the one list that the recorder's
    /// writer and, for the header, `encode(to:)` write.
    func writeFields<Sink: Fields>(to fields: inout Sink) throws(Sink.Failure)
  }
}

extension ActionLogFormat.WritableLine {
  /// Appends the line, without its newline: the recorder's writer.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` naming a type that cannot be encoded.
  package func appendLine(
    to line: inout Data, using encoder: CanonicalJSONEncoder
  ) throws(ActionLogError) {
    try ActionLogFormat.LineWriter.append(to: &line, using: encoder) {
      (fields: inout ActionLogFormat.LineWriter) throws(ActionLogError) in
      try writeFields(to: &fields)
    }
  }
}

// MARK: - The recorder's bytes

extension ActionLogFormat {
  /// The recorder's writer: a line's fields as one JSON object, keys in the order they are
  /// written, values in canonical JSON (the action, the effects and the states encoded by
  /// `encoder`; a step's patch and checkpoint copied as the bytes the recorder encoded).
  package struct LineWriter: Fields {
    package typealias Failure = ActionLogError
    package typealias JSON = [UInt8]

    private var line = Data()
    /// The small parts written since the last value (keys, numbers, short texts), which go
    /// into `line` at once before the next value: an append to `Data` costs more than copying a
    /// few bytes, and a step line has a dozen such parts.
    private var pending: [UInt8] = []
    private let encoder: CanonicalJSONEncoder
    private var isFirst = true

    private init(encoder: CanonicalJSONEncoder) {
      self.encoder = encoder
      pending.reserveCapacity(128)
    }

    /// Appends the JSON object whose fields `write` writes to `line`.
    ///
    /// - Throws: What `write` throws; `line` then ends with an unfinished line.
    package static func append(
      to line: inout Data, using encoder: CanonicalJSONEncoder,
      _ write: (inout LineWriter) throws(ActionLogError) -> Void
    ) throws(ActionLogError) {
      var writer = LineWriter(encoder: encoder)
      swap(&writer.line, &line)
      defer { swap(&writer.line, &line) }
      writer.pending.append(UInt8(ascii: "{"))
      try write(&writer)
      writer.pending.append(closingBrace)
      writer.flush()
    }

    package mutating func number(_ number: Int, for key: Key) {
      open(key)
      pending.append(contentsOf: String(number).utf8)
    }

    package mutating func text(_ text: String, for key: Key) {
      // The package's one JSON escaper, as the canonical encoder writes a string.
      open(key)
      JSONString.append(text, escaping: .encoder, to: &pending)
    }

    package mutating func value<Value: Encodable>(
      _ value: Value, for key: Key
    ) throws(ActionLogError) {
      open(key)
      flush()
      try appendCanonical(value, to: &line, using: encoder)
    }

    package mutating func list<Element: Encodable>(
      _ values: [Element], for key: Key
    ) throws(ActionLogError) {
      guard values.isEmpty else { return try value(values, for: key) }
      open(key)
      pending.append(UInt8(ascii: "["))
      pending.append(UInt8(ascii: "]"))
    }

    package mutating func json(_ json: [UInt8], for key: Key) {
      open(key)
      flush()
      line.append(contentsOf: json)
    }

    /// `"key":`, after a comma unless it is the first field.
    private mutating func open(_ key: Key) {
      if isFirst {
        isFirst = false
      } else {
        pending.append(UInt8(ascii: ","))
      }
      pending.append(quote)
      pending.append(contentsOf: key.rawValue.utf8)
      pending.append(quote)
      pending.append(UInt8(ascii: ":"))
    }

    private mutating func flush() {
      line.append(contentsOf: pending)
      pending.removeAll(keepingCapacity: true)
    }
  }
}

// MARK: - The Encodable conformances

extension ActionLogFormat {
  /// The public `Encodable` conformances' writer: a line's fields into a keyed container, in
  /// the order they are written.
  struct KeyedFields<JSON: Encodable>: Fields {
    typealias Failure = any Error

    private var container: KeyedEncodingContainer<Key>

    /// Writes into `encoder`'s keyed container.
    init(_ encoder: any Encoder) {
      container = encoder.container(keyedBy: Key.self)
    }

    mutating func number(_ number: Int, for key: Key) throws {
      try container.encode(number, forKey: key)
    }

    mutating func text(_ text: String, for key: Key) throws {
      try container.encode(text, forKey: key)
    }

    mutating func value<Value: Encodable>(_ value: Value, for key: Key) throws {
      try container.encode(value, forKey: key)
    }

    mutating func list<Element: Encodable>(_ values: [Element], for key: Key) throws {
      try container.encode(values, forKey: key)
    }

    mutating func json(_ json: JSON, for key: Key) throws {
      try container.encode(json, forKey: key)
    }
  }
}
