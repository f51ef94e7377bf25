import Observation
import StateStore
import Testing
import ToolTestSupport

/// A shelf of pages, each a `Journal` feature of its own: `forEach` with rows that have effects.
struct Shelf: Reducer {
  struct Page: Identifiable, Equatable, Sendable {
    let id: Int
    var journal = Journal.State()
  }

  struct State: Equatable, Sendable {
    var pages: IdentifiedList<Page> = []
  }

  enum Action: Equatable, Sendable {
    case add(Int)
    case remove(Int)
    case clear
    case pages(RowAction<Int, Journal.Action>)
  }

  enum Effect: ComposedEffect, Equatable {
    case pages(RowEffect<Int, Journal.Effect>)
    case childDismissed(ChildDismissal)
  }

  static let pages = ChildFeature(
    "pages", state: \State.pages,
    action: CaseKey(embed: Action.pages) { if case .pages(let a) = $0 { a } else { nil } },
    effect: CaseKey(embed: Effect.pages) { if case .pages(let e) = $0 { e } else { nil } })

  struct PageReducer: Reducer {
    func reduce(into state: inout Page, action: Journal.Action) -> [Journal.Effect] {
      Journal().reduce(into: &state.journal, action: action)
    }
  }

  struct Core: Reducer {
    func reduce(into state: inout State, action: Action) -> [Effect] {
      switch action {
      case .add(let id): state.pages.append(Page(id: id))
      case .remove(let id): state.pages.remove(id: id)
      case .clear: state.pages = []
      case .pages: break
      }
      return []
    }
  }

  let body = Core().forEach(Shelf.pages) { PageReducer() }

  func reduce(into state: inout State, action: Action) -> [Effect] {
    body.reduce(into: &state, action: action)
  }
}

@MainActor struct ForEachTests {
  static let twoPages = Shelf.State(pages: [Shelf.Page(id: 1), Shelf.Page(id: 2)])

  @Test func aRowsActionRunsOnThatRowAndItsEffectsCarryItsID() {
    var state = Self.twoPages
    let effects = Shelf().reduce(
      into: &state, action: .pages(.row(2, .emit([.echo("e"), .request("r")]))))
    #expect(effects == [.pages(.row(2, .echo("e"))), .pages(.row(2, .request("r")))])
    _ = Shelf().reduce(into: &state, action: .pages(.row(2, .append("x"))))
    #expect(state.pages[id: 2]?.journal.entries == ["x"])
    #expect(state.pages[id: 1]?.journal.entries == [])
  }

  @Test func aRowsEffectsRunInTheRowsOwnNamespace() {
    let request = Shelf.Effect.pages(.row(1, .request("r")))
    #expect(
      request.cancellation
        == EffectCancellation(
          .group("request", cancelInFlight: true), namespace: ["pages", "[id: 1]"]))
    let dismissal = ChildDismissal(child: "pages", row: 1)
    #expect(
      dismissal.cancellation
        == EffectCancellation(.cancelsNamespace, namespace: ["pages", "[id: 1]"]))
    #expect(
      Shelf.pages.embeddingProblems(
        actions: [.row(1, .append("a"))], effects: [.row(1, .request("r")), .row(2, .held("h"))]
      ) == [])
  }

  @Test func removingRowsDismissesEachInTheOrderTheyHad() {
    var state = Shelf.State(pages: [Shelf.Page(id: 3), Shelf.Page(id: 1), Shelf.Page(id: 2)])
    #expect(
      Shelf().reduce(into: &state, action: .remove(1)) == [
        .childDismissed(.init(child: "pages", row: 1))
      ])
    #expect(
      Shelf().reduce(into: &state, action: .clear) == [
        .childDismissed(.init(child: "pages", row: 3)),
        .childDismissed(.init(child: "pages", row: 2)),
      ])
    // Adding, editing and sending to a row dismiss nothing.
    #expect(Shelf().reduce(into: &state, action: .add(4)) == [])
    #expect(Shelf().reduce(into: &state, action: .pages(.row(4, .append("a")))) == [])
  }

  @Test func aRowsDismissalReadsWithItsAddress() {
    #expect(
      ChildDismissal(child: "pages", row: 1).description == #"ChildDismissal("pages[id: 1]")"#)
    #expect(ChildDismissal(child: "home").description == #"ChildDismissal("home")"#)
    #expect(
      Dump.renderOneLine(Shelf.Effect.pages(.row(2, .held("h"))))
        == #"Shelf.Effect.pages[id: 2](Journal.Effect.held("h"))"#)
  }

  @Test func anActionForAMissingRowIsReportedAndIgnored() {
    let warnings = WarningLog()
    var state = Self.twoPages
    let effects = RuntimeWarning.$reporter.withValue(warnings.reporter) {
      Shelf().reduce(into: &state, action: .pages(.row(9, .append("x"))))
    }
    #expect(effects == [])
    #expect(state == Self.twoPages)
    #expect(
      warnings.messages == [
        #"Shelf.Action.pages[id: 9](Journal.Action.append("x")) was sent to the row [id: 9] of "#
          + "'pages', which is not there; the action was ignored."
      ])
  }

  @Test func removingARowCancelsItsEffectsAndNoOtherRows() async {
    let probe = Probe()
    let store = Store(
      initialState: Self.twoPages, reducer: Shelf(),
      handler: JournalHandler(probe: probe).lifted(into: Shelf.pages))
    // The same group in two rows: one row's request never cancels the other's.
    let first = store.send(.pages(.row(1, .emit([.request("one")]))))
    let task = store.send(.pages(.row(2, .emit([.request("two")]))))
    await probe.waitUntilStarted("one")
    await probe.waitUntilStarted("two")
    #expect(probe.cancelled == [])

    store.send(.remove(1))
    await first.finishOrFail()
    #expect(probe.cancelled == ["one"])

    // Row 2's effect still runs, and its answer goes back to row 2.
    probe.release("two")
    await task.finishOrFail()
    #expect(
      store.state.pages.array == [Shelf.Page(id: 2, journal: .init(entries: ["answered two"]))])
  }

  // MARK: - Row handles

  @Test func aRowsHandleIsToldOnlyWhenItsRowChanges() {
    let store = Store(initialState: Self.twoPages, reducer: Shelf())
    let rows = store.scope(rows: Shelf.pages)
    #expect(rows.ids == [1, 2])
    var seen: [Int: [[String]]] = [:]
    let subscriptions = rows.map { row in
      row.store.observe { seen[row.id, default: []].append($0.journal.entries) }
    }
    rows[id: 2]?.send(.append("b"))
    store.send(.pages(.row(1, .append("a"))))
    store.send(.add(3))
    #expect(seen == [2: [["b"]], 1: [["a"]]])
    #expect(rows[id: 1]?.state.journal.entries == ["a"])
    _ = subscriptions
  }

  @Test func inALongListOnlyTheChangedRowsHandleIsTold() {
    var pages = IdentifiedList<Shelf.Page>()
    for id in 0..<5_000 { pages.append(Shelf.Page(id: id)) }
    let store = Store(initialState: Shelf.State(pages: pages), reducer: Shelf())
    let rows = store.scope(rows: Shelf.pages)
    var told: [Int] = []
    let subscriptions = [10, 4_095, 4_500].compactMap { id in
      rows[id: id]?.observe { _ in told.append(id) }
    }
    store.send(.pages(.row(4_500, .append("a"))))
    store.send(.pages(.row(4_501, .append("b"))))
    store.send(.pages(.row(10, .append("c"))))
    #expect(told == [4_500, 10])
    #expect(rows[id: 4_501]?.state.journal.entries == ["b"])
    _ = subscriptions
  }

  @Test func theListIsToldWhenRowsComeGoOrMoveNotWhenOneChanges() {
    let store = Store(initialState: Self.twoPages, reducer: Shelf())
    let rows = store.scope(rows: Shelf.pages)
    let first = rows[id: 1]

    #expect(!changes(of: rows) { store.send(.pages(.row(1, .append("a")))) })
    #expect(changes(of: rows) { store.send(.add(3)) })
    #expect(rows.ids == [1, 2, 3])
    #expect(rows.map(\.id) == [1, 2, 3])
    #expect(changes(of: rows) { store.send(.remove(2)) })
    #expect(rows.ids == [1, 3])
    // A row keeps its handle for as long as it is in the list.
    #expect(rows[id: 1] === first)
    #expect(rows[id: 2] == nil)
  }

  @Test func aRemovedRowsHandleKeepsItsLastStateAndWarnsOnSend() {
    let store = Store(initialState: Self.twoPages, reducer: Shelf())
    let rows = store.scope(rows: Shelf.pages)
    guard let second = rows[id: 2] else {
      Issue.record("no handle for row 2")
      return
    }
    second.send(.append("kept"))
    store.send(.remove(2))
    #expect(second.state.journal.entries == ["kept"])
    let warnings = WarningLog()
    RuntimeWarning.$reporter.withValue(warnings.reporter) { _ = second.send(.append("lost")) }
    #expect(warnings.messages.count == 1)
    #expect(warnings.messages.first?.contains("which is not there") == true)
    #expect(store.state.pages.ids == [1])
  }

  /// Whether `body` makes Observation tell a reader of the list's rows (their ids).
  func changes(of rows: ScopedRows<Int, Shelf.Page, Journal.Action>, _ body: () -> Void) -> Bool {
    let told = Guarded(false)
    withObservationTracking {
      _ = rows.ids
    } onChange: {
      told.withLock { $0 = true }
    }
    body()
    return told.withLock { $0 }
  }
}
