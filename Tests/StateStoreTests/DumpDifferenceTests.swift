import Foundation
import StateStore
import Testing
import ToolTestSupport

/// `Dump.diff(of:and:)` renders only what differs: equal parts are compared, not rendered, and
/// long runs of equal elements fold.
struct DumpDifferenceTests {
  struct Item: Equatable, Sendable {
    var id: Int
    var title: String
  }

  struct Board: Equatable, Sendable {
    var name: String
    var items: [Item]
  }

  static func board(count: Int) -> Board {
    Board(name: "b", items: (0..<count).map { Item(id: $0, title: "item \($0)") })
  }

  struct Pinned: Equatable, Sendable {
    var count: Int
    var pinned: NoteComparedByID
  }

  /// A part that `==` calls unchanged but that renders otherwise is shown as changed, not as
  /// its old value on both sides.
  @Test func aFieldTheTypesEqualityIgnoresIsShownAsChanged() throws {
    let old = Pinned(count: 1, pinned: NoteComparedByID(id: 7, label: "draft"))
    let new = Pinned(count: 2, pinned: NoteComparedByID(id: 7, label: "published"))
    let diff = try #require(Dump.diff(of: old, and: new))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(lines.contains("−     label: \"draft\""), "\(diff)")
    #expect(lines.contains("+     label: \"published\""), "\(diff)")
    #expect(lines.contains("−   count: 1,") && lines.contains("+   count: 2,"), "\(diff)")
  }

  /// An element that `==` calls unchanged is shown from each side, not from the old one on both:
  /// in a short list, and next to a change in a long one. A renamed note shows as changed, and
  /// a step that only renames one has a diff (the replay's timeline said "no state change").
  @Test func anElementTheTypesEqualityCallsUnchangedIsShownFromEachSide() throws {
    let old = [NoteComparedByID(id: 1, label: "draft"), NoteComparedByID(id: 2, label: "b")]
    var new = old
    new[0].label = "published"
    let diff = try #require(Dump.diff(of: old, and: new))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("−") } == ["−     label: \"draft\""], "\(diff)")
    #expect(lines.filter { $0.hasPrefix("+") } == ["+     label: \"published\""], "\(diff)")

    var long = (0..<40).map { NoteComparedByID(id: $0, label: "note \($0)") }
    let before = long
    long[20].id = 99
    long[21].label = "renamed"
    let longDiff = try #require(Dump.diff(of: before, and: long))
    let longLines = longDiff.split(separator: "\n").map(String.init)
    #expect(longLines.contains("−     label: \"note 21\""), "\(longDiff)")
    #expect(longLines.contains("+     label: \"renamed\""), "\(longDiff)")
  }

  /// The values the package compares without rendering them: its own and the standard
  /// library's, never a host type, whatever its `==`.
  @Test func onlyValuesThePackageVouchesForAreComparedWithoutRendering() {
    #expect(Dump.rendersSame("ada", "ada") == true)
    #expect(Dump.rendersSame(0.0, -0.0) == false, "== calls them equal; -0.0 shows its sign")
    #expect(Dump.rendersSame([1.5, 2], [1.5, 2]) == true)
    #expect(Dump.rendersSame(Set(0..<50), Set((0..<50).reversed())) == true)
    #expect(Dump.rendersSame(["a": [0.0]], ["a": [-0.0]]) == false)
    let noSecret: Secret? = nil
    let secret: Secret? = "x"
    #expect(Dump.rendersSame(noSecret as Any, secret as Any) == false)
    #expect(Dump.rendersSame(1, "1") == nil, "values of two types")
    let note = NoteComparedByID(id: 1, label: "draft")
    #expect(Dump.rendersSame(note, note) == nil, "a host type is never taken on its ==")
    #expect(Dump.rendersSame([note], [note]) == nil)
  }

  struct Reading: Equatable {
    var level: Double
    var count: Int
  }

  struct Shelf: Equatable {
    var pinned: NoteComparedByID?
    var nested: Pinned
  }

  /// Inside an optional and a struct that `==` calls unchanged, a field the note's `==`
  /// ignores still shows as changed.
  @Test func aFieldTheTypesEqualityIgnoresShowsInsideOptionalsAndStructs() throws {
    let draft = NoteComparedByID(id: 7, label: "draft")
    var published = draft
    published.label = "published"
    let old = Shelf(pinned: draft, nested: Pinned(count: 1, pinned: draft))
    let new = Shelf(pinned: published, nested: Pinned(count: 1, pinned: published))
    let diff = try #require(Dump.diff(of: old, and: new))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.hasPrefix("−") }.count == 2, "\(diff)")
    let added = lines.filter { $0.hasPrefix("+") && $0.contains("\"published\"") }
    #expect(added.count == 2, "\(diff)")
  }

  @Test func aNegativeZeroShowsAsChanged() throws {
    let diff = try #require(
      Dump.diff(of: Reading(level: 0.0, count: 1), and: Reading(level: -0.0, count: 2)))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(lines.contains("−   level: 0.0,") && lines.contains("+   level: -0.0,"), "\(diff)")
  }

  @Test func oneChangedItemOfAHundredShowsWithThreeNeighboursOnEachSide() throws {
    let old = Self.board(count: 100)
    var new = old
    new.items[50].title = "changed"
    let diff = try #require(Dump.diff(of: old, and: new))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.contains("unchanged") } == [
        "      … (47 unchanged),", "      … (46 unchanged)",
      ])
    let shown = lines.compactMap { line -> Int? in
      guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else {
        return nil
      }
      return Int(line[line.index(after: open)..<close])
    }
    #expect(shown == [47, 48, 49, 50, 51, 52, 53])
    #expect(lines.filter { $0.hasPrefix("−") } == ["−       title: \"item 50\""])
    #expect(lines.filter { $0.hasPrefix("+") } == ["+       title: \"changed\""])
  }

  /// Rows whose `==` compares their ids only: beside a row whose id changed, a row whose title
  /// changed is `==` to its old self yet shown as changed, and the runs folded around them
  /// count exactly the rows not shown (issue 49 §5: a count off by one went unnoticed).
  @Test func foldedRunsAroundRowsEqualByTheirIdsCountEveryRowNotShown() throws {
    var old = (0..<30).map { NoteComparedByID(id: $0, label: "note \($0)") }
    var new = old
    new[15].id = 99
    new[16].label = "renamed"
    old.append(NoteComparedByID(id: 30, label: "last"))
    new.append(NoteComparedByID(id: 30, label: "last"))
    let diff = try #require(Dump.diff(of: old, and: new))
    let lines = diff.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.contains("unchanged") } == [
        "    … (12 unchanged),", "    … (12 unchanged)",
      ],
      "\(diff)")
    let shown = Set(
      lines.compactMap { line -> Int? in
        guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else {
          return nil
        }
        return Int(line[line.index(after: open)..<close])
      })
    // 12 folded, 12...18 shown (three on each side of the changed id), 12 folded: all 31.
    #expect(shown == Set(12...18), "\(diff)")
    #expect(lines.contains("+     label: \"renamed\""), "\(diff)")
  }

  @Test func smallValuesDiffExactlyAsTheirRenderingsDo() {
    let old = Self.board(count: 5)
    var new = old
    new.items[2].title = "x"
    new.name = "c"
    #expect(Dump.diff(of: old, and: new) == Dump.diff(Dump.render(old), Dump.render(new)))
    let appended = Board(name: "b", items: old.items + [Item(id: 5, title: "new")])
    #expect(
      Dump.diff(of: old, and: appended) == Dump.diff(Dump.render(old), Dump.render(appended)))
  }

  @Test func anAppendedItemKeepsTheLastOnesAsContext() throws {
    let old = Self.board(count: 50)
    var new = old
    new.items.append(Item(id: 50, title: "new"))
    let diff = try #require(Dump.diff(of: old, and: new))
    #expect(diff.contains("… (47 unchanged)"))
    #expect(diff.contains("+     [50]: DumpDifferenceTests.Item("))
    #expect(diff.contains("+       title: \"new\""))
    #expect(diff.contains("      [47]: DumpDifferenceTests.Item("))
  }

  @Test func equalValuesHaveNoDiffAndSecretsShowTheirMasksOnly() {
    #expect(Dump.diff(of: Self.board(count: 3), and: Self.board(count: 3)) == nil)
    let diff = Dump.diff(of: [Secret("Hunter2!")], and: [Secret("Letmein9")]) ?? ""
    #expect(!diff.contains("Hunter2") && !diff.contains("Letmein9"))
  }

  /// An array of `Equatable` elements is compared with their `==` in one pass; any other
  /// collection (here a `ContiguousArray`) through reflection, element by element. Both must
  /// give the same diff: changed, appended, removed and nested elements, and empty sides.
  @Test func arraysOfEquatableElementsDiffAsOtherCollectionsDo() throws {
    let items = Self.board(count: 40).items
    var changed = items
    changed[20].title = "changed"
    changed[3].id = -1
    let pairs: [([Item], [Item])] = [
      (items, changed), (items, items + [Item(id: 40, title: "new")]),
      (items, Array(items.dropLast(2))), ([], items), (items, []), (items, items),
    ]
    for (old, new) in pairs {
      let typed = Dump.diff(of: old, and: new)
      #expect(typed == Dump.diff(of: ContiguousArray(old), and: ContiguousArray(new)))
      #expect((typed == nil) == (old == new))
    }
    let diff = try #require(Dump.diff(of: items, and: changed))
    #expect(diff.contains("… (10 unchanged)") && diff.contains("… (16 unchanged)"))
    #expect(diff.contains("+     title: \"changed\""))

    let grid = (0..<30).map { row in (0..<30).map { row * 30 + $0 } }
    var edited = grid
    edited[12][7] = -7
    let nested = try #require(Dump.diff(of: grid, and: edited))
    #expect(nested == Dump.diff(of: ContiguousArray(grid), and: ContiguousArray(edited)))
    #expect(nested.contains("+     [7]: -7"))
  }

  /// A list that is the same on both sides folds whole, wherever it sits, so a change of one
  /// field of a state that also holds a long list diffs in a few lines; a short list and a
  /// date show as they render.
  @Test func anUnchangedLongListFoldsWholeBesideAChangedField() throws {
    struct Page: Equatable, Sendable {
      var title: String
      var board: Board
      var tags: [String]
      var published: Date?
    }
    let old = Page(
      title: "draft", board: Self.board(count: 100_000), tags: ["a", "b"],
      published: Date(timeIntervalSince1970: 0))
    var new = old
    new.title = "final"
    let diff = try #require(Dump.diff(of: old, and: new))
    #expect(
      diff == """
          DumpDifferenceTests.Page(
        \u{2212}   title: "draft",
        +   title: "final",
            board: DumpDifferenceTests.Board(
              name: "b",
              items: [
                … (100000 unchanged)
              ]
            ),
            tags: [
              [0]: "a",
              [1]: "b"
            ],
            published: 1970-01-01T00:00:00Z
          )
        """)
    // The changed side of a list still folds its runs of equal elements.
    var listChanged = old
    listChanged.board.items[7].title = "x"
    let changedList = try #require(Dump.diff(of: old, and: listChanged))
    #expect(changedList.contains("… (99989 unchanged)"))
    #expect(changedList.contains("+         title: \"x\""))
  }
}
