/// One side of a patch being made: a state's canonical JSON, and where the leaves of its
/// identified lists lie in it when the log's writer knows (`EncodedState`).
///
/// The patch walks both states' structure. A leaf's bytes are comma-separated whole rows of
/// one array, so a walk that meets one inside an array steps over it in one go, and two states
/// holding the same leaf object at matching places hold the same bytes there. With no leaves
/// known, everything is found by `JSONValueBytes`, byte by byte, as before.
extension StatePatch {
  struct Side {
    let bytes: ArraySlice<UInt8>
    private let state: EncodedState?

    init(bytes: ArraySlice<UInt8>) {
      self.bytes = bytes
      state = nil
    }

    init(_ state: EncodedState) {
      bytes = state.bytes[...]
      self.state = state.runs.isEmpty ? nil : state
    }

    /// Whether the values at `oldRange` in `old` and `newRange` in `new` are the same bytes:
    /// compared byte by byte, except the leaves both hold at the same offset.
    static func same(_ old: Side, _ oldRange: Range<Int>, _ new: Side, _ newRange: Range<Int>)
      -> Bool
    {
      guard oldRange.count == newRange.count else { return false }
      guard let oldState = old.state, let newState = new.state else {
        return old.bytes[oldRange] == new.bytes[newRange]
      }
      let oldRuns = oldState.runs
      let newRuns = newState.runs
      var oldIndex = oldRange.lowerBound
      var newIndex = newRange.lowerBound
      var nextOld = oldState.firstRun(from: oldIndex)
      var nextNew = newState.firstRun(from: newIndex)
      while oldIndex < oldRange.upperBound {
        if nextOld < oldRuns.count, nextNew < newRuns.count, oldRuns[nextOld].start == oldIndex,
          newRuns[nextNew].start == newIndex, oldRuns[nextOld].leaf === newRuns[nextNew].leaf,
          oldRuns[nextOld].end <= oldRange.upperBound
        {
          let length = oldRuns[nextOld].leaf.bytes.count
          oldIndex += length
          newIndex += length
          nextOld += 1
          nextNew += 1
          continue
        }
        // Byte by byte, up to where the next leaf starts on either side.
        while nextOld < oldRuns.count, oldRuns[nextOld].start <= oldIndex { nextOld += 1 }
        while nextNew < newRuns.count, newRuns[nextNew].start <= newIndex { nextNew += 1 }
        let oldStop = nextOld < oldRuns.count ? oldRuns[nextOld].start - oldIndex : Int.max
        let newStop = nextNew < newRuns.count ? newRuns[nextNew].start - newIndex : Int.max
        let length = min(oldRange.upperBound - oldIndex, oldStop, newStop)
        guard
          old.bytes[oldIndex..<(oldIndex + length)] == new.bytes[newIndex..<(newIndex + length)]
        else { return false }
        oldIndex += length
        newIndex += length
      }
      return true
    }

    /// The members of the object in `range`, as `JSONValueBytes.members(of:in:)` finds them.
    func members(of range: Range<Int>) -> [JSONValueBytes.Member]? {
      guard state != nil else { return JSONValueBytes.members(of: range, in: bytes) }
      guard range.count >= 2, bytes[range.lowerBound] == JSONValueBytes.openBrace,
        bytes[range.upperBound - 1] == JSONValueBytes.closeBrace
      else { return nil }
      let last = range.upperBound - 1
      var members: [JSONValueBytes.Member] = []
      var index = range.lowerBound + 1
      if index == last { return members }
      while true {
        guard bytes[index] == JSONValueBytes.quote,
          let keyEnd = JSONValueBytes.end(ofValueAt: index, in: bytes, limit: last),
          keyEnd < last, bytes[keyEnd] == JSONValueBytes.colon,
          let valueEnd = end(ofValueAt: keyEnd + 1, limit: last)
        else { return nil }
        members.append(JSONValueBytes.Member(key: index..<keyEnd, value: (keyEnd + 1)..<valueEnd))
        if valueEnd == last { return members }
        guard bytes[valueEnd] == JSONValueBytes.comma, valueEnd + 1 < last else { return nil }
        index = valueEnd + 1
      }
    }

    /// The elements of the array in `range`, as `JSONValueBytes.elements(of:in:)` finds them:
    /// a leaf's rows as one piece, from where the leaf says they end.
    func elements(of range: Range<Int>) -> Elements? {
      guard let state else {
        return JSONValueBytes.elements(of: range, in: bytes).map(Elements.init(each:))
      }
      guard range.count >= 2, bytes[range.lowerBound] == JSONValueBytes.openBracket,
        bytes[range.upperBound - 1] == JSONValueBytes.closeBracket
      else { return nil }
      let last = range.upperBound - 1
      var elements = Elements()
      var index = range.lowerBound + 1
      if index == last { return elements }
      var next = state.firstRun(from: index)
      while true {
        while next < state.runs.count, state.runs[next].start < index { next += 1 }
        let valueEnd: Int
        if next < state.runs.count, state.runs[next].start == index, state.runs[next].end <= last {
          let run = state.runs[next]
          elements.append(Piece(first: 0, range: run.start..<run.end, leaf: run.leaf))
          valueEnd = run.end
          next += 1
        } else {
          guard let end = end(ofValueAt: index, limit: last) else { return nil }
          elements.append(Piece(first: 0, range: index..<end, leaf: nil))
          valueEnd = end
        }
        if valueEnd == last { return elements }
        guard bytes[valueEnd] == JSONValueBytes.comma, valueEnd + 1 < last else { return nil }
        index = valueEnd + 1
      }
    }

    /// Where the value that starts at `start` ends, as `JSONValueBytes.end(ofValueAt:in:limit:)`
    /// finds it: stepping over each leaf met inside it.
    private func end(ofValueAt start: Int, limit: Int) -> Int? {
      guard let state, start >= bytes.startIndex, start < limit, limit <= bytes.endIndex,
        bytes[start] == JSONValueBytes.openBrace || bytes[start] == JSONValueBytes.openBracket
      else { return JSONValueBytes.end(ofValueAt: start, in: bytes, limit: limit) }
      let runs = state.runs
      var nesting = JSONNesting()
      var index = start
      var next = state.firstRun(from: start + 1)
      while index < limit {
        if next < runs.count, runs[next].start == index {
          // A leaf is whole rows inside an array: the nesting is the same after it.
          if nesting.depth > 0, !nesting.isInString, runs[next].end <= limit {
            index = runs[next].end
            next += 1
            continue
          }
          next += 1
        }
        nesting.take(bytes[index])
        index += 1
        if nesting.depth == 0, !nesting.isInString { return index }
      }
      return nil
    }
  }

  /// A run of an array's elements: one element, or the rows of one leaf.
  struct Piece {
    /// The number of its first element in the array.
    var first: Int
    /// Its bytes.
    var range: Range<Int>
    /// The leaf whose rows these are; `nil` for one element.
    var leaf: CanonicalJSONEncoder.RememberedLeaf?

    var count: Int { leaf?.ends.count ?? 1 }

    /// Where element `number` of the array lies, for one of this piece's.
    func range(of number: Int) -> Range<Int> {
      guard let leaf else { return range }
      let row = leaf.range(ofRow: number - first)
      return (range.lowerBound + row.lowerBound)..<(range.lowerBound + row.upperBound)
    }
  }

  /// An array's elements, found piece by piece: a leaf's rows are not one range each.
  struct Elements {
    private(set) var pieces: [Piece] = []
    private(set) var count = 0

    init() {}

    /// One piece for each of `elements`.
    init(each elements: [Range<Int>]) {
      pieces = elements.enumerated().map { Piece(first: $0, range: $1, leaf: nil) }
      count = pieces.count
    }

    mutating func append(_ piece: Piece) {
      var piece = piece
      piece.first = count
      pieces.append(piece)
      count += piece.count
    }

    /// The piece that holds element `number`, looking from `piece` on (elements are visited in
    /// order).
    func piece(holding number: Int, from piece: Int) -> Int {
      var piece = piece
      while pieces[piece].first + pieces[piece].count <= number { piece += 1 }
      return piece
    }
  }
}
