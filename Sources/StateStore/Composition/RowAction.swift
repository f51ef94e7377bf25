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
///
/// It is an enum of one case, so a parent matches a row's action with a pattern, the id and
/// the action's own case included:
///
/// ```swift
/// case .todos(.row(let id, .checkBoxToggled)): …
/// case .todos(.row(_, .edit(\.isComplete))): …   // a row's field edit, by key path
/// ```
public enum RowAction<ID: Hashable & Sendable, Action: Sendable>: Sendable {
  /// The action `action` of the row with id `id`: `.todos(.row(id, .checkBoxToggled))`.
  case row(ID, Action)

  /// The action `action` of the row with id `id`.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - action: The row's action.
  public init(id: ID, action: Action) {
    self = .row(id, action)
  }

  /// The id of the row the action is for.
  public var id: ID {
    get {
      switch self {
      case .row(let id, _): id
      }
    }
    set {
      switch self {
      case .row(_, let action): self = .row(newValue, action)
      }
    }
  }

  /// The row's action.
  public var action: Action {
    get {
      switch self {
      case .row(_, let action): action
      }
    }
    set {
      switch self {
      case .row(let id, _): self = .row(id, newValue)
      }
    }
  }
}

extension RowAction: Equatable where Action: Equatable {}
extension RowAction: Hashable where Action: Hashable {}

/// The keys of a ``RowAction``'s and a ``RowEffect``'s JSON: `{"id":…,"action":…}` and
/// `{"id":…,"effect":…}`, as when they were structs (logs recorded then still read).
enum RowCodingKeys: String, CodingKey {
  case id
  case action
  case effect
}

extension RowAction: Encodable where ID: Encodable, Action: Encodable {
  /// Encodes `{"id":…,"action":…}`.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever encoding the id or the action throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: RowCodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(action, forKey: .action)
  }
}

extension RowAction: Decodable where ID: Decodable, Action: Decodable {
  /// Decodes `{"id":…,"action":…}`.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a key is missing or a value does not decode.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: RowCodingKeys.self)
    self = .row(
      try container.decode(ID.self, forKey: .id), try container.decode(Action.self, forKey: .action)
    )
  }
}

/// An effect of one row of a list of child features: the row's id and the row's own effect.
///
/// `forEach(_:row:)` wraps every effect a row returns in one, and the row's handler, lifted
/// into the parent with `lifted(into:)`, carries it out with the row's handler and sends the row's actions back to that row.
///
/// Its ``cancellation`` is the row effect's own, in the row's namespace: two rows never cancel
/// each other's work, and removing a row ends everything it started.
///
/// Like ``RowAction``, it is an enum of one case, so a handler matches it with a pattern:
/// `case .todos(.row(let id, .save)): …`.
public enum RowEffect<ID: Hashable & Sendable, Effect: StoreEffect>: StoreEffect {
  /// The effect `effect` of the row with id `id`: `.todos(.row(id, .save))`.
  case row(ID, Effect)

  /// The effect `effect` of the row with id `id`.
  ///
  /// - Parameters:
  ///   - id: The row's id.
  ///   - effect: The row's effect.
  public init(id: ID, effect: Effect) {
    self = .row(id, effect)
  }

  /// The id of the row that returned the effect.
  public var id: ID {
    get {
      switch self {
      case .row(let id, _): id
      }
    }
    set {
      switch self {
      case .row(_, let effect): self = .row(newValue, effect)
      }
    }
  }

  /// The row's effect.
  public var effect: Effect {
    get {
      switch self {
      case .row(_, let effect): effect
      }
    }
    set {
      switch self {
      case .row(let id, _): self = .row(id, newValue)
      }
    }
  }

  /// The row effect's cancellation, within the row's namespace.
  public var cancellation: EffectCancellation {
    effect.cancellation.within(RowNamespace.name(of: id))
  }
}

extension RowEffect: Equatable where Effect: Equatable {}
extension RowEffect: Hashable where Effect: Hashable {}

extension RowEffect: Encodable where ID: Encodable, Effect: Encodable {
  /// Encodes `{"id":…,"effect":…}`.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever encoding the id or the effect throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: RowCodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(effect, forKey: .effect)
  }
}

extension RowEffect: Decodable where ID: Decodable, Effect: Decodable {
  /// Decodes `{"id":…,"effect":…}`.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when a key is missing or a value does not decode.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: RowCodingKeys.self)
    self = .row(
      try container.decode(ID.self, forKey: .id), try container.decode(Effect.self, forKey: .effect)
    )
  }
}

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
