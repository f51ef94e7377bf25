import Foundation

/// The package's reader of its own canonical JSON: the values of a log's lines, in the form
/// its header names, and any other JSON `JSONDecoder` reads for the same types.
///
/// One pass finds the value's structure (``JSONTape``); containers then read their members
/// from it, and each leaf is read from its bytes as ``CanonicalJSONEncoder`` writes it: a
/// string by ``JSONString``, a number by ``JSONNumber``, a `Duration` from
/// ``CanonicalForm/v2`` on as a number of seconds (``CanonicalBytes/duration(seconds:)``), a
/// `Date` as seconds since 2001, `Data` as Base64, a `URL` as its string, a `Decimal` as its
/// number. Nothing is parsed twice and no container is wrapped.
///
/// What it accepts is what `JSONDecoder` accepts, read to the same values, so older and
/// hand-edited logs still read: whitespace, members in any order (the first of two with one
/// key counts), any escape (`\u00e9`), any notation of a number (`1e3` for an `Int`), a comma
/// before a closing bracket, a byte order mark. Like `JSONDecoder`, it checks a string or a
/// number when a type reads it, so a value no type reads is only skipped. Everything else is
/// a `DecodingError`: a `dataCorrupted` at the empty path for bytes that are not one JSON
/// value (nested more than ``maximumDepth`` deep among them), and otherwise the error
/// `JSONDecoder` gives, at the value's coding path, where `JSONDecoder` gave a bad string or
/// number, or an integer out of its type's range, no path ("not valid JSON"). A
/// `debugDescription` of the package's own that says what a value must be starts with
/// "expected " and never quotes the value (see `DecodingErrorReason`).
package struct CanonicalJSONDecoder {
  /// The form the values were written in.
  package let form: CanonicalForm

  /// The most containers open at once, as `JSONDecoder`'s limit.
  static let maximumDepth = 512

  /// Creates a decoder for values written in `form`.
  ///
  /// - Parameter form: The form the log's header names.
  package init(form: CanonicalForm = .current) {
    self.form = form
  }

  /// Decodes a value of `type` from its canonical JSON.
  ///
  /// - Parameters:
  ///   - type: The value's type.
  ///   - data: One JSON value.
  /// - Returns: The value.
  /// - Throws: `DecodingError`, with the value's coding path.
  package func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    try decode(type, from: [UInt8](data)[...])
  }

  /// Decodes a value of `type` from its canonical JSON.
  ///
  /// - Parameters:
  ///   - type: The value's type.
  ///   - bytes: One JSON value.
  /// - Returns: The value.
  /// - Throws: `DecodingError`, with the value's coding path.
  package func decode<Value: Decodable>(
    _ type: Value.Type, from bytes: ArraySlice<UInt8>
  ) throws -> Value {
    let tape: JSONTape
    do {
      tape = try JSONTape(bytes, grammar: .decoder, maximumDepth: Self.maximumDepth)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "The given data was not valid JSON: \(error)."))
    }
    return try ValueReader(tape: tape, form: form, token: 0, parent: nil, key: nil)
      .unwrap(Value.self, 0, parent: nil, key: nil)
  }
}

extension CanonicalJSONDecoder {
  /// A coding path, from the innermost key out, turned into the `[any CodingKey]` of
  /// `codingPath` only when someone asks (an error, mostly). A container is its own node
  /// (``ObjectFrame``, ``ArrayFrame``): one allocation per container holds its path and what
  /// it reads.
  class CodingPathNode {
    let parent: CodingPathNode?
    /// `nil` for the top-level value's container.
    let key: (any CodingKey)?

    init(parent: CodingPathNode?, key: (any CodingKey)?) {
      self.parent = parent
      self.key = key
    }

    /// The path of `node`, then `last`.
    static func path(_ node: CodingPathNode?, _ last: (any CodingKey)?) -> [any CodingKey] {
      var keys: [any CodingKey] = []
      if let last { keys.append(last) }
      var next = node
      while let current = next {
        if let key = current.key { keys.append(key) }
        next = current.parent
      }
      return keys.reversed()
    }
  }

  /// The `Decoder` a value's `init(from:)` receives, and its single-value container.
  ///
  /// One reader serves a whole decoding, as `JSONDecoder`'s does: decoding a nested value
  /// points it at the value's token and path, and back when the value is done. Only
  /// `superDecoder` makes another.
  final class ValueReader: Decoder, SingleValueDecodingContainer {
    let tape: JSONTape
    let form: CanonicalForm
    /// The value's token; `-1` for none (a `superDecoder` for a missing key), read as `null`.
    private var token: Int
    /// The value's coding path: its container's, then its key.
    private var parent: CodingPathNode?
    private var key: (any CodingKey)?

    init(
      tape: JSONTape, form: CanonicalForm, token: Int, parent: CodingPathNode?,
      key: (any CodingKey)?
    ) {
      self.tape = tape
      self.form = form
      self.token = token
      self.parent = parent
      self.key = key
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(parent, key) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      KeyedDecodingContainer(
        KeyedReader<Key>(
          frame: try ObjectFrame(reader: self, object: token, parent: parent, key: key)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
      UnkeyedReader(frame: try ArrayFrame(reader: self, array: token, parent: parent, key: key))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes the value of token `index`, at `key` in the container at `parent`: a leaf
    /// itself, anything else by its `init(from:)` with this reader pointed at it.
    func unwrap<Value: Decodable>(
      _ type: Value.Type, _ index: Int, parent: CodingPathNode?, key: (any CodingKey)?
    ) throws -> Value {
      if let leaf = Leaf(Value.self, form: form) {
        return try read(leaf, as: Value.self, index, at: CodingPathNode.path(parent, key))
      }
      let (savedToken, savedParent, savedKey) = (token, self.parent, self.key)
      token = index
      self.parent = parent
      self.key = key
      defer {
        token = savedToken
        self.parent = savedParent
        self.key = savedKey
      }
      return try Value(from: self)
    }

    /// The kind of token `index`; `null` for none.
    @inline(__always)
    func kind(_ index: Int) -> JSONTape.Kind { index < 0 ? .null : tape.tokens[index].kind }

    // MARK: - Single value

    func decodeNil() -> Bool { kind(token) == .null }
    func decode(_: Bool.Type) throws -> Bool { try bool(token, at: codingPath) }
    func decode(_: String.Type) throws -> String { try string(token, at: codingPath) }
    func decode(_: Double.Type) throws -> Double { try double(token, at: codingPath) }
    func decode(_: Float.Type) throws -> Float { try float(token, at: codingPath) }
    func decode(_: Int.Type) throws -> Int { try integer(token, at: codingPath) }
    func decode(_: Int8.Type) throws -> Int8 { try integer(token, at: codingPath) }
    func decode(_: Int16.Type) throws -> Int16 { try integer(token, at: codingPath) }
    func decode(_: Int32.Type) throws -> Int32 { try integer(token, at: codingPath) }
    func decode(_: Int64.Type) throws -> Int64 { try integer(token, at: codingPath) }
    func decode(_: Int128.Type) throws -> Int128 { try integer(token, at: codingPath) }
    func decode(_: UInt.Type) throws -> UInt { try integer(token, at: codingPath) }
    func decode(_: UInt8.Type) throws -> UInt8 { try integer(token, at: codingPath) }
    func decode(_: UInt16.Type) throws -> UInt16 { try integer(token, at: codingPath) }
    func decode(_: UInt32.Type) throws -> UInt32 { try integer(token, at: codingPath) }
    func decode(_: UInt64.Type) throws -> UInt64 { try integer(token, at: codingPath) }
    func decode(_: UInt128.Type) throws -> UInt128 { try integer(token, at: codingPath) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
      try unwrap(type, token, parent: parent, key: key)
    }
  }
}
