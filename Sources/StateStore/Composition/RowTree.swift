/// The rows of an ``IdentifiedList``, kept so that two versions of a list share what they have
/// in common: 64 rows to a leaf, 64 leaves to a node, nodes in one array.
///
/// Every level is a Swift array, so copying a list copies one reference, and changing one row
/// of a copy copies only the top array (one reference per 4,096 rows), one node (64
/// references) and one leaf (64 rows): about 150 words at 100,000 rows, where a flat array
/// copies all 100,000. Keeping the state before a step (a test store, a recorder, a handle)
/// therefore never copies the whole list.
///
/// Each leaf also carries an identity of its own, replaced whenever the leaf changes and shared
/// by copies: the same identity means the same rows, which lets ``changedPositions(from:)``
/// skip an untouched leaf without comparing anything, and lets the action log's writer keep a
/// leaf's encoded bytes between steps (``LeafRememberingEncoder``) — decided by this package's
/// own object, never by the rows' `==`.
///
/// All leaves but the last are full, so a position is found by arithmetic. Inserting or
/// removing anywhere but the end rebuilds the tree, as it rebuilds the list's positions.
@usableFromInline
struct RowTree<Element> {
  @usableFromInline var nodes: [[Leaf]] = []
  @usableFromInline var count = 0

  @inlinable static var leafShift: Int { 6 }
  @inlinable static var nodeShift: Int { 12 }
  @inlinable static var leafMask: Int { 63 }

  @usableFromInline init() {}

  @usableFromInline init(_ rows: some Sequence<Element>) {
    for row in rows { append(row) }
  }

  /// The row at `position`.
  @inlinable subscript(position: Int) -> Element {
    get {
      nodes[position >> Self.nodeShift][(position >> Self.leafShift) & Self.leafMask].rows[
        position & Self.leafMask]
    }
    set {
      modify(at: position) { $0 = newValue }
    }
  }

  /// Changes the row at `position` in place: only the path to it is copied if it is shared.
  @inlinable mutating func modify<Result>(
    at position: Int, _ body: (inout Element) throws -> Result
  ) rethrows -> Result {
    let node = position >> Self.nodeShift
    let leaf = (position >> Self.leafShift) & Self.leafMask
    nodes[node][leaf].identity = LeafIdentity()
    return try body(&nodes[node][leaf].rows[position & Self.leafMask])
  }

  @usableFromInline mutating func append(_ row: Element) {
    let node = count >> Self.nodeShift
    let leaf = (count >> Self.leafShift) & Self.leafMask
    if node == nodes.count {
      nodes.append([Leaf(rows: [row])])
    } else if leaf == nodes[node].count {
      nodes[node].append(Leaf(rows: [row]))
    } else {
      nodes[node][leaf].rows.append(row)
      nodes[node][leaf].identity = LeafIdentity()
    }
    count += 1
  }

  /// The rows, in order, as one array.
  @usableFromInline var array: [Element] {
    var rows: [Element] = []
    rows.reserveCapacity(count)
    for node in nodes {
      for leaf in node { rows.append(contentsOf: leaf.rows) }
    }
    return rows
  }

  /// The positions whose rows differ between `old` and this tree, in order, when both have
  /// the same count. A leaf whose identity is the old one is skipped without comparing a row
  /// (the identity is this package's, so the skip never rests on the rows' `==`); the rows of
  /// the other leaves are compared one by one.
  @inlinable func changedPositions(from old: RowTree) -> [Int] where Element: Equatable {
    guard count == old.count else { return Array(0..<count) }
    var changed: [Int] = []
    for node in 0..<nodes.count {
      let leaves = nodes[node]
      let oldLeaves = old.nodes[node]
      for leaf in 0..<leaves.count where leaves[leaf].identity !== oldLeaves[leaf].identity {
        let rows = leaves[leaf].rows
        let oldRows = oldLeaves[leaf].rows
        let start = node << Self.nodeShift + leaf << Self.leafShift
        for offset in 0..<rows.count where rows[offset] != oldRows[offset] {
          changed.append(start + offset)
        }
      }
    }
    return changed
  }
}

extension RowTree {
  /// One leaf: up to 64 rows, and who they are.
  @usableFromInline struct Leaf {
    @usableFromInline var rows: [Element]
    /// Replaced whenever ``rows`` change; shared by copies.
    @usableFromInline var identity = LeafIdentity()

    @usableFromInline init(rows: [Element]) {
      self.rows = rows
    }
  }

  /// Calls `body` with each leaf's rows, its identity and its number, in order.
  func forEachLeaf(_ body: ([Element], AnyObject, Int) throws -> Void) rethrows {
    var number = 0
    for node in nodes {
      for leaf in node {
        try body(leaf.rows, leaf.identity, number)
        number += 1
      }
    }
  }
}

/// The identity of one version of a leaf of a ``RowTree``.
@usableFromInline final class LeafIdentity: Sendable {
  @usableFromInline init() {}
}

extension RowTree.Leaf: Equatable where Element: Equatable {
  /// Whether both hold equal rows: at once when they are one version.
  @inlinable static func == (lhs: RowTree.Leaf, rhs: RowTree.Leaf) -> Bool {
    lhs.identity === rhs.identity || lhs.rows == rhs.rows
  }
}

extension RowTree.Leaf: Sendable where Element: Sendable {}

extension RowTree: Sendable where Element: Sendable {}

extension RowTree: Equatable where Element: Equatable {
  /// Whether both hold equal rows in the same order; shared nodes and leaves compare at once.
  @inlinable static func == (lhs: RowTree, rhs: RowTree) -> Bool {
    lhs.count == rhs.count && lhs.nodes == rhs.nodes
  }
}
