import StateStore

/// Keeping the encoded bytes of an `IdentifiedList`'s leaves between encodings.
///
/// The action log's writer encodes the state after every step, and a step that changes one row
/// of a list of 100,000 leaves all but one leaf of 64 rows as they were. An `IdentifiedList`
/// hands this encoder its rows leaf by leaf, each with an identity that the list replaces
/// whenever the leaf changes (see `LeafRememberingEncoder`). An encoder made with
/// `remembersLeaves` keeps, per list (by its coding path) and per leaf, that identity and the
/// bytes of each row; when the next encoding brings the same identity it copies the bytes.
///
/// Nothing here asks a host's `==`: the identity is the list's own object, kept alive here so
/// it can never be mistaken for a newer one. The bytes are this encoder's own, made with its
/// options (masks included), so they are what encoding the rows again would write.
extension CanonicalJSONEncoder {
  /// One remembered leaf: its identity, its rows' bytes one after the other with a comma
  /// between two (as they stand in the list's array), and where each row's bytes end.
  ///
  /// A leaf is one entry of the list's container (`Node.leaf`), rendered as these bytes: the
  /// log's writer then knows where each leaf lies in a state's bytes (`EncodedState`), and two
  /// states that hold the same `RememberedLeaf` object hold the same bytes there. Its bytes
  /// never change.
  final class RememberedLeaf {
    let identity: AnyObject
    let bytes: [UInt8]
    let ends: [Int]

    init(identity: AnyObject, bytes: [UInt8], ends: [Int]) {
      self.identity = identity
      self.bytes = bytes
      self.ends = ends
    }

    /// Where row `row`'s bytes lie in ``bytes``.
    func range(ofRow row: Int) -> Range<Int> {
      (row == 0 ? 0 : ends[row - 1] + 1)..<ends[row]
    }
  }

  /// The remembered leaves of one list, by number: a reference, which the container encoding
  /// the list holds while its leaves come one by one.
  final class RememberedLeaves {
    var leaves: [RememberedLeaf?] = []
  }
}

extension CanonicalJSONEncoder.ValueEncoder: LeafRememberingEncoder {
  func encodeLeaf<Row: Encodable>(
    _ rows: [Row], identity: AnyObject, number: Int, of count: Int,
    into container: inout any UnkeyedEncodingContainer
  ) throws {
    guard core.remembersLeaves, let unkeyed = container as? CanonicalJSONEncoder.UnkeyedContainer
    else {
      for row in rows { try container.encode(row) }
      return
    }
    try core.encodeLeaf(rows, identity: identity, number: number, of: count, in: unkeyed)
  }
}

extension CanonicalJSONEncoder.Core {
  func encodeLeaf<Row: Encodable>(
    _ rows: [Row], identity: AnyObject, number: Int, of count: Int,
    in container: CanonicalJSONEncoder.UnkeyedContainer
  ) throws {
    // The list's remembered leaves, found by its coding path once per encoding of the list.
    let list: CanonicalJSONEncoder.RememberedLeaves
    if number > 0, let known = frames[container.frame].leaves {
      list = known
    } else {
      let place = pathText(frame: container.frame, key: nil)
      if let known = leafMemory[place] {
        list = known
      } else {
        list = CanonicalJSONEncoder.RememberedLeaves()
        leafMemory[place] = list
      }
      frames[container.frame].leaves = list
    }
    defer {
      if number == count - 1, list.leaves.count > count { list.leaves.removeSubrange(count...) }
    }
    if number < list.leaves.count, let kept = list.leaves[number], kept.identity === identity,
      kept.ends.count == rows.count
    {
      appendLeaf(kept, to: container.frame)
      return
    }
    var writer = container
    var bytes: [UInt8] = []
    var ends: [Int] = []
    var isWhole = true
    let firstEntry = frames[container.frame].entries.count
    freshLeaves += 1
    defer { freshLeaves -= 1 }
    for row in rows {
      try writer.encode(row)
      if case .bytes(let start, let end) = frames[container.frame].entries.last?.node {
        if !ends.isEmpty { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: arena[start..<end])
        ends.append(bytes.count)
      } else {
        isWhole = false
      }
    }
    if list.leaves.count <= number {
      list.leaves.append(contentsOf: repeatElement(nil, count: number + 1 - list.leaves.count))
    }
    guard isWhole, unsupported == nil, !rows.isEmpty else {
      list.leaves[number] = nil
      return
    }
    let leaf = CanonicalJSONEncoder.RememberedLeaf(identity: identity, bytes: bytes, ends: ends)
    list.leaves[number] = leaf
    // The rows' entries become the leaf's one entry: the same bytes, and the writer learns
    // where they land.
    frames[container.frame].entries.removeSubrange(firstEntry...)
    appendLeaf(leaf, to: container.frame)
  }

  /// Appends `leaf`'s rows to the unkeyed container `frame` as one entry.
  private func appendLeaf(_ leaf: CanonicalJSONEncoder.RememberedLeaf, to frame: Int) {
    append(.leaf(leaf), key: "", to: frame)
    frames[frame].elementsInLeaves += leaf.ends.count - 1
    leafEntries += 1
  }
}
