import Foundation
import StateStore

/// A fast writer of canonical JSON: the bytes `JSONEncoder` gives with
/// `outputFormatting = [.sortedKeys]` and default strategies, without its intermediate tree —
/// except that from ``CanonicalForm/v2`` on a `Duration` is a number of seconds
/// (``CanonicalBytes/appendSeconds(_:to:)``).
///
/// Values are encoded into one reusable byte arena: scalars are written (escaped, formatted) as
/// they arrive, and containers only record which key goes with which arena range. Rendering
/// then sorts every object's keys by their UTF-8 bytes — how swift-foundation sorts
/// `.sortedKeys` outside Darwin — and copies the ranges into the output in order. Nothing is
/// allocated per value once the buffers, frames and sub-encoders have warmed up, except the
/// box `KeyedEncodingContainer` itself needs.
///
/// It is the only writer of canonical JSON: there is no fallback. What it cannot write the one
/// way — NaN or infinite floats, a key written twice to the same object, a value that encodes
/// nothing at the top level, containers mixed up against the `Encoder` contract, nesting
/// deeper than 512 — throws ``Unsupported``, naming where in the value it was met, and the
/// recorder reports it as a typed error instead of writing a different encoding.
///
/// Not thread-safe: use one instance per thread or queue.
package final class CanonicalJSONEncoder {
  /// Thrown for a value that has no canonical JSON.
  package struct Unsupported: Error, Equatable, CustomStringConvertible {
    /// What was met.
    package var reason: String
    /// Where in the value: its coding path, `a.b[2].c`; empty at the top level.
    package var path: String

    package init(reason: String, path: String = "") {
      self.reason = reason
      self.path = path
    }

    package var description: String {
      path.isEmpty ? reason : "\(reason) at '\(path)'"
    }
  }

  let core: Core

  /// Creates an encoder with empty buffers.
  ///
  /// - Parameters:
  ///   - form: The version of the canonical form to write: the current one, or the one
  ///   a log's header names when its digests are verified.
  ///   - masksPersonalData: Whether every `PersonalData` encodes as its mask: the encoder's
  ///   `userInfo` then holds `true` for `CodingUserInfoKey.masksPersonalData`.
  ///   - remembersLeaves: Whether to keep the bytes of each leaf of an `IdentifiedList` under
  ///   the leaf's identity, and copy them when the next encoding brings the same leaf (see
  ///   `CanonicalJSONEncoder+Leaves.swift`). For the log's writer and the replay's verdicts:
  ///   the leaf's own identity is the evidence, never a host's `==`.
  package init(
    form: CanonicalForm = .current, masksPersonalData: Bool = false,
    remembersLeaves: Bool = false
  ) {
    core = Core(form: form)
    core.remembersLeaves = remembersLeaves
    if masksPersonalData { core.userInfo = [.masksPersonalData: true] }
  }

  /// The version of the canonical form it writes.
  package var form: CanonicalForm { core.form }

  deinit {
    // Sub-encoders point back at the core; drop them so nothing leaks.
    core.pool.removeAll()
    core.frames.removeAll()
  }

  /// The canonical JSON of `value`.
  ///
  /// - Parameter value: Any encodable value.
  /// - Returns: The bytes `JSONEncoder` with `.sortedKeys` would give, in an array of their
  ///   own size: the encoder keeps its grown buffer for the next value, and a caller that keeps
  ///   many results (a page's steps in flight) does not keep a grown buffer with each.
  /// - Throws: ``Unsupported``, or what the value's `encode(to:)` throws.
  package func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
    try core.run(value)
    return [UInt8](core.out[...])
  }

  /// The canonical JSON of `value`, with where each remembered leaf's bytes landed in it: the
  /// log's writer patches and hashes a state from these (see `EncodedState`).
  ///
  /// - Parameters:
  ///   - value: Any encodable value.
  ///   - before: The state encoded before, whose digest prefixes this one's may resume from.
  /// - Throws: ``Unsupported``, or what the value's `encode(to:)` throws.
  package func encodeState<Value: Encodable>(
    _ value: Value, after before: EncodedState?
  ) throws -> EncodedState {
    try core.run(value)
    return EncodedState(bytes: core.out, runs: core.runs, after: before)
  }

  /// Takes `state`'s bytes as the buffer the next encoding writes into, when nothing else
  /// holds them: a state of megabytes is then written into memory already in use, not into a
  /// fresh allocation each time.
  ///
  /// - Parameter state: A state this encoder encoded, no longer needed.
  func reuseBuffer(of state: consuming EncodedState) {
    core.out = state.bytes
  }

  /// Calls `body` with the canonical JSON of `value`, without copying it out.
  ///
  /// - Parameters:
  ///   - value: Any encodable value.
  ///   - body: Reads the bytes; they are valid only during the call.
  /// - Returns: What `body` returns.
  /// - Throws: ``Unsupported``, or what the value's `encode(to:)` or `body` throws.
  package func withEncoded<Value: Encodable, Result>(
    _ value: Value, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) throws -> Result {
    try core.run(value)
    return try core.out.withUnsafeBufferPointer(body)
  }
}

extension CanonicalJSONEncoder {
  /// Where a container's or an encoder's value lives until it is rendered.
  enum Node {
    /// Finished bytes in the arena.
    case bytes(Int, Int)
    /// A keyed or unkeyed container, by frame index.
    case frame(Int)
    /// A value that encoded nothing: `{}`, as `JSONEncoder` writes it.
    case emptyObject
    /// What a `superEncoder()` receives; read when the parent is rendered.
    case deferred(ValueEncoder)
    /// The rows of one leaf of an `IdentifiedList`, comma-separated: several elements of an
    /// unkeyed container in one entry (see `CanonicalJSONEncoder+Leaves.swift`).
    case leaf(RememberedLeaf)
  }

  struct Entry {
    var key: String
    var node: Node
  }

  /// One container: its entries, and where it sits (for `codingPath`).
  ///
  /// `base` is the frame of the encoder that made the container (itself for an encoder's own
  /// container). Values inside nested containers get a path from there: `JSONEncoder` gives a
  /// value in `container.nestedUnkeyedContainer(forKey: .list)` the path `[Index 0]`, not
  /// `[list, Index 0]`, and a custom `encode(to:)` may write its path out.
  ///
  /// `renderedKeys` and `order` survive the frame's reuse: the keys of the object rendered in
  /// it last, as they came, and the order that sorts them. The same type encodes the same keys
  /// in the same order into the same frame every time, so sorting is mostly a comparison.
  struct Frame {
    var isObject = true
    var entries: [Entry] = []
    var parent = -1
    var key: (any CodingKey)?
    var base = -1
    var renderedKeys: [String] = []
    var order: [Int] = []
    /// The elements of an unkeyed container beyond its entries: a `.leaf` entry holds a leaf's
    /// rows, one element each.
    var elementsInLeaves = 0
    /// The remembered leaves of the list this unkeyed container encodes, once its first leaf
    /// has come.
    var leaves: RememberedLeaves?
  }

  /// The buffers and pools; shared by every encoder and container of one encoding.
  final class Core {
    var arena: [UInt8] = []
    var out: [UInt8] = []
    /// Where `collapse` renders a finished value before it replaces it in the arena.
    var scratch: [UInt8] = []
    var frames: [Frame] = []
    var frameCount = 0
    var pool: [ValueEncoder] = []
    var depth = 0
    var unsupported: Unsupported?
    let form: CanonicalForm

    // Remembered leaves of identified lists (see CanonicalJSONEncoder+Leaves.swift).
    var remembersLeaves = false
    var leafMemory: [String: CanonicalJSONEncoder.RememberedLeaves] = [:]
    /// How many `.leaf` entries this encoding has made, and how many leaves it is encoding
    /// row by row right now: `collapse` keeps the containers holding leaves, so that the last
    /// encoding's runs say where each leaf's bytes are.
    var leafEntries = 0
    var freshLeaves = 0
    /// Where the last encoding placed each leaf's bytes in `out`, in order.
    var runs: [EncodedState.Run] = []

    static let maximumDepth = 512
    /// The frames kept warm between two encodings.
    static let framesKept = 4_096

    /// What every `Encoder` of this encoding hands to `encode(to:)`.
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(form: CanonicalForm) {
      self.form = form
    }

    func run<Value: Encodable>(_ value: Value) throws {
      arena.removeAll(keepingCapacity: true)
      out.removeAll(keepingCapacity: true)
      frameCount = 0
      depth = 0
      unsupported = nil
      leafEntries = 0
      freshLeaves = 0
      runs.removeAll(keepingCapacity: true)
      // A value of many objects (a state of 100,000 items) warms up a frame for each, about
      // half a kilobyte apiece; keep only what a usual value needs between two encodings.
      defer {
        if frames.count > Self.framesKept { frames = Array(frames.prefix(Self.framesKept)) }
      }
      guard let node = try encodeValue(value, parent: -1, key: nil) else {
        throw Unsupported(reason: "the top-level value encoded nothing")
      }
      if let unsupported { throw unsupported }
      try render(node)
    }

    func fail(_ reason: String, at path: @autoclosure () -> String) {
      if unsupported == nil { unsupported = Unsupported(reason: reason, path: path()) }
    }

    /// The coding path of the value at `key` in `frame`, as text: `a.b[2].c`.
    func pathText(frame: Int, key: (any CodingKey)?, index: Int? = nil) -> String {
      var text = ""
      for key in codingPath(frame: frame, key: key) {
        let name = key.stringValue
        if let int = key.intValue, name.hasPrefix("Index ") || name == "\(int)" {
          text += "[\(int)]"
        } else {
          text += text.isEmpty ? key.stringValue : "." + key.stringValue
        }
      }
      if let index { text += "[\(index)]" }
      return text
    }

    /// A new container; `nestedIn` is the container it is nested in, `nil` for an encoder's own.
    func makeFrame(isObject: Bool, parent: Int, key: (any CodingKey)?, nestedIn: Int?) -> Int {
      let index = frameCount
      frameCount += 1
      let base = nestedIn.map { frames[$0].base } ?? index
      if index == frames.count {
        frames.append(Frame(isObject: isObject, parent: parent, key: key, base: base))
      } else {
        frames[index].isObject = isObject
        frames[index].entries.removeAll(keepingCapacity: true)
        frames[index].parent = parent
        frames[index].key = key
        frames[index].base = base
        frames[index].elementsInLeaves = 0
        frames[index].leaves = nil
      }
      return index
    }

    /// Encodes a value into `frame` at `key`.
    func encodeValue<Value: Encodable>(
      _ value: Value, in frame: Int, key: any CodingKey
    ) throws -> Node {
      return try encodeValue(value, parent: frames[frame].base, key: key) ?? .emptyObject
    }

    /// The encoder `superEncoder()` returns for `frame` at `key`.
    func superEncoder(in frame: Int, key: any CodingKey) -> ValueEncoder {
      ValueEncoder(core: self, parent: frames[frame].base, key: key)
    }

    func append(_ node: Node, key: String, to frame: Int) {
      frames[frame].entries.append(Entry(key: key, node: node))
    }

    /// The coding path of the value at `key` in `frame` (`-1`: the top level).
    func codingPath(frame: Int, key: (any CodingKey)?) -> [any CodingKey] {
      var path: [any CodingKey] = []
      if let key { path.append(key) }
      var index = frame
      while index >= 0 {
        if let key = frames[index].key { path.append(key) }
        index = frames[index].parent
      }
      return path.reversed()
    }

    /// Encodes a nested value; `nil` when it encoded nothing.
    func encodeValue<Value: Encodable>(
      _ value: Value, parent: Int, key: (any CodingKey)?
    ) throws -> Node? {
      // The types JSONEncoder special-cases, and the commonest leaves, without a sub-encoder.
      if Value.self == String.self, let string = value as? String {
        return writeString(string)
      }
      if Value.self == Int.self, let int = value as? Int {
        return writeInteger(int)
      }
      if Value.self == Bool.self, let bool = value as? Bool {
        return writeLiteral(bool ? "true" : "false")
      }
      if Value.self == Data.self, let data = value as? Data {
        return writeString(data.base64EncodedString())
      }
      if Value.self == URL.self, let url = value as? URL {
        return writeString(url.absoluteString)
      }
      if Value.self == Decimal.self, let decimal = value as? Decimal {
        return writeLiteral(decimal.description)
      }
      if Value.self == Duration.self, form.writesDurationsAsSeconds,
        let duration = value as? Duration
      {
        let start = arena.count
        CanonicalBytes.appendSeconds(duration, to: &arena)
        return .bytes(start, arena.count)
      }
      let encoder = acquire(parent: parent, key: key)
      defer { depth -= 1 }
      try value.encode(to: encoder)
      return encoder.node
    }

    private func acquire(parent: Int, key: (any CodingKey)?) -> ValueEncoder {
      let index = depth
      depth += 1
      if index < pool.count, isKnownUniquelyReferenced(&pool[index]) {
        let encoder = pool[index]
        encoder.reset(parent: parent, key: key)
        return encoder
      }
      let encoder = ValueEncoder(core: self, parent: parent, key: key)
      if index < pool.count { pool[index] = encoder } else { pool.append(encoder) }
      return encoder
    }

    // MARK: - Rendering

    /// Renders with the buffers moved into locals: `inout` locals need no dynamic exclusivity
    /// checks, class properties do, and rendering touches them for every byte range. Notes
    /// where each leaf lands in `out` (`runs`).
    private func render(_ node: Node) throws {
      var output = out
      var store = frames
      var placed = runs
      out = []
      frames = []
      runs = []
      defer {
        out = output
        frames = store
        runs = placed
      }
      try Self.render(node, depth: 0, arena: arena, frames: &store, out: &output, runs: &placed)
    }

    /// Where the arena, the frames and the leaf entries stand before a value is encoded.
    func mark() -> (arena: Int, frames: Int, leaves: Int) { (arena.count, frameCount, leafEntries) }

    /// Renders a finished container value now, in place of what its encoding wrote, and frees
    /// its frames for the next value: a state of 100,000 objects then needs a frame per level,
    /// not one per object. Anything not a container is left as it is.
    func collapse(
      _ node: Node, since mark: (arena: Int, frames: Int, leaves: Int), in frame: Int,
      key: any CodingKey
    ) throws -> Node {
      // Every container on the value's path, and in it, has a live frame: with fewer frames
      // than the depth limit, no rendering of it can reach the limit, whatever depth it is
      // rendered at. Deeper values are left to the final rendering, which checks. A value
      // holding leaves is left whole too, so the final rendering notes where they land —
      // except a row of a leaf being encoded, which must become bytes to be remembered.
      guard case .frame = node, unsupported == nil,
        frameCount < Self.maximumDepth - 2, leafEntries == mark.leaves || freshLeaves > 0
      else { return node }
      var level = 1
      var index = frame
      while index >= 0 {
        if frames[index].key != nil { level += 1 }
        index = frames[index].parent
      }
      scratch.removeAll(keepingCapacity: true)
      var store = frames
      var unplaced: [EncodedState.Run] = []
      frames = []
      defer { frames = store }
      try Self.render(
        node, depth: level, arena: arena, frames: &store, out: &scratch, runs: &unplaced)
      arena.removeSubrange(mark.arena...)
      frameCount = mark.frames
      let start = arena.count
      arena.append(contentsOf: scratch)
      if scratch.capacity > 1 << 20 { scratch = [] }  // a whole state, once: not kept
      return .bytes(start, arena.count)
    }

    /// Renders a value directly inside the top-level object into `bytes`.
    func renderValue(_ node: Node, into bytes: inout [UInt8]) throws {
      var store = frames
      var unplaced: [EncodedState.Run] = []
      frames = []
      defer { frames = store }
      try Self.render(node, depth: 1, arena: arena, frames: &store, out: &bytes, runs: &unplaced)
    }

    private static func render(
      _ node: Node, depth: Int, arena: [UInt8], frames: inout [Frame], out: inout [UInt8],
      runs: inout [EncodedState.Run]
    ) throws {
      switch node {
      case .bytes(let start, let end):
        arena.withUnsafeBufferPointer { out.append(contentsOf: $0[start..<end]) }
      case .leaf(let leaf):
        runs.append(EncodedState.Run(start: out.count, leaf: leaf))
        out.append(contentsOf: leaf.bytes)
      case .emptyObject:
        out.append(UInt8(ascii: "{"))
        out.append(UInt8(ascii: "}"))
      case .deferred(let encoder):
        try render(
          encoder.node ?? .emptyObject, depth: depth, arena: arena, frames: &frames, out: &out,
          runs: &runs)
      case .frame(let frame):
        // JSONWriter's limit: a container at depth 512 fails to encode.
        guard depth + 1 < maximumDepth else {
          throw Unsupported(reason: "containers nested deeper than \(maximumDepth - 1) levels")
        }
        let isObject = frames[frame].isObject
        let count = frames[frame].entries.count
        let order = isObject && count > 1 ? try sortOrder(of: frame, in: &frames) : nil
        out.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        for position in 0..<count {
          if position > 0 { out.append(UInt8(ascii: ",")) }
          let index = order?[position] ?? position
          if isObject {
            JSONString.append(frames[frame].entries[index].key, escaping: .encoder, to: &out)
            out.append(UInt8(ascii: ":"))
          }
          let child = frames[frame].entries[index].node
          try render(
            child, depth: depth + 1, arena: arena, frames: &frames, out: &out, runs: &runs)
        }
        out.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
      }
    }

    /// The order of `frame`'s entries by key: the order found last time when the keys are the
    /// ones rendered in this frame last time, in the same order; sorted again otherwise.
    private static func sortOrder(of frame: Int, in frames: inout [Frame]) throws -> [Int] {
      let entries = frames[frame].entries
      let rendered = frames[frame].renderedKeys
      if rendered.count == entries.count,
        rendered.indices.allSatisfy({ rendered[$0] == entries[$0].key })
      {
        return frames[frame].order
      }
      let order = entries.indices.sorted {
        CanonicalBytes.precedes(entries[$0].key, entries[$1].key)
      }
      for position in 1..<order.count
      where entries[order[position - 1]].key == entries[order[position]].key {
        throw Unsupported(
          reason: "the key '\(entries[order[position]].key)' encoded twice in one object")
      }
      frames[frame].renderedKeys = entries.map { $0.key }
      frames[frame].order = order
      return order
    }

    // MARK: - Scalars

    func writeString(_ string: String) -> Node {
      let start = arena.count
      JSONString.append(string, escaping: .encoder, to: &arena)
      return .bytes(start, arena.count)
    }

    func writeInteger<Integer: FixedWidthInteger>(_ value: Integer) -> Node {
      let start = arena.count
      CanonicalBytes.appendInteger(value, to: &arena)
      return .bytes(start, arena.count)
    }

    func writeLiteral(_ text: String) -> Node {
      let start = arena.count
      arena.append(contentsOf: text.utf8)
      return .bytes(start, arena.count)
    }

    func writeFloat<Float: BinaryFloatingPoint & CustomStringConvertible>(
      _ value: Float, at path: @autoclosure () -> String
    ) throws -> Node {
      guard value.isFinite else {
        throw Unsupported(reason: "a non-finite number (\(value)) has no JSON", path: path())
      }
      var text = value.description
      if text.hasSuffix(".0") { text.removeLast(2) }
      return writeLiteral(text)
    }
  }
}
