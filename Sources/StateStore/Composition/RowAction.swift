/// An action of one row of a list of child features: the row's id and the row's own action.
///
/// A parent carries its rows' actions in one case of its action enum; `forEach(_:row:)` runs
/// the action on the row with that id.
///
/// ```swift
/// enum TodosAction: Equatable, Sendable {
///   case todos(RowAction<Todo.ID, TodoAction>)
///   case addButtonTapped
/// }
///
/// store.send(.todos(.row(id, .checkBoxToggled)))
/// ```
///
/// ``Dump``, test failures, action logs, `replay` and the timeline show it where it sits, as
/// `TodosAction.todos[id: 3](TodoAction.checkBoxToggled)`. It encodes as
/// `{"id":…,"action":…}`.
public struct RowAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// The id of the row the action is for.
  public var id: ID
  /// The row's action.
  public var action: Action

  /// The action `action` of the row with id `id`.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - action: The row's action.
  public init(id: ID, action: Action) {
    self.id = id
    self.action = action
  }

  /// The action `action` of the row with id `id`: `.todos(.row(id, .checkBoxToggled))`.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - action: The row's action.
  /// - Returns: The row action.
  public static func row(_ id: ID, _ action: Action) -> RowAction {
    RowAction(id: id, action: action)
  }
}

extension RowAction: Equatable where Action: Equatable {}
extension RowAction: Hashable where Action: Hashable {}
extension RowAction: Encodable where ID: Encodable, Action: Encodable {}
extension RowAction: Decodable where ID: Decodable, Action: Decodable {}

/// An effect of one row of a list of child features: the row's id and the row's own effect.
///
/// `forEach(_:row:)` wraps every effect a row returns in one, and the row's handler, lifted
/// into the parent with `lifted(into:)`, carries it out with the row's handler and sends the row's actions back to that row.
///
/// Its ``cancellation`` is the row effect's own, in the row's namespace: two rows never cancel
/// each other's work, and removing a row ends everything it started.
public struct RowEffect<ID: Hashable & Sendable, Effect: StoreEffect>: StoreEffect {
  /// The id of the row that returned the effect.
  public var id: ID
  /// The row's effect.
  public var effect: Effect

  /// The effect `effect` of the row with id `id`.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - effect: The row's effect.
  public init(id: ID, effect: Effect) {
    self.id = id
    self.effect = effect
  }

  /// The effect `effect` of the row with id `id`: `.todos(.row(id, .save))`.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - effect: The row's effect.
  /// - Returns: The row effect.
  public static func row(_ id: ID, _ effect: Effect) -> RowEffect {
    RowEffect(id: id, effect: effect)
  }

  /// The row effect's cancellation, within the row's namespace.
  public var cancellation: EffectCancellation {
    effect.cancellation.within(RowNamespace.name(of: id))
  }
}

extension RowEffect: Equatable where Effect: Equatable {}
extension RowEffect: Hashable where Effect: Hashable {}
extension RowEffect: Encodable where ID: Encodable, Effect: Encodable {}
extension RowEffect: Decodable where ID: Decodable, Effect: Decodable {}

/// How a row's id names the row's namespace of effects.
enum RowNamespace {
  /// `[id: 3]`: the id as ``Dump`` renders it, in brackets.
  static func name(of id: some Hashable & Sendable) -> String {
    "[id: \(Dump.renderOneLine(id, limit: nil))]"
  }
}

/// A value that belongs to one row of a list: ``Dump`` renders it after the case that carries
/// it, as `Parent.case[id: 3](payload)`.
protocol RowAddressed {
  /// The row's id.
  var rowID: Any { get }
  /// The row's own value.
  var rowPayload: Any { get }
}

extension RowAction: RowAddressed {
  var rowID: Any { id }
  var rowPayload: Any { action }
}

extension RowEffect: RowAddressed {
  var rowID: Any { id }
  var rowPayload: Any { effect }
}
