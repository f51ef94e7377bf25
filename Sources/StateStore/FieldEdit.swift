/// A value a form field holds, that a ``FieldEdit`` can carry: `String`, `Bool`, `Int`, `Double`,
/// ``Secret``, ``PersonalData``, an optional of one of them, or a type of your own that is
/// `Codable`, `Hashable` and `Sendable`.
///
/// The edit encodes the value with its own `Codable`, so a secret is written as its mask and
/// personal data as its mask when personal data is masked: a field edit needs no redaction code.
public protocol FieldValue: Codable, Hashable, Sendable {}

extension String: FieldValue {}
extension Bool: FieldValue {}
extension Int: FieldValue {}
extension Double: FieldValue {}
extension Secret: FieldValue {}
extension PersonalData: FieldValue {}
extension Optional: FieldValue where Wrapped: FieldValue {}

/// A state with form fields that one action edits: the fields are declared once, by name and
/// key path, and ``FieldEdit`` sets any of them.
///
/// ```swift
/// extension SignUpState: EditableFields {
///   static let fields: [EditableField<SignUpState>] = [
///     EditableField("email", \.email),
///     EditableField("password", \.password),
///   ]
/// }
/// ```
///
/// The name is what an action log records, so keep it stable once logs exist; the key path
/// is what the edit writes. Names and key paths are unique within a state: where one is declared
/// twice, the first declaration wins.
public protocol EditableFields: Sendable {
  /// Every field a ``FieldEdit`` may set, each with its name in logs.
  static var fields: [EditableField<Self>] { get }
}

/// One field of an ``EditableFields`` state: its name in logs and where its value lives.
public struct EditableField<Root>: Sendable {
  /// The field's name, as an action log records it.
  public let name: String
  @usableFromInline let keyPath: AnyKeyPath & Sendable
  @usableFromInline let read: @Sendable (Root) -> any FieldValue
  @usableFromInline let decode:
    @Sendable (KeyedDecodingContainer<FieldEditKey>) throws -> (
      any FieldValue, @Sendable (inout Root) -> Void
    )

  /// Declares a field.
  ///
  /// - Parameters:
  ///   - name: Its name in logs, unique within the state.
  ///   - keyPath: Where its value lives in the state.
  @inlinable
  public init<Value: FieldValue>(
    _ name: String, _ keyPath: WritableKeyPath<Root, Value> & Sendable
  ) {
    self.name = name
    self.keyPath = keyPath
    let path = StatePath(keyPath)
    read = { path.value(in: $0) }
    decode = { container in
      let value = try container.decode(Value.self, forKey: .value)
      return (value, { path.modify(&$0) { $0 = value } })
    }
  }
}

/// An edit of one form field: the one action a form needs for all its fields, instead of a case
/// and a `switch` branch per field.
///
/// It is data: `Equatable`, `Codable` — a log records `{"field":"username","value":"ada"}` — and
/// masked like its value (a ``Secret`` always, ``PersonalData`` when personal data is masked).
/// A feature gives it one case and applies it in one line:
///
/// ```swift
/// enum SignUpAction: Equatable, Codable, Sendable {
///   case edit(FieldEdit<SignUpState>)
///   case submitTapped
/// }
///
/// // in the reducer
/// case .edit(let edit):
///   edit.apply(to: &state)
///
/// // in a view or a test
/// store.send(.edit(.set(\.email, to: "ada@example.com")))
/// ```
///
/// A field that is not declared in ``EditableFields/fields`` is a programming error: ``set(_:to:)``
/// reports a ``RuntimeWarning`` (a failure inside a `TestStore`) and the edit changes nothing;
/// encoding it throws, naming the key path, so a recorder stops before it rather than write a
/// line its reader refuses. A log naming an unknown field, or holding a value of the wrong type,
/// does not decode.
public struct FieldEdit<Root: EditableFields>: Sendable, Hashable {
  /// The edited field's name (see ``EditableField/name``).
  public var field: String { storage.field }
  /// The new value.
  public var value: any FieldValue { storage.value }
  /// Writes `value` into its field: made once, when the edit is made or decoded, so applying it
  /// looks nothing up and casts nothing (a keystroke is an edit).
  @inlinable var assign: (@Sendable (inout Root) -> Void)? { storage.assign }

  /// The edit's parts in one shared, immutable box: an action that carries an edit copies one
  /// reference instead of a string, an existential and a closure — and every optional child's
  /// scope looks at (and copies) each action its parent reduces.
  @usableFromInline let storage: Storage

  @usableFromInline
  init(
    field: String, value: any FieldValue, assign: (@Sendable (inout Root) -> Void)?,
    undeclared: String? = nil
  ) {
    storage = Storage(field: field, value: value, assign: assign, undeclared: undeclared)
  }

  /// What ``FieldEdit`` holds; never changed once made.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let field: String
    @usableFromInline let value: any FieldValue
    @usableFromInline let assign: (@Sendable (inout Root) -> Void)?
    /// For an edit of a field `Root` does not declare: what is wrong, naming the key path.
    @usableFromInline let undeclared: String?

    @usableFromInline
    init(
      field: String, value: any FieldValue, assign: (@Sendable (inout Root) -> Void)?,
      undeclared: String?
    ) {
      self.field = field
      self.value = value
      self.assign = assign
      self.undeclared = undeclared
    }
  }

  /// An edit that sets the field at `keyPath` to `value`.
  ///
  /// - Parameters:
  ///   - keyPath: A field declared in `Root.fields`.
  ///   - value: The new value.
  /// - Returns: The edit.
  @inlinable
  public static func set<Value: FieldValue>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable, to value: Value
  ) -> FieldEdit {
    guard let field = Root.fields.first(where: { $0.keyPath == keyPath as AnyKeyPath }) else {
      let problem = "the key path \(keyPath) is not one of \(Root.self).fields"
      RuntimeWarning.report(
        "FieldEdit<\(Root.self)>: \(problem); declare it there (the edit changes nothing)")
      return FieldEdit(field: "", value: value, assign: nil, undeclared: problem)
    }
    let path = StatePath(keyPath)
    return FieldEdit(field: field.name, value: value, assign: { path.modify(&$0) { $0 = value } })
  }

  /// Writes the value into its field of `state`.
  ///
  /// - Parameter state: The state to edit.
  /// - Returns: Whether a field was written: `false` for an edit of an undeclared field.
  @inlinable @discardableResult
  public func apply(to state: inout Root) -> Bool {
    guard let assign else { return false }
    assign(&state)
    return true
  }

  /// Whether the edit would leave `state` as it is: the field already holds the value.
  ///
  /// - Parameter state: The state to compare with.
  /// - Returns: `true` when the field holds an equal value (or is not declared).
  public func changesNothing(in state: Root) -> Bool {
    guard let entry = Root.fields.first(where: { $0.name == field }) else { return true }
    return AnyHashable(entry.read(state)) == AnyHashable(value)
  }

  /// Compares the field and the value.
  public static func == (lhs: FieldEdit, rhs: FieldEdit) -> Bool {
    lhs.field == rhs.field && AnyHashable(lhs.value) == AnyHashable(rhs.value)
  }

  /// Hashes the field and the value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(field)
    hasher.combine(AnyHashable(value))
  }
}

/// The keys of a ``FieldEdit``'s JSON.
@usableFromInline
enum FieldEditKey: String, CodingKey {
  case field
  case value
}

extension FieldEdit: Codable {
  /// Decodes `{"field": name, "value": …}`, reading the value as the named field's type.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` for a field `Root` does not declare, or a value of another type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: FieldEditKey.self)
    let name = try container.decode(String.self, forKey: .field)
    guard let entry = Root.fields.first(where: { $0.name == name }) else {
      throw DecodingError.dataCorruptedError(
        forKey: .field, in: container,
        debugDescription: "\(Root.self) has no editable field '\(name)'")
    }
    let (value, assign) = try entry.decode(container)
    self.init(field: name, value: value, assign: assign)
  }

  /// Encodes `{"field": name, "value": …}`, the value with its own `Codable` (masked as it
  /// masks itself).
  ///
  /// An edit of a field `Root` does not declare has no name a reader could decode: it throws
  /// instead of writing one, so a log never holds a line its own reader refuses (a recorder
  /// stops there and reports why, naming the key path).
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: `EncodingError.invalidValue` for an edit of an undeclared field; whatever the
  ///   encoder throws.
  public func encode(to encoder: any Encoder) throws {
    if let undeclared = storage.undeclared {
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath,
          debugDescription: "an edit of an undeclared field cannot be recorded: \(undeclared)"))
    }
    var container = encoder.container(keyedBy: FieldEditKey.self)
    try container.encode(field, forKey: .field)
    try container.encode(value, forKey: .value)
  }
}

extension FieldEdit: CustomStringConvertible, CustomDumpStringConvertible {
  /// `set(username: "ada")`, the value rendered as ``Dump`` renders it (a secret as its mask).
  public var description: String { "set(\(field): \(Dump.renderOneLine(value, limit: nil)))" }

  /// The same as ``description``.
  public var customDumpDescription: String { description }
}
