import Observation

/// Handles on the rows of a list of child features, one per row, for a view that shows the
/// list: see `forEach(_:row:)`.
///
/// It is a collection of ``ScopedRow`` values in the list's order; each carries the row's
/// id and a ``ScopedStore`` on that row. A row's handle publishes a change only when its own
/// row changed, and the collection publishes only when rows are added, removed or moved: a
/// SwiftUI list re-renders the row that changed, not the list.
///
/// <!-- swift-block: skip -->
/// ```swift
/// // SwiftUI (Apple platforms)
/// struct TodosView: View {
///   let rows: ScopedRows<Todo.ID, Todo, TodoAction>
///
///   var body: some View {
///     List(rows) { row in TodoRowView(store: row.store) }
///   }
/// }
///
/// TodosView(rows: store.scope(rows: TodosReducer.todos))
/// ```
///
/// A row's handle is the same object for as long as the row is in the list. Once the row is
/// removed, its handle keeps the row's last state, and an action sent to it is reported as a
/// ``RuntimeWarning`` and ignored, as any action for a row that is not there.
@MainActor
public final class ScopedRows<
  ID: Hashable & Sendable, Row: Identifiable & Equatable & Sendable, Action: Sendable
>:
  Observable
where Row.ID == ID {
  @usableFromInline var handles: [ID: ScopedStore<Row, Action>] = [:]
  private var order: [ScopedRow<ID, Row, Action>] = []
  /// The list as the handles last saw it: a new list is compared with it, leaf by leaf.
  @usableFromInline var current: IdentifiedList<Row>
  /// The new list, when its rows were added, removed or moved.
  @usableFromInline var staged: IdentifiedList<Row>?
  @usableFromInline var changedRows: [ScopedStore<Row, Action>] = []
  private let registrar = ObservationRegistrar()
  private let sendToParent: @MainActor (RowAction<ID, Action>) -> StoreTask
  private var parentSubscription: StoreSubscription?

  @usableFromInline init(
    initial: IdentifiedList<Row>,
    send: @escaping @MainActor (RowAction<ID, Action>) -> StoreTask,
    subscribe: (ScopedRows) -> StoreSubscription
  ) {
    current = initial
    sendToParent = send
    rebuild(initial)
    parentSubscription = subscribe(self)
  }

  /// The ids of the rows, in order. Reading it inside SwiftUI's body registers a dependency on
  /// the list's rows being added, removed or moved, not on their contents.
  public var ids: [ID] {
    access()
    return order.map(\.id)
  }

  /// The handle on the row with `id`, or `nil` when no row has it.
  ///
  /// - Parameter id: A row's id.
  public subscript(id id: ID) -> ScopedStore<Row, Action>? {
    access()
    return handles[id]
  }

  /// Takes the parent's new list: stages the rows that changed, and the list itself when its
  /// rows were added, removed or moved.
  ///
  /// With the same rows in the same places, only the leaves the new list does not share with
  /// the last one are compared, and only their rows' handles are asked: one changed row of
  /// 100,000 checks each leaf's identity and compares the rows of one leaf, however many
  /// handles there are.
  @inlinable func stage(_ list: IdentifiedList<Row>) -> Bool {
    let changedRows: [ScopedStore<Row, Action>]
    if let positions = list.changedPositions(from: current) {
      if positions.isEmpty { return false }
      changedRows = positions.compactMap { position in
        let row = list[position]
        guard let handle = handles[row.id], handle.stage(row) else { return nil }
        return handle
      }
    } else {
      staged = list
      changedRows = handles.compactMap { id, handle in
        guard let row = list[id: id], handle.stage(row) else { return nil }
        return handle
      }
    }
    current = list
    self.changedRows += changedRows
    return staged != nil || !self.changedRows.isEmpty
  }

  /// Publishes what ``stage(_:)`` found: the changed rows' handles, then the list.
  @usableFromInline func publish() {
    let rows = changedRows
    changedRows = []
    for handle in rows { handle.publish() }
    guard let list = staged.take() else { return }
    registrar.willSet(self, keyPath: \.order)
    rebuild(list)
    registrar.didSet(self, keyPath: \.order)
  }

  /// Makes the handles of `list`'s rows: the same object for a row that was there, a new one
  /// for a new row.
  private func rebuild(_ list: IdentifiedList<Row>) {
    var next: [ID: ScopedStore<Row, Action>] = [:]
    next.reserveCapacity(list.count)
    order = list.map { row in
      let handle = handles[row.id] ?? makeHandle(row)
      next[row.id] = handle
      return ScopedRow(id: row.id, store: handle)
    }
    handles = next
  }

  private func makeHandle(_ row: Row) -> ScopedStore<Row, Action> {
    let id = row.id
    let send = sendToParent
    return ScopedStore(
      initial: ScopedStore<Row, Action>.Snapshot(row), isSame: { $0 == $1 },
      send: { action in send(RowAction(id: id, action: action)) },
      subscribe: { _ in StoreSubscription {} })
  }

  private func access() {
    registrar.access(self, keyPath: \.order)
  }
}

extension ScopedRows: @MainActor RandomAccessCollection {
  /// The position of the first row.
  public var startIndex: Int { 0 }
  /// One past the position of the last row.
  public var endIndex: Int {
    access()
    return order.count
  }

  /// The row at `position`: its id and its handle.
  ///
  /// - Parameter position: A position from 0 to `count - 1`.
  public subscript(position: Int) -> ScopedRow<ID, Row, Action> {
    access()
    return order[position]
  }
}

/// One row of ``ScopedRows``: the row's id and a handle on the row.
public struct ScopedRow<ID: Hashable & Sendable, Row: Equatable & Sendable, Action: Sendable>:
  Identifiable
{
  /// The row's id.
  public let id: ID
  /// The handle on the row: its state, and a way to send the row's actions.
  public let store: ScopedStore<Row, Action>
}

extension Store {
  /// Handles on the rows of the list that `feature` declares, one per row, for the view that
  /// shows the list: see ``ScopedRows``.
  ///
  /// ```swift
  /// let rows = store.scope(rows: TodosReducer.todos)
  /// rows.first?.store.send(.checkBoxToggled)
  /// ```
  ///
  /// - Parameter feature: Where the list sits in this store's feature.
  /// - Returns: The rows' handles.
  @inlinable
  public func scope<Row: Identifiable & Equatable & Sendable, RowAction: Sendable, RowEffect>(
    rows feature: ChildFeature<
      R.State, R.Action, R.Effect, IdentifiedList<Row>, StateStore.RowAction<Row.ID, RowAction>,
      RowEffect
    >
  ) -> ScopedRows<Row.ID, Row, RowAction> where Row.ID: Sendable {
    let path = feature.state
    let embed = feature.action.embed
    return ScopedRows(
      initial: currentState[keyPath: path],
      send: { [self] action in self.send(embed(action)) },
      subscribe: { rows in
        self.observeSlice(
          stage: { [weak rows] (state: inout R.State) in
            rows?.stage(state[keyPath: path]) ?? false
          },
          publish: { [weak rows] in rows?.publish() })
      })
  }
}
