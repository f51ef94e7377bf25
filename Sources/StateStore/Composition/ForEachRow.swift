extension Reducer where Effect: ComposedEffect {
  /// Runs a child feature on every row of a list in this feature's state, and ends a row's
  /// effects when the row is removed.
  ///
  /// The list is an ``IdentifiedList``; its rows' actions come in one case of this feature's
  /// actions as ``RowAction`` values, and their effects go out in one case of its effects as
  /// ``RowEffect`` values. One ``ChildFeature`` declares where all of that sits:
  ///
  /// ```swift
  /// static let todos = ChildFeature(
  ///   "todos", state: \TodosState.todos,
  ///   action: CaseKey(embed: TodosAction.todos) { if case .todos(let a) = $0 { a } else { nil } },
  ///   effect: CaseKey(embed: TodosEffect.todos) { if case .todos(let e) = $0 { e } else { nil } })
  ///
  /// let body = TodosCore().forEach(TodosReducer.todos) { TodoReducer() }
  /// ```
  ///
  /// For each action, in this order:
  ///
  /// 1. If the action is a row's: when a row with its id is there, the row reducer runs on it
  ///    in place and its effects are embedded, each as a ``RowEffect`` with the row's id;
  ///    when no row has the id, the action is ignored and a ``RuntimeWarning`` is reported.
  /// 2. This reducer runs, with every action (the rows' too, so it can react to them: sort the
  ///    list when a row is completed, remove a row that asked to be deleted).
  /// 3. For each row that was there before the action and is not after it, in the order the
  ///    rows had, `.childDismissed(ChildDismissal(child: feature.name, row: id))` is added to
  ///    the effects: the store cancels everything that row started.
  ///
  /// A row's effects run in the row's own namespace (``RowEffect/cancellation``), so two rows
  /// never cancel each other's work.
  ///
  /// - Parameters:
  ///   - feature: Where the list sits in this feature.
  ///   - row: The reducer of one row.
  /// - Returns: A reducer that runs both.
  public func forEach<Row: Reducer>(
    _ feature: ChildFeature<
      State, Action, Effect, IdentifiedList<Row.State>, RowAction<Row.State.ID, Row.Action>,
      RowEffect<Row.State.ID, Row.Effect>
    >,
    row: () -> Row
  ) -> ForEachRow<Self, Row> where Row.State: Identifiable, Row.State.ID: Sendable {
    ForEachRow(
      parent: self, row: row(), name: feature.name, rows: feature.state,
      extractAction: feature.action.extract,
      embed: { id, effects in
        feature.embed(effects.map { RowEffect(id: id, effect: $0) })
      },
      dismissal: { id in .childDismissed(ChildDismissal(child: feature.name, row: id)) })
  }
}

extension Reducer {
  /// Runs a child feature without effects on every row of a list in this feature's state: the
  /// same as the `forEach(_:row:)` of rows with effects, with nothing to end when a row is
  /// removed.
  ///
  /// ```swift
  /// static let todos = ChildFeature(
  ///   "todos", of: TodosCore.self, state: \.todos,
  ///   action: CaseKey(embed: TodosAction.todos) { if case .todos(let a) = $0 { a } else { nil } })
  /// ```
  ///
  /// - Parameters:
  ///   - feature: Where the list sits in this feature.
  ///   - row: The reducer of one row.
  /// - Returns: A reducer that runs both.
  public func forEach<Row: Reducer>(
    _ feature: ChildFeature<
      State, Action, Effect, IdentifiedList<Row.State>, RowAction<Row.State.ID, Row.Action>,
      Never
    >,
    row: () -> Row
  ) -> ForEachRow<Self, Row>
  where Row.State: Identifiable, Row.State.ID: Sendable, Row.Effect == Never {
    ForEachRow(
      parent: self, row: row(), name: feature.name, rows: feature.state,
      extractAction: feature.action.extract, embed: { _, _ in [] }, dismissal: nil)
  }
}

/// A feature with a list of child features: see `forEach(_:row:)`.
public struct ForEachRow<Parent: Reducer, Row: Reducer>: ReducerWithInputs
where Row.State: Identifiable, Row.State.ID: Sendable {
  @usableFromInline let parent: Parent
  @usableFromInline let row: Row
  @usableFromInline let name: String
  @usableFromInline let rows: WritableKeyPath<Parent.State, IdentifiedList<Row.State>> & Sendable
  @usableFromInline let extractAction:
    @Sendable (Parent.Action) -> RowAction<Row.State.ID, Row.Action>?
  /// The row's effects, embedded in the parent's.
  @usableFromInline let embed: @Sendable (Row.State.ID, [Row.Effect]) -> [Parent.Effect]
  /// The dismissal of a removed row; `nil` for rows without effects.
  @usableFromInline let dismissal: (@Sendable (Row.State.ID) -> Parent.Effect)?

  /// Runs the row (when the action is a row's and the row is there), then the parent, then
  /// adds a dismissal for each row that went away.
  ///
  /// - Parameters:
  ///   - state: The parent's state.
  ///   - action: Any parent action.
  ///   - inputs: The store's inputs, passed on to the row and the parent.
  /// - Returns: The row's embedded effects, then the parent's, then the dismissals.
  @inlinable
  public func reduce(
    into state: inout Parent.State, action: Parent.Action, inputs: inout ReducerInputs
  ) -> [Parent.Effect] {
    // Only the list's structure and its positions are kept from before: a row that changes
    // in place copies neither (the rows themselves are never kept).
    let before =
      dismissal == nil
      ? nil : (state[keyPath: rows].structure, state[keyPath: rows].positions)
    var effects: [Parent.Effect] = []
    if let rowAction = extractAction(action) {
      let id = rowAction.id
      let rowEffects = state[keyPath: rows].update(id: id) {
        row.reduce(into: &$0, action: rowAction.action, inputs: &inputs)
      }
      if let rowEffects {
        effects = rowEffects.isEmpty ? [] : embed(id, rowEffects)
      } else {
        reportMissingRow(id, action)
      }
    }
    let parentEffects = parent.reduce(into: &state, action: action, inputs: &inputs)
    if effects.isEmpty {
      effects = parentEffects
    } else {
      effects += parentEffects
    }
    if let dismissal, let before, state[keyPath: rows].structure !== before.0 {
      effects += dismissals(before: before.1, after: state[keyPath: rows].positions, dismissal)
    }
    return effects
  }
}

extension ForEachRow {
  @usableFromInline func reportMissingRow(_ id: Row.State.ID, _ action: Parent.Action) {
    RuntimeWarning.report(
      "\(Dump.renderOneLine(action)) was sent to the row \(RowNamespace.name(of: id)) of "
        + "'\(name)', which is not there; the action was ignored.",
      advice: "A row's actions must arrive while its row is in the list. Send them only for "
        + "ids the list holds, and let forEach's dismissal effect cancel a removed row's "
        + "effects.")
  }

  @usableFromInline func dismissals(
    before: [Row.State.ID: Int], after: [Row.State.ID: Int],
    _ dismissal: @Sendable (Row.State.ID) -> Parent.Effect
  ) -> [Parent.Effect] {
    let removed = before.filter { after[$0.key] == nil }.sorted { $0.value < $1.value }
    return removed.map { dismissal($0.key) }
  }
}

extension ForEachRow: Sendable where Parent: Sendable, Row: Sendable {}
