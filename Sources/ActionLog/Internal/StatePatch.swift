import Foundation

/// A step line's `patch`: what the step changed in the state, as operations on the canonical
/// JSON of the state before it, so a reader rebuilds the recorded state of every step.
///
/// The form (specified byte for byte in the "Action logs and replay" article):
///
/// <!-- not output: the form, by example -->
/// ```text
/// [{"at":["username"],"value":"demo"},{"at":["items",3,"label"],"value":"published"}]
/// ```
///
/// - `{"at":PATH,"value":VALUE}` sets the value at `PATH`: a member of an object (replaced, or
///   added in its sorted place) or an element of an array (replaced, or appended when the index
///   is the array's count). `PATH` `[]` is the whole state.
/// - `{"at":PATH,"remove":true}` removes the member `PATH` names from its object.
/// - `{"at":PATH,"count":N}` keeps the first `N` elements of the array at `PATH`.
///
/// A path holds an object's keys as canonical JSON strings and an array's indices as integers.
/// Operations apply in order. The writer compares canonical bytes, never values: what the
/// host's `==` says has no part in what a patch holds.
package enum StatePatch {
  /// A patch that does not apply: why, in words for a malformed-line error.
  package struct Malformed: Error, Equatable {
    package var reason: String

    package init(reason: String) {
      self.reason = reason
    }
  }

  // MARK: Writing

  /// The patch from `old` to `new`, each the canonical JSON of one value: `[]` when their bytes
  /// are the same.
  ///
  /// Where an object's or an array's changes written one by one would take more bytes than the
  /// value itself, the value is written whole.
  package static func patch(from old: [UInt8], to new: [UInt8]) -> [UInt8] {
    patch(from: Side(bytes: old[...]), to: Side(bytes: new[...]))
  }

  /// The patch from `old` to `new`, two states the log's writer encoded one after the other:
  /// the bytes `patch(from:to:)` of their bytes gives, without looking at the bytes of the
  /// leaves both hold at the same place (their bytes are the same by construction).
  package static func patch(from old: EncodedState, to new: EncodedState) -> [UInt8] {
    patch(from: Side(old), to: Side(new))
  }

  private static func patch(from old: Side, to new: Side) -> [UInt8] {
    var path: [UInt8] = []
    var operations: [UInt8] = []
    appendOperations(
      from: old, old.bytes.indices, to: new, new.bytes.indices, path: &path, to: &operations)
    return [JSONValueBytes.openBracket] + operations + [JSONValueBytes.closeBracket]
  }

  /// Appends the operations, separated by commas, that turn the value at `oldRange` into the
  /// value at `newRange`; `path` is where they sit, its components written and comma-separated.
  private static func appendOperations(
    from old: Side, _ oldRange: Range<Int>, to new: Side, _ newRange: Range<Int>,
    path: inout [UInt8], to operations: inout [UInt8]
  ) {
    if Side.same(old, oldRange, new, newRange) { return }
    var parts: [UInt8] = []
    let pathLength = path.count
    defer { path.removeSubrange(pathLength...) }
    func enter(_ component: ArraySlice<UInt8>) {
      path.removeSubrange(pathLength...)
      if pathLength > 0 { path.append(JSONValueBytes.comma) }
      path.append(contentsOf: component)
    }
    if let oldMembers = old.members(of: oldRange), let newMembers = new.members(of: newRange) {
      // A state's objects mostly keep their keys: walk both in step while the keys match, and
      // look the rest up by key only when they do not.
      var removed: [ArraySlice<UInt8>: Range<Int>]?
      for (index, member) in newMembers.enumerated() {
        let key = new.bytes[member.key]
        let oldValue: Range<Int>?
        if removed == nil, index < oldMembers.count, old.bytes[oldMembers[index].key] == key {
          oldValue = oldMembers[index].value
        } else {
          if removed == nil {
            var rest: [ArraySlice<UInt8>: Range<Int>] = [:]
            for member in oldMembers[min(index, oldMembers.count)...] {
              rest[old.bytes[member.key]] = member.value
            }
            removed = rest
          }
          oldValue = removed?.removeValue(forKey: key)
        }
        if let oldValue, Side.same(old, oldValue, new, member.value) { continue }
        enter(key)
        if let oldValue {
          appendOperations(from: old, oldValue, to: new, member.value, path: &path, to: &parts)
        } else {
          appendSet(at: path, value: new.bytes[member.value], to: &parts)
        }
      }
      // What the new object lacks: the old members never looked up, in their order.
      let gone =
        removed.map { left in oldMembers.filter { left[old.bytes[$0.key]] != nil } }
        ?? Array(oldMembers.dropFirst(newMembers.count))
      for member in gone {
        enter(old.bytes[member.key])
        appendRemove(at: path, to: &parts)
      }
    } else if let oldElements = old.elements(of: oldRange),
      let newElements = new.elements(of: newRange)
    {
      if newElements.count < oldElements.count {
        path.removeSubrange(pathLength...)
        appendCount(at: path, newElements.count, to: &parts)
      }
      let common = min(oldElements.count, newElements.count)
      var oldPiece = 0
      var newPiece = 0
      var index = 0
      while index < newElements.count {
        newPiece = newElements.piece(holding: index, from: newPiece)
        let element = newElements.pieces[newPiece].range(of: index)
        var oldElement: Range<Int>?
        if index < oldElements.count {
          oldPiece = oldElements.piece(holding: index, from: oldPiece)
          let piece = oldElements.pieces[oldPiece]
          // A leaf both hold here: its rows are the same bytes, none of them looked at.
          if let leaf = piece.leaf, leaf === newElements.pieces[newPiece].leaf,
            piece.first == index, newElements.pieces[newPiece].first == index,
            index + piece.count <= common
          {
            index += piece.count
            continue
          }
          oldElement = piece.range(of: index)
        }
        if let oldElement, old.bytes[oldElement] == new.bytes[element] {
          index += 1
          continue
        }
        enter(ArraySlice(String(index).utf8))
        if let oldElement {
          appendOperations(from: old, oldElement, to: new, element, path: &path, to: &parts)
        } else {
          appendSet(at: path, value: new.bytes[element], to: &parts)
        }
        index += 1
      }
    } else {
      path.removeSubrange(pathLength...)
      appendSet(at: path, value: new.bytes[newRange], to: &operations)
      return
    }
    // The changes one by one, or the value whole when that is no longer.
    path.removeSubrange(pathLength...)
    let wholeCount = setOpening.count + path.count + valueKey.count + newRange.count + 1
    if parts.isEmpty || wholeCount <= parts.count {
      appendSet(at: path, value: new.bytes[newRange], to: &operations)
    } else {
      if !operations.isEmpty { operations.append(JSONValueBytes.comma) }
      operations.append(contentsOf: parts)
    }
  }

  private static let setOpening = Array(#"{"at":["#.utf8)
  private static let valueKey = Array(#"],"value":"#.utf8)
  private static let removeKey = Array(#"],"remove":true}"#.utf8)
  private static let countKey = Array(#"],"count":"#.utf8)

  private static func appendSet(
    at path: [UInt8], value: ArraySlice<UInt8>, to operations: inout [UInt8]
  ) {
    separate(&operations)
    operations.append(contentsOf: setOpening)
    operations.append(contentsOf: path)
    operations.append(contentsOf: valueKey)
    operations.append(contentsOf: value)
    operations.append(JSONValueBytes.closeBrace)
  }

  private static func appendRemove(at path: [UInt8], to operations: inout [UInt8]) {
    separate(&operations)
    operations.append(contentsOf: setOpening)
    operations.append(contentsOf: path)
    operations.append(contentsOf: removeKey)
  }

  private static func appendCount(at path: [UInt8], _ count: Int, to operations: inout [UInt8]) {
    separate(&operations)
    operations.append(contentsOf: setOpening)
    operations.append(contentsOf: path)
    operations.append(contentsOf: countKey)
    operations.append(contentsOf: String(count).utf8)
    operations.append(JSONValueBytes.closeBrace)
  }

  private static func separate(_ operations: inout [UInt8]) {
    if !operations.isEmpty { operations.append(JSONValueBytes.comma) }
  }
}

// MARK: Applying

extension StatePatch {
  /// A state being rebuilt from patches: the canonical JSON of a base state, and the parts the
  /// patches since have changed. A part no patch reached stays the base's bytes, shared, and
  /// the containers a patch reached are references changed in place, so a patch costs what it
  /// touches, not the state's size. Copies of a `Rebuilt` share those containers: its owner
  /// alone patches it.
  package struct Rebuilt {
    /// One value: bytes not looked into yet, or a container whose parts were reached.
    enum Node {
      case bytes(ArraySlice<UInt8>)
      case object(Object)
      case array(Elements)
    }

    /// An object's members, keys as written (quotes and escapes included), in key order: a
    /// reference, so a patch changes one member in place, not a copy of them all.
    final class Object {
      var members: [(key: ArraySlice<UInt8>, value: Node)]
      init(_ members: [(key: ArraySlice<UInt8>, value: Node)]) { self.members = members }
    }

    /// An array's elements: a reference, so a patch changes one element of 100,000 in place.
    final class Elements {
      var elements: [Node]
      init(_ elements: [Node]) { self.elements = elements }
    }

    private(set) var root: Node

    /// Starts from `base`, the canonical JSON of a state.
    package init(base: ArraySlice<UInt8>) {
      root = .bytes(base)
    }

    /// The state's canonical JSON.
    package var bytes: [UInt8] {
      var bytes: [UInt8] = []
      Self.append(root, to: &bytes)
      return bytes
    }

    /// The FNV-1a hash of the state's canonical JSON (its ``StateDigest``), taken over the
    /// parts in place: the bytes are not put together.
    package var digest: UInt64 {
      Self.hash(root, continuing: StateDigest.offsetBasis)
    }

    /// Applies `patch`, a step line's `patch` value.
    ///
    /// - Throws: ``Malformed`` when the patch is not in the form, or names a place the state
    ///   does not have. The state is then partly patched: start again from a base.
    package mutating func apply(_ patch: ArraySlice<UInt8>) throws(Malformed) {
      let whole = patch.startIndex..<patch.endIndex
      guard let operations = JSONValueBytes.elements(of: whole, in: patch) else {
        throw Malformed(reason: "the patch is not an array of operations")
      }
      for (index, range) in operations.enumerated() {
        do throws(Malformed) {
          let operation = try Operation(patch, range)
          try Self.apply(operation, path: operation.path[...], to: &root)
        } catch {
          throw Malformed(reason: "patch operation \(index + 1): \(error.reason)")
        }
      }
    }

    private static func append(_ node: Node, to bytes: inout [UInt8]) {
      switch node {
      case .bytes(let value):
        bytes.append(contentsOf: value)
      case .object(let object):
        bytes.append(JSONValueBytes.openBrace)
        for (index, member) in object.members.enumerated() {
          if index > 0 { bytes.append(JSONValueBytes.comma) }
          bytes.append(contentsOf: member.key)
          bytes.append(JSONValueBytes.colon)
          append(member.value, to: &bytes)
        }
        bytes.append(JSONValueBytes.closeBrace)
      case .array(let array):
        bytes.append(JSONValueBytes.openBracket)
        for (index, element) in array.elements.enumerated() {
          if index > 0 { bytes.append(JSONValueBytes.comma) }
          append(element, to: &bytes)
        }
        bytes.append(JSONValueBytes.closeBracket)
      }
    }

    private static func hash(_ node: Node, continuing hash: UInt64) -> UInt64 {
      switch node {
      case .bytes(let value):
        return StateDigest.fnv1a(value, continuing: hash)
      case .object(let object):
        var hash = StateDigest.fnv1a(JSONValueBytes.openBrace, continuing: hash)
        for (index, member) in object.members.enumerated() {
          if index > 0 { hash = StateDigest.fnv1a(JSONValueBytes.comma, continuing: hash) }
          hash = StateDigest.fnv1a(member.key, continuing: hash)
          hash = StateDigest.fnv1a(JSONValueBytes.colon, continuing: hash)
          hash = Self.hash(member.value, continuing: hash)
        }
        return StateDigest.fnv1a(JSONValueBytes.closeBrace, continuing: hash)
      case .array(let array):
        var hash = StateDigest.fnv1a(JSONValueBytes.openBracket, continuing: hash)
        for (index, element) in array.elements.enumerated() {
          if index > 0 { hash = StateDigest.fnv1a(JSONValueBytes.comma, continuing: hash) }
          hash = Self.hash(element, continuing: hash)
        }
        return StateDigest.fnv1a(JSONValueBytes.closeBracket, continuing: hash)
      }
    }

    /// `node`'s members or elements, looked into once.
    private static func opened(_ node: Node) -> Node? {
      guard case .bytes(let value) = node else { return node }
      let range = value.startIndex..<value.endIndex
      if let members = JSONValueBytes.members(of: range, in: value) {
        return .object(Object(members.map { (value[$0.key], .bytes(value[$0.value])) }))
      }
      if let elements = JSONValueBytes.elements(of: range, in: value) {
        return .array(Elements(elements.map { .bytes(value[$0]) }))
      }
      return nil
    }

    private static func apply(
      _ operation: Operation, path: ArraySlice<Component>, to node: inout Node
    ) throws(Malformed) {
      guard let first = path.first else {
        switch operation.change {
        case .set(let value):
          node = .bytes(value)
        case .remove:
          throw Malformed(reason: "removes the whole state")
        case .count(let count):
          guard case .array(let array)? = opened(node) else {
            throw Malformed(reason: "keeps \(count) elements of a value that is not an array")
          }
          guard count <= array.elements.count else {
            throw Malformed(
              reason: "keeps \(count) elements of an array of \(array.elements.count)")
          }
          array.elements.removeSubrange(count...)
          node = .array(array)
        }
        return
      }
      let rest = path.dropFirst()
      let container = opened(node)
      if let container { node = container }
      switch (first, container) {
      case (.key(let key), .object(let object)?):
        let found = object.members.firstIndex { $0.key.elementsEqual(key) }
        if rest.isEmpty, case .remove = operation.change {
          guard let found else { throw Malformed(reason: "removes a member the state lacks") }
          object.members.remove(at: found)
        } else if let found {
          try apply(operation, path: rest, to: &object.members[found].value)
        } else if rest.isEmpty, case .set(let value) = operation.change {
          var place = object.members.endIndex
          for (index, member) in object.members.enumerated()
          where try Self.key(key, precedes: member.key) {
            place = index
            break
          }
          object.members.insert((key, .bytes(value)), at: place)
        } else {
          throw Malformed(reason: "reaches into a member the state lacks")
        }
      case (.index(let index), .array(let array)?):
        if rest.isEmpty, index == array.elements.count, case .set(let value) = operation.change {
          array.elements.append(.bytes(value))
        } else if index < array.elements.count {
          try apply(operation, path: rest, to: &array.elements[index])
        } else {
          throw Malformed(
            reason: "reaches element \(index) of an array of \(array.elements.count)")
        }
      case (.key, _):
        throw Malformed(reason: "names a key in a value that is not an object")
      case (.index, _):
        throw Malformed(reason: "names an index in a value that is not an array")
      }
    }

    /// Whether the key written `key` sorts before the key written `other`: by the UTF-8 bytes
    /// of the keys, as canonical JSON orders them.
    private static func key(
      _ key: ArraySlice<UInt8>, precedes other: ArraySlice<UInt8>
    ) throws(Malformed) -> Bool {
      if !key.contains(JSONValueBytes.backslash), !other.contains(JSONValueBytes.backslash) {
        return key.dropFirst().dropLast().lexicographicallyPrecedes(other.dropFirst().dropLast())
      }
      guard let left = JSONString.value(ofContents: key.dropFirst().dropLast()),
        let right = JSONString.value(ofContents: other.dropFirst().dropLast())
      else { throw Malformed(reason: "a key is not a JSON string") }
      return CanonicalBytes.precedes(left, right)
    }
  }

  /// A place in a state: an object's key (as written) or an array's index.
  enum Component {
    case key(ArraySlice<UInt8>)
    case index(Int)
  }

  /// One operation of a patch, read.
  struct Operation {
    enum Change {
      case set(ArraySlice<UInt8>)
      case remove
      case count(Int)
    }

    var path: [Component]
    var change: Change

    init(_ patch: ArraySlice<UInt8>, _ range: Range<Int>) throws(Malformed) {
      guard let members = JSONValueBytes.members(of: range, in: patch) else {
        throw Malformed(reason: "not an object")
      }
      var path: [Component]?
      var change: Change?
      for member in members {
        let value = patch[member.value]
        let key = String(decoding: patch[member.key].dropFirst().dropLast(), as: UTF8.self)
        if key == "at" {
          path = try Self.path(value)
          continue
        }
        guard change == nil else {
          throw Malformed(reason: "has more than one of 'value', 'remove' and 'count'")
        }
        switch key {
        case "value":
          change = .set(value)
        case "remove":
          guard value.elementsEqual("true".utf8) else {
            throw Malformed(reason: "'remove' is not true")
          }
          change = .remove
        case "count":
          guard let count = Self.integer(value) else {
            throw Malformed(reason: "'count' is not a whole number from 0")
          }
          change = .count(count)
        default:
          throw Malformed(
            reason: "has the unknown key \(Sanitized.name(key)) (an operation has 'at' and one "
              + "of 'value', 'remove' and 'count')")
        }
      }
      guard let path else { throw Malformed(reason: "has no 'at'") }
      guard let change else { throw Malformed(reason: "has none of 'value', 'remove', 'count'") }
      self.path = path
      self.change = change
    }

    private static func path(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> [Component] {
      guard let parts = JSONValueBytes.elements(of: bytes.startIndex..<bytes.endIndex, in: bytes)
      else { throw Malformed(reason: "'at' is not an array") }
      // A place in a state is no deeper than a line may nest; applying one walks it.
      guard parts.count < LineClassifier.maximumNesting else {
        throw Malformed(
          reason: "'at' is \(parts.count) steps deep (a line nests at most "
            + "\(LineClassifier.maximumNesting) levels)")
      }
      return try parts.map { range throws(Malformed) in
        let part = bytes[range]
        if part.first == JSONValueBytes.quote { return .key(part) }
        guard let index = integer(part) else {
          throw Malformed(reason: "'at' holds something that is not a key or an index")
        }
        return .index(index)
      }
    }

    /// A whole number from 0, as canonical JSON writes it (no sign, no leading zero).
    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
      guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        bytes.first != 0x30 || bytes.count == 1
      else { return nil }
      return Int(String(decoding: bytes, as: UTF8.self))
    }
  }
}

// MARK: Reading what a patch changed

extension StatePatch {
  /// One change a patch makes, as a tool that shows it reads it.
  package struct Change: Equatable, Sendable {
    /// Where: an object's keys as written (quotes included), an array's indices as digits.
    package var path: [String]
    /// The value set there, as written; `nil` for a member removed or an array cut short.
    package var value: [UInt8]?

    /// Whether the change sets a number: a counter ticking, when nothing else changes.
    package var setsANumber: Bool {
      guard let first = value?.first else { return false }
      return first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    }

    /// The last place of ``path`` as the state's fields show it (``CanonicalJSONText``): a key
    /// without its quotes when it is a plain identifier, an index as `[3]`.
    package var name: String {
      guard let last = path.last else { return "the state" }
      guard last.utf8.first == UInt8(ascii: "\"") else { return "[\(last)]" }
      return CanonicalJSONText.keyText(last.utf8[...])
    }
  }

  /// The changes of `patch`, a step line's `patch` value, in order; `nil` when it is not in
  /// the form.
  package static func changes(in patch: [UInt8]) -> [Change]? {
    let whole = patch.indices
    guard let operations = JSONValueBytes.elements(of: whole, in: patch[...]) else { return nil }
    var changes: [Change] = []
    for range in operations {
      let operation: Operation
      do { operation = try Operation(patch[...], range) } catch { return nil }
      let path = operation.path.map { component in
        switch component {
        case .key(let written): String(decoding: written, as: UTF8.self)
        case .index(let index): String(index)
        }
      }
      switch operation.change {
      case .set(let value): changes.append(Change(path: path, value: Array(value)))
      case .remove, .count: changes.append(Change(path: path, value: nil))
      }
    }
    return changes
  }
}
