import Foundation
import StateStore
import Testing
import ToolTestSupport

struct IdentifiedListTests {
  struct Row: Identifiable, Equatable, Hashable, Codable, Sendable {
    var id: Int
    var name = ""
  }

  static let abc: IdentifiedList<Row> = [
    Row(id: 1, name: "a"), Row(id: 2, name: "b"), Row(id: 3, name: "c"),
  ]

  /// Two copies of one list whose last leaf is partly filled, each given another row: the
  /// appended leaf must become a leaf of its own in each. Were it to keep the shared leaf's
  /// identity, `==` (which skips a leaf of the same identity) would call the copies equal, and
  /// a test store would pass a reducer that appends the wrong row.
  @Test func copiesGivenDifferentRowsAtAPartlyFilledLeafDiffer() throws {
    for count in [0, 1, 10, 63, 64, 65, 200] {
      let shared = try IdentifiedList(
        uniqueElements: (0..<count).map { Row(id: $0, name: "\($0)") })
      var one = shared
      var two = shared
      one.append(Row(id: count, name: "right"))
      two.append(Row(id: count, name: "wrong"))
      #expect(one != two, "\(count) rows before")
      #expect(one.array != two.array, "\(count) rows before")
      #expect(shared.count == count, "the shared list is unchanged")
    }
  }

  /// The writable position subscript on copies of one list: each copy's write gives its leaf a
  /// new identity. Written into the shared leaf (or keeping its identity), `==` would skip the
  /// leaf and call two different lists equal.
  @Test func copiesWrittenThroughThePositionSubscriptDiffer() throws {
    for count in [1, 10, 63, 64, 65, 200, 4_097] {
      let shared = try IdentifiedList(
        uniqueElements: (0..<count).map { Row(id: $0, name: "\($0)") })
      for position in Set([0, count / 2, count - 1]) {
        var one = shared
        var two = shared
        one[position].name = "right"
        two[position].name = "wrong"
        #expect(one != two, "\(count) rows, position \(position)")
        #expect(one.array != two.array)
        #expect(one[id: position]?.name == "right" && two[id: position]?.name == "wrong")
        #expect(shared[position].name == "\(position)", "the shared list is unchanged")
        #expect(one.ids == shared.ids, "a write keeps the ids")
      }
    }
  }

  @Test func aRowIsWrittenInPlaceThroughItsPosition() {
    var list = Self.abc
    list[1].name = "B"
    list[2] = Row(id: 3, name: "C")
    #expect(list.array == [Row(id: 1, name: "a"), Row(id: 2, name: "B"), Row(id: 3, name: "C")])
    #expect(list.index(id: 3) == 2)

    // Another id at a position is refused, whole: the list keeps its row and ids.
    let warnings = WarningLog()
    RuntimeWarning.$reporter.withValue(warnings.reporter) {
      list[0] = Row(id: 9, name: "x")
      list[0].id = 2
    }
    #expect(list.array == [Row(id: 1, name: "a"), Row(id: 2, name: "B"), Row(id: 3, name: "C")])
    #expect(list[id: 9] == nil)
    #expect(
      warnings.messages == [
        "a row with the id 9 was set at position 0 of an IdentifiedList<IdentifiedListTests.Row>, "
          + "where the row with the id 1 is; the list was left as it was.",
        "a row with the id 2 was set at position 0 of an IdentifiedList<IdentifiedListTests.Row>, "
          + "where the row with the id 1 is; the list was left as it was.",
      ])
  }

  @Test func rowsAreRemovedAtOffsetsAsSwiftUIsOnDeleteAsks() {
    var list: IdentifiedList<Row> = [Row(id: 1), Row(id: 2), Row(id: 3), Row(id: 4)]
    list.remove(atOffsets: IndexSet([0, 2]))
    #expect(list.ids == [2, 4])
    #expect(list.index(id: 4) == 1)
    #expect(list[id: 1] == nil && list[id: 3] == nil)
    // Offsets outside the list, or given twice, are ignored.
    list.remove(atOffsets: [1, 1, 7, -1])
    #expect(list.ids == [2])
    list.remove(atOffsets: [])
    #expect(list.ids == [2])
    let added = list.append(Row(id: 4))
    #expect(added, "a removed id can come back")
  }

  @Test func filteringGivesAListWhereAListIsAsked() {
    let list: IdentifiedList<Row> = [
      Row(id: 1, name: "x"), Row(id: 2, name: "y"), Row(id: 3, name: "x"),
    ]
    let xs = list.filter { $0.name == "x" }
    #expect(xs.ids == [1, 3])
    #expect(xs.index(id: 3) == 1)
    #expect(xs[id: 2] == nil)
    // Where an array is asked for, the standard library's filter gives one.
    let rows: [Row] = list.filter { $0.name == "x" }
    #expect(rows == xs.array)
    #expect(list.filter { _ in true } == list)
    #expect(list.filter { _ in false }.isEmpty)
  }

  @Test func theIDsAreAViewThatFindsAnIDAtOnce() {
    let list = Self.abc
    let ids = list.ids
    #expect(ids.contains(2) && !ids.contains(9))
    #expect(ids.firstIndex(of: 3) == 2 && ids.firstIndex(of: 9) == nil)
    #expect(ids == [1, 2, 3])
    #expect(Array(ids) == [1, 2, 3])
    #expect(ids.description == "[1, 2, 3]")
    var other = list
    other.remove(id: 2)
    other.insert(Row(id: 2, name: "b"), at: 1)
    #expect(other.ids == ids, "the same ids in the same order, whatever the history")
    other.move(fromOffsets: [0], toOffset: 3)
    #expect(other.ids != ids)
    #expect(Set([ids, list.ids]).count == 1)
  }

  @Test func rowsAreFoundByIDAndKeptInOrder() {
    var list = Self.abc
    #expect(list[id: 2]?.name == "b")
    #expect(list[id: 9] == nil)
    #expect(list.index(id: 3) == 2)
    list[id: 2]?.name = "B"
    #expect(list.map(\.name) == ["a", "B", "c"])
    list[id: 4] = Row(id: 4, name: "d")
    #expect(list.ids == [1, 2, 3, 4])
    list[id: 1] = nil
    #expect(list.ids == [2, 3, 4])
    #expect(list.index(id: 4) == 2)
    let found: String? = list.update(id: 3) { row in
      row.name = "C"
      return row.name
    }
    let missing: String? = list.update(id: 9) { row in
      row.name = "?"
      return row.name
    }
    #expect(found == "C")
    #expect(missing == nil)
    #expect(list.array == [Row(id: 2, name: "B"), Row(id: 3, name: "C"), Row(id: 4, name: "d")])
  }

  @Test func anIDIsNeverAddedTwice() {
    var list = Self.abc
    let again = list.append(Row(id: 2, name: "again"))
    let first = list.insert(Row(id: 1), at: 0)
    #expect(!again && !first)
    #expect(list == Self.abc)
    let before = list.insert(Row(id: 0), at: -5)
    let after = list.insert(Row(id: 9), at: 100)
    #expect(before && after)
    #expect(list.ids == [0, 1, 2, 3, 9])
    #expect(list.index(id: 9) == 4)
  }

  @Test func duplicateIDsAreATypedErrorOrAWarning() throws {
    #expect(throws: IdentifiedListError.duplicateID("2")) {
      try IdentifiedList(uniqueElements: [Row(id: 2), Row(id: 1), Row(id: 2)])
    }
    #expect(
      IdentifiedListError.duplicateID("2").description
        == "two rows have the id 2; every row needs its own")
    let json = Data(#"[{"id":1,"name":"a"},{"id":1,"name":"b"}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedList<Row>.self, from: json)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription == "two rows have the id 1; every row needs its own"
    }

    let warnings = WarningLog()
    let literal: IdentifiedList<Row> = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      [Row(id: 1, name: "first"), Row(id: 1, name: "second")]
    }
    #expect(literal.array == [Row(id: 1, name: "first")])
    #expect(
      warnings.messages == [
        "two rows of an IdentifiedList<IdentifiedListTests.Row> literal have the id 1; the "
          + "second was left out."
      ])
  }

  @Test func aRowIsNeverStoredUnderAnotherID() {
    let warnings = WarningLog()
    var list = Self.abc
    RuntimeWarning.$reporter.withValue(warnings.reporter) {
      list[id: 1] = Row(id: 7, name: "x")
      list.update(id: 2) { $0.id = 3 }
    }
    // The set is refused; the changed id removes the row, so no two rows share id 3.
    #expect(list.array == [Row(id: 1, name: "a"), Row(id: 3, name: "c")])
    #expect(list[id: 3]?.name == "c")
    #expect(warnings.messages.count == 2)
    #expect(warnings.messages.first?.contains("was set under the id 1") == true)
    #expect(warnings.messages.last?.contains("changed its id from 2 to 3") == true)
  }

  @Test(arguments: [
    // SwiftUI's `onMove`: the rows go before the row that was at the destination.
    ([0], 2, [2, 1, 3]),
    ([0], 3, [2, 3, 1]),
    ([2], 0, [3, 1, 2]),
    ([0, 2], 2, [2, 1, 3]),
    ([1], 1, [1, 2, 3]),
    ([1], 99, [1, 3, 2]),
    ([7], 0, [1, 2, 3]),
  ])
  func movingRowsFollowsSwiftUIsOnMove(offsets: [Int], destination: Int, ids: [Int]) {
    var list = Self.abc
    list.move(fromOffsets: offsets, toOffset: destination)
    #expect(list.ids == ids)
    for (position, id) in ids.enumerated() { #expect(list.index(id: id) == position) }
  }

  @Test func removingAndSortingKeepPositionsRight() {
    var list: IdentifiedList<Row> = [
      Row(id: 1, name: "b"), Row(id: 2, name: "a"), Row(id: 3, name: "b"), Row(id: 4, name: "a"),
    ]
    list.sort { $0.name < $1.name }
    // Stable: rows with one name keep their order.
    #expect(list.ids == [2, 4, 1, 3])
    list.removeAll { $0.id.isMultiple(of: 2) }
    #expect(list.ids == [1, 3])
    #expect(list.index(id: 3) == 1)
    #expect(list.remove(id: 1) == Row(id: 1, name: "b"))
    #expect(list.remove(id: 1) == nil)
    #expect(list.index(id: 3) == 0)
  }

  @Test func itEncodesDumpsAndComparesAsAnArray() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(Self.abc)
    #expect(try encoder.encode(Self.abc.array) == data)
    #expect(try JSONDecoder().decode(IdentifiedList<Row>.self, from: data) == Self.abc)
    #expect(
      Dump.renderOneLine([Row(id: 1, name: "a")] as IdentifiedList<Row>)
        == #"[IdentifiedListTests.Row(id: 1, name: "a")]"#)
    // Two lists with the same rows are equal, whatever their history.
    var built = IdentifiedList<Row>()
    for row in Self.abc.reversed() { built.insert(row, at: 0) }
    #expect(built == Self.abc)
    #expect(built.hashValue == Self.abc.hashValue)
  }

  @Test func aLongListKeepsItsRowsAcrossLeavesAndNodes() {
    // 10,000 rows: more than two nodes of 4,096 rows, the last leaf part full.
    var list = IdentifiedList<Row>()
    for id in 0..<10_000 { list.append(Row(id: id, name: "\(id)")) }
    let before = list
    list[id: 4_096]?.name = "changed"
    list.update(id: 9_999) { $0.name = "last" }
    #expect(before[id: 4_096]?.name == "4096")
    #expect(list[4_096].name == "changed")
    #expect(list.map(\.id) == Array(0..<10_000))
    #expect(list != before)
    let changed = list.indices.filter { list[$0] != before[$0] }
    #expect(changed == [4_096, 9_999])

    list.remove(id: 63)
    list.insert(Row(id: 20_000), at: 4_095)
    #expect(list.count == 10_000)
    #expect(list.index(id: 20_000) == 4_095)
    #expect(list.index(id: 4_096) == 4_096)
    #expect(list[id: 64] == Row(id: 64, name: "64"))
    #expect(list.index(id: 64) == 63)
    #expect(Array(list.ids.prefix(3)) == [0, 1, 2])
  }
}
