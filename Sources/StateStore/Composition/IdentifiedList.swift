/// An ordered collection of rows, each with an identity that stays the same while the row
/// changes: the state of a list of child features (see `forEach(_:row:)`).
///
/// Rows are found by their `id` in constant time, kept in the order the feature gives them,
/// and never share an id: an insert of an id that is already there changes nothing and says
/// so.
///
/// ```swift
/// struct Todo: Identifiable, Equatable, Codable, Sendable {
///   let id: Int
///   var title = ""
///   var isComplete = false
/// }
///
/// var todos: IdentifiedList<Todo> = [Todo(id: 1), Todo(id: 2)]
/// todos[id: 2]?.isComplete = true     // changes the row in place
/// todos.append(Todo(id: 3))           // true: a new row
/// todos.append(Todo(id: 1))           // false: 1 is there already, nothing changes
/// todos.remove(id: 1)                 // the row with id 1, now removed
/// todos.map(\.id)                     // [2, 3]
/// ```
///
/// It encodes as a JSON array of its rows, so an action log shows a row's change as a change of
/// that element; decoding rejects two rows with one id. ``Dump`` and test failures show it as
/// an array.
public struct IdentifiedList<Element: Identifiable> {
  /// The rows, in order, shared between versions of the list (see ``RowTree``).
  @usableFromInline var elements: RowTree<Element>
  /// Where each row is in ``elements``.
  @usableFromInline var positions: [Element.ID: Int]
  /// Who this list's set of ids and their order are: replaced whenever a row is inserted,
  /// removed or moved, and shared by copies. Two lists with one structure have the same ids
  /// in the same order, which `forEach(_:row:)` learns without comparing them. Not part of
  /// the value: `==`, hashing and coding ignore it.
  @usableFromInline var structure: Structure

  /// An empty list.
  public init() {
    elements = RowTree()
    positions = [:]
    structure = Structure()
  }

  /// A list of `rows`, in their order.
  ///
  /// - Parameter rows: Rows with different ids.
  /// - Throws: ``IdentifiedListError/duplicateID(_:)`` naming the first id that two rows
  ///   share.
  public init(uniqueElements rows: some Sequence<Element>) throws(IdentifiedListError) {
    self.init()
    for row in rows where !append(row) {
      // As ``Dump`` shows it: quoted, escaped and bounded, whatever the id holds.
      throw IdentifiedListError.duplicateID(Dump.renderOneLine(row.id))
    }
  }

  /// The ids of the rows, in order: a view of the list, made without copying anything, that
  /// tells whether it contains an id in constant time.
  ///
  /// ```swift
  /// todos.ids.contains(3)       // found by id, not by walking the rows
  /// todos.ids == [2, 3]         // compared with an array of ids
  /// Array(todos.ids)            // an array, when one is needed
  /// ```
  public var ids: IDs { IDs(list: self) }

  /// The rows as an array, in order.
  public var array: [Element] { elements.array }

  /// The row with `id`, or `nil`. Setting a row replaces the row with that id, or appends it
  /// when there is none; setting `nil` removes the row.
  ///
  /// A row set under another id than its own is not stored: a ``RuntimeWarning`` says so
  /// (the list's ids must stay the ids of its rows).
  ///
  /// - Parameter id: A row's id.
  public subscript(id id: Element.ID) -> Element? {
    @inlinable get {
      guard let position = positions[id] else { return nil }
      return elements[position]
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      guard newValue.id == id else {
        RuntimeWarning.report(
          "a row with the id \(Dump.renderOneLine(newValue.id)) was set under the id "
            + "\(Dump.renderOneLine(id)) of an IdentifiedList<\(Dump.typeName(of: Element.self))>; "
            + "the list was left as it was.")
        return
      }
      if let position = positions[id] {
        elements.modify(at: position) { $0 = newValue }
      } else {
        append(newValue)
      }
    }
  }

  /// Changes the row with `id` in place, if there is one.
  ///
  /// - Parameters:
  ///   - id: A row's id.
  ///   - body: Changes the row; it must not change the row's id (a row whose id it changes is
  ///     removed, so that no two rows share an id, and a ``RuntimeWarning`` says so).
  /// - Returns: What `body` returned, or `nil` when no row has `id`.
  @inlinable @discardableResult
  public mutating func update<Result>(
    id: Element.ID, _ body: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard let position = positions[id] else { return nil }
    let result = try elements.modify(at: position, body)
    let newID = elements[position].id
    if newID != id { changeOfID(from: id, to: newID, at: position) }
    return result
  }

  /// Removes the row at `position`, whose id `update(id:_:)` saw change from `id` to `newID`.
  @usableFromInline mutating func changeOfID(
    from id: Element.ID, to newID: Element.ID, at position: Int
  ) {
    RuntimeWarning.report(
      "a row of an IdentifiedList<\(Dump.typeName(of: Element.self))> changed its id from "
        + "\(Dump.renderOneLine(id)) to \(Dump.renderOneLine(newID)); "
        + "the list keeps ids stable, so the row was removed.")
    var rows = elements.array
    rows.remove(at: position)
    positions[id] = nil
    rebuild(rows)
  }

  /// The position of the row with `id`, or `nil`.
  ///
  /// - Parameter id: A row's id.
  /// - Returns: Its position in the list.
  @inlinable public func index(id: Element.ID) -> Int? {
    positions[id]
  }

  /// Adds `row` at the end, unless a row with its id is there already.
  ///
  /// - Parameter row: The new row.
  /// - Returns: Whether it was added.
  @discardableResult
  public mutating func append(_ row: Element) -> Bool {
    insert(row, at: elements.count)
  }

  /// Inserts `row` at `position`, unless a row with its id is there already.
  ///
  /// - Parameters:
  ///   - row: The new row.
  ///   - position: Where it goes, from 0 to ``count``; a position outside is clamped to them.
  /// - Returns: Whether it was inserted.
  @discardableResult
  public mutating func insert(_ row: Element, at position: Int) -> Bool {
    guard positions[row.id] == nil else { return false }
    let position = Swift.min(Swift.max(position, 0), elements.count)
    if position == elements.count {
      elements.append(row)
      positions[row.id] = position
      structure = Structure()
    } else {
      var rows = elements.array
      rows.insert(row, at: position)
      rebuild(rows)
    }
    return true
  }

  /// Removes the row with `id`.
  ///
  /// - Parameter id: A row's id.
  /// - Returns: The removed row, or `nil` when no row has `id`.
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let position = positions[id] else { return nil }
    var rows = elements.array
    let row = rows.remove(at: position)
    positions[id] = nil
    rebuild(rows)
    return row
  }

  /// Removes the rows at `offsets`, keeping the others in order: what SwiftUI's `onDelete`
  /// asks for.
  ///
  /// Offsets outside the list are ignored, and so is an offset given twice.
  ///
  /// ```swift
  /// todos.remove(atOffsets: IndexSet([0, 2]))   // the first and the third row
  /// ```
  ///
  /// - Parameter offsets: The positions of the rows to remove (an `IndexSet` will do).
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let removing = Set(offsets.filter { indices.contains($0) })
    guard !removing.isEmpty else { return }
    var rows: [Element] = []
    rows.reserveCapacity(count - removing.count)
    for (position, row) in enumerated() where !removing.contains(position) {
      rows.append(row)
    }
    positions = [:]
    rebuild(rows)
  }

  /// The rows for which `isIncluded` is true, in order, as a list of their own.
  ///
  /// ```swift
  /// let done: IdentifiedList<Todo> = todos.filter(\.isComplete)
  /// ```
  ///
  /// Where an array is expected, the standard library's `filter` gives one as before
  /// (`let rows: [Todo] = todos.filter(\.isComplete)`).
  ///
  /// - Parameter isIncluded: Whether a row is kept.
  /// - Returns: The kept rows; this list itself when every row is kept.
  public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> IdentifiedList {
    let rows = try elements.array.filter(isIncluded)
    if rows.count == count { return self }
    var kept = IdentifiedList()
    kept.rebuild(rows)
    return kept
  }

  /// Removes every row for which `shouldBeRemoved` is true, keeping the others in order.
  ///
  /// - Parameter shouldBeRemoved: Whether a row goes.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var rows = elements.array
    try rows.removeAll(where: shouldBeRemoved)
    guard rows.count != elements.count else { return }
    positions = [:]
    rebuild(rows)
  }

  /// Moves the rows at `offsets` so that they go before the row that was at `destination`,
  /// keeping their order: what SwiftUI's `onMove` asks for.
  ///
  /// Offsets outside the list are ignored; a `destination` past the end moves the rows to the
  /// end.
  ///
  /// - Parameters:
  ///   - offsets: The positions of the rows to move (an `IndexSet` will do).
  ///   - destination: The position, counted before the move, the rows go before.
  public mutating func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) {
    let moving = Set(offsets.filter { indices.contains($0) })
    guard !moving.isEmpty else { return }
    let destination = Swift.min(Swift.max(destination, 0), elements.count)
    var before: [Element] = []
    var moved: [Element] = []
    var after: [Element] = []
    for (position, row) in enumerated() {
      if moving.contains(position) {
        moved.append(row)
      } else if position < destination {
        before.append(row)
      } else {
        after.append(row)
      }
    }
    rebuild(before + moved + after)
  }

  /// Sorts the rows in place; rows that are in order keep their order relative to each other.
  ///
  /// - Parameter areInIncreasingOrder: Whether the first row goes before the second.
  public mutating func sort(
    by areInIncreasingOrder: (Element, Element) throws -> Bool
  ) rethrows {
    // Stable: `sort(by:)` of the standard library is not guaranteed to be, and a list whose
    // equal rows trade places on every sort shows a flicker.
    let sorted = try enumerated().sorted { first, second in
      if try areInIncreasingOrder(first.element, second.element) { return true }
      if try areInIncreasingOrder(second.element, first.element) { return false }
      return first.offset < second.offset
    }
    rebuild(sorted.map(\.element))
  }

  /// Makes `rows` the list's rows after an insert, a removal or a move: a new tree, the
  /// positions of every row, a new structure.
  @usableFromInline mutating func rebuild(_ rows: [Element]) {
    elements = RowTree(rows)
    for (position, row) in rows.enumerated() {
      positions[row.id] = position
    }
    structure = Structure()
  }

  /// The identity of one set of ids in one order (see ``structure``).
  @usableFromInline final class Structure: Sendable {
    @usableFromInline init() {}
  }
}

/// A bad input to an ``IdentifiedList``.
public enum IdentifiedListError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Two rows have one id; the id is given as ``Dump`` renders it (a string id quoted and
  /// escaped, cut to 160 characters).
  case duplicateID(String)

  /// One sentence naming the id.
  public var description: String {
    switch self {
    case .duplicateID(let id): "two rows have the id \(id); every row needs its own"
    }
  }
}

extension IdentifiedList: RandomAccessCollection {
  /// The position of the first row.
  @inlinable public var startIndex: Int { 0 }
  /// One past the position of the last row.
  @inlinable public var endIndex: Int { elements.count }

  /// The row at `position`. Setting a row changes it in place: `todos[0].isComplete = true`.
  ///
  /// A row's id must stay its own: a row set with another id than the one at `position` is not
  /// stored, and a ``RuntimeWarning`` says so (a failure in a `TestStore`), as for
  /// ``subscript(id:)``. To give a row another id, remove it and insert the new row.
  ///
  /// - Parameter position: A position from 0 to `count - 1`.
  @inlinable public subscript(position: Int) -> Element {
    get { elements[position] }
    set {
      let id = elements[position].id
      guard newValue.id == id else {
        rowRefused(newValue.id, at: position, holding: id)
        return
      }
      // Only the path to the row is copied, and its leaf gets a new identity: a copy of the
      // list that shared the leaf keeps the old rows and never compares equal by identity.
      elements.modify(at: position) { $0 = newValue }
    }
  }

  /// Reports a row set at `position` with an id that is not the row's there.
  @usableFromInline func rowRefused(_ newID: Element.ID, at position: Int, holding id: Element.ID) {
    RuntimeWarning.report(
      "a row with the id \(Dump.renderOneLine(newID)) was set at position \(position) of an "
        + "IdentifiedList<\(Dump.typeName(of: Element.self))>, where the row with the id "
        + "\(Dump.renderOneLine(id)) is; the list was left as it was.",
      advice: "A row keeps its id: remove the row and insert the new one to change it.")
  }
}

extension IdentifiedList {
  /// The ids of an ``IdentifiedList``'s rows, in order: see ``IdentifiedList/ids``.
  public struct IDs: RandomAccessCollection, CustomStringConvertible {
    @usableFromInline let list: IdentifiedList

    @usableFromInline init(list: IdentifiedList) {
      self.list = list
    }

    /// The position of the first id.
    @inlinable public var startIndex: Int { 0 }
    /// One past the position of the last id.
    @inlinable public var endIndex: Int { list.count }

    /// The id of the row at `position`.
    ///
    /// - Parameter position: A position from 0 to `count - 1`.
    @inlinable public subscript(position: Int) -> Element.ID { list[position].id }

    /// Whether a row has `id`, in constant time.
    ///
    /// - Parameter id: An id.
    /// - Returns: Whether the list has a row with it.
    @inlinable public func contains(_ id: Element.ID) -> Bool { list.positions[id] != nil }

    /// The position of `id`, in constant time (``IdentifiedList/index(id:)``).
    ///
    /// - Parameter id: An id.
    /// - Returns: Its position, or `nil` when no row has it.
    @inlinable public func firstIndex(of id: Element.ID) -> Int? { list.positions[id] }

    /// The ids, as an array prints them: `[1, 2, 3]`.
    public var description: String { Array(self).description }

    /// Whether `ids` are these ids, in this order.
    ///
    /// - Parameters:
    ///   - lhs: A list's ids.
    ///   - rhs: Ids in an array.
    /// - Returns: Whether both hold the same ids in the same order.
    public static func == (lhs: IDs, rhs: [Element.ID]) -> Bool {
      lhs.elementsEqual(rhs)
    }
  }
}

extension IdentifiedList.IDs: Equatable {
  /// Whether both hold the same ids in the same order.
  ///
  /// - Parameters:
  ///   - lhs: A list's ids.
  ///   - rhs: Another list's ids.
  /// - Returns: Whether they are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.list.structure === rhs.list.structure || lhs.elementsEqual(rhs)
  }
}

extension IdentifiedList.IDs: Hashable {
  /// Hashes the ids in order.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for id in self { hasher.combine(id) }
  }
}

extension IdentifiedList.IDs: Sendable where Element: Sendable, Element.ID: Sendable {}

extension IdentifiedList: ExpressibleByArrayLiteral {
  /// A list of the rows in the literal; a row whose id an earlier row has is left out, and a
  /// ``RuntimeWarning`` says so.
  ///
  /// - Parameter rows: The rows.
  public init(arrayLiteral rows: Element...) {
    self.init()
    for row in rows where !append(row) {
      RuntimeWarning.report(
        "two rows of an IdentifiedList<\(Dump.typeName(of: Element.self))> literal have the "
          + "id \(Dump.renderOneLine(row.id)); the second was left out.")
    }
  }
}

extension IdentifiedList: Equatable where Element: Equatable {
  /// Whether both have the same rows in the same order.
  @inlinable public static func == (lhs: IdentifiedList, rhs: IdentifiedList) -> Bool {
    lhs.elements == rhs.elements
  }

  /// The positions of the rows that differ from `old`'s, when both lists have the same
  /// structure (the same ids in the same order); `nil` when they do not. Only the leaves the
  /// two versions do not share are compared.
  @inlinable func changedPositions(from old: IdentifiedList) -> [Int]? {
    guard structure === old.structure else { return nil }
    return elements.changedPositions(from: old.elements)
  }
}

extension IdentifiedList: Hashable where Element: Hashable {
  /// Hashes the rows in order.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for row in self { hasher.combine(row) }
  }
}

extension IdentifiedList: Sendable where Element: Sendable, Element.ID: Sendable {}

extension IdentifiedList: Encodable where Element: Encodable {
  /// Encodes the rows as an array.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    if let remembering = encoder as? any LeafRememberingEncoder {
      let leaves = (elements.count + RowTree<Element>.leafMask) >> RowTree<Element>.leafShift
      try elements.forEachLeaf { rows, identity, number in
        try remembering.encodeLeaf(
          rows, identity: identity, number: number, of: leaves, into: &container)
      }
    } else {
      for row in self { try container.encode(row) }
    }
  }
}

extension IdentifiedList: Decodable where Element: Decodable {
  /// Decodes an array of rows.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when two rows have one id.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let rows = try container.decode([Element].self)
    do {
      try self.init(uniqueElements: rows)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
  }
}

extension IdentifiedList: CustomReflectable {
  /// Reflects as an array of the rows: ``Dump`` and test failures show the list as one.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements.array, displayStyle: .collection)
  }
}

extension IdentifiedList: CustomStringConvertible {
  /// The rows, as an array prints them.
  public var description: String { elements.array.description }
}

extension IdentifiedList: EquatableElements where Element: Equatable {
  var elementCount: Int { elements.count }

  func element(at position: Int) -> Any { elements[position] }

  func positionsEqual(to other: Any) -> [Bool]? {
    guard let other = other as? IdentifiedList else { return nil }
    var same = [Bool](repeating: true, count: Swift.min(count, other.count))
    if let changed = changedPositions(from: other) {
      for position in changed { same[position] = false }
    } else {
      for position in same.indices { same[position] = self[position] == other[position] }
    }
    return same
  }
}

/// An encoder that keeps the encoded bytes of a list's leaves between encodings: the action
/// log's writer, which encodes the state after every step. ``IdentifiedList`` hands it its rows
/// leaf by leaf, each with an identity that changes whenever the leaf does, so the encoder
/// copies the bytes of the leaves a step did not touch instead of encoding them again —
/// deciding by that identity, never by the rows' `==`.
package protocol LeafRememberingEncoder: Encoder {
  /// Encodes `rows`, one leaf of a list, as the next elements of `container`.
  ///
  /// - Parameters:
  ///   - rows: The leaf's rows.
  ///   - identity: The leaf's identity: the same object means the same rows.
  ///   - number: The leaf's number in the list, from 0.
  ///   - count: How many leaves the list has.
  ///   - container: The list's container, from this encoder's `unkeyedContainer()`.
  func encodeLeaf<Row: Encodable>(
    _ rows: [Row], identity: AnyObject, number: Int, of count: Int,
    into container: inout any UnkeyedEncodingContainer
  ) throws
}
