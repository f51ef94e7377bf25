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
/// twice, the first declaration wins. Swift compares key paths to stored properties by where
/// they sit, so two fields of an empty type (a type with no stored properties) are one field.
public protocol EditableFields: Sendable {
  /// Every field a ``FieldEdit`` may set, each with its name in logs.
  static var fields: [EditableField<Self>] { get }
}

/// One field of an ``EditableFields`` state: its name in logs and where its value lives.
public struct EditableField<Root>: Sendable {
  /// The field's name, as an action log records it.
  public let name: String
  @usableFromInline let keyPath: AnyKeyPath & Sendable
  /// Where the field sits in `Root`, for a stored property: with ``valueType`` it tells key
  /// paths to the same field apart from others without comparing their components. Only an
  /// identity; nothing is read or written through it.
  @usableFromInline let offset: Int?
  @usableFromInline let valueType: ObjectIdentifier
  @usableFromInline let decode:
    @Sendable (String, KeyedDecodingContainer<FieldEditKey>) throws -> any EditStorage<Root>

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
    offset = FieldIdentity.offset(of: keyPath)
    valueType = ObjectIdentifier(Value.self)
    decode = { name, container in
      let value = try container.decode(Value.self, forKey: .value)
      return TypedEdit(field: name, value: value, keyPath: keyPath, undeclared: nil)
    }
  }
}

/// How a field edit finds its field's name among the declared ones.
@usableFromInline
enum FieldIdentity {
  /// The offset of a stored property reached through `keyPath`, when its value takes room:
  /// two such key paths with the same offset and value type name the same field (a struct
  /// cannot hold itself, and fields that take room do not overlap). `nil` otherwise: a
  /// computed property, a class in the way, or an empty value type; key paths are compared
  /// then.
  @inlinable
  static func offset<Root, Value>(of keyPath: WritableKeyPath<Root, Value>) -> Int? {
    guard MemoryLayout<Value>.size > 0 else { return nil }
    return MemoryLayout<Root>.offset(of: keyPath)
  }
}

/// What a ``FieldEdit`` holds: the field's name, the value as its own type, and the key path it
/// writes. Never changed once made.
@usableFromInline
protocol EditStorage<Root>: AnyObject, Sendable {
  associatedtype Root
  var field: String { get }
  var value: any FieldValue { get }
  /// For an edit of a field `Root` does not declare: what is wrong, naming the key path.
  var undeclared: String? { get }
  /// Writes the value; `false` when the field is not declared.
  func apply(to state: inout Root) -> Bool
  /// Whether the field of `state` already holds the value (`true` when it is not declared).
  func changesNothing(in state: Root) -> Bool
}

@usableFromInline
final class TypedEdit<Root, Value: FieldValue>: EditStorage {
  @usableFromInline let field: String
  @usableFromInline let typedValue: Value
  @usableFromInline let keyPath: (WritableKeyPath<Root, Value> & Sendable)?
  @usableFromInline let undeclared: String?

  @inlinable
  init(
    field: String, value: Value, keyPath: (WritableKeyPath<Root, Value> & Sendable)?,
    undeclared: String?
  ) {
    self.field = field
    self.typedValue = value
    self.keyPath = keyPath
    self.undeclared = undeclared
  }

  @usableFromInline var value: any FieldValue { typedValue }

  @inlinable
  func apply(to state: inout Root) -> Bool {
    guard let keyPath else { return false }
    state[keyPath: keyPath] = typedValue
    return true
  }

  @inlinable
  func changesNothing(in state: Root) -> Bool {
    guard let keyPath else { return true }
    return state[keyPath: keyPath] == typedValue
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
/// Match an edit by its field's key path, which the compiler checks — `edit.is(\.email)`, or
/// `case .edit(\.email):` in a `switch` — rather than by its ``field`` name.
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

  /// The edit's parts in one shared, immutable box, made once when the edit is made or
  /// decoded: an action that carries an edit copies one reference, and applying it looks
  /// nothing up and casts nothing (a keystroke is an edit).
  @usableFromInline let storage: any EditStorage<Root>

  @usableFromInline
  init(_ storage: any EditStorage<Root>) {
    self.storage = storage
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
    guard let name = fieldName(at: keyPath) else {
      let problem = "the key path \(keyPath) is not one of \(Root.self).fields"
      RuntimeWarning.report(
        "FieldEdit<\(Root.self)>: \(problem); declare it there (the edit changes nothing)")
      return FieldEdit(TypedEdit(field: "", value: value, keyPath: nil, undeclared: problem))
    }
    return FieldEdit(TypedEdit(field: name, value: value, keyPath: keyPath, undeclared: nil))
  }

  /// The name of the declared field `keyPath` reaches: found by offset and value type for a
  /// stored property, by comparing key paths otherwise. By index, so that no declaration (two
  /// closures, a key path and a name) is copied to be looked at.
  @inlinable
  static func fieldName<Value>(at keyPath: WritableKeyPath<Root, Value>) -> String? {
    let fields = Root.fields
    if let offset = FieldIdentity.offset(of: keyPath) {
      let type = ObjectIdentifier(Value.self)
      for index in fields.indices
      where fields[index].offset == offset && fields[index].valueType == type {
        return fields[index].name
      }
    }
    for index in fields.indices where fields[index].keyPath == keyPath as AnyKeyPath {
      return fields[index].name
    }
    return nil
  }

  /// Whether the edit sets the field at `keyPath`: the compiler checks the key path, where a
  /// comparison of ``field`` with a name would not be.
  ///
  /// ```swift
  /// case .edit(let edit) where edit.is(\.isComplete):
  ///   edit.apply(to: &state)
  ///   return [.sortCompletedTodos(after: .seconds(1))]
  /// ```
  ///
  /// A key path that is not one of `Root.fields` is a programming error (no edit ever sets
  /// it): a ``RuntimeWarning`` says so, and the answer is `false`.
  ///
  /// - Parameter keyPath: A field declared in `Root.fields`.
  /// - Returns: Whether this edit sets that field.
  @inlinable
  public func `is`<Value: FieldValue>(_ keyPath: WritableKeyPath<Root, Value> & Sendable) -> Bool {
    guard let name = Self.fieldName(at: keyPath) else {
      RuntimeWarning.report(
        "FieldEdit<\(Root.self)>.is(_:): the key path \(keyPath) is not one of "
          + "\(Root.self).fields, so no edit sets it; declare it there")
      return false
    }
    return storage.undeclared == nil && name == field
  }

  /// Matches an edit of the field at `keyPath` in a `switch`, as ``is(_:)`` does:
  ///
  /// ```swift
  /// switch action {
  /// case .edit(\.isComplete): …          // an edit of that field
  /// case .todos(.row(_, .edit(\.description))): …
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: A field declared in `Root.fields`.
  ///   - edit: The edit matched.
  /// - Returns: Whether `edit` sets that field.
  @inlinable
  public static func ~= <Value: FieldValue>(
    keyPath: WritableKeyPath<Root, Value> & Sendable, edit: FieldEdit
  ) -> Bool {
    edit.is(keyPath)
  }

  /// Writes the value into its field of `state`.
  ///
  /// - Parameter state: The state to edit.
  /// - Returns: Whether a field was written: `false` for an edit of an undeclared field.
  @inlinable @discardableResult
  public func apply(to state: inout Root) -> Bool {
    storage.apply(to: &state)
  }

  /// Whether the edit would leave `state` as it is: the field already holds the value.
  ///
  /// - Parameter state: The state to compare with.
  /// - Returns: `true` when the field holds an equal value (or is not declared).
  @inlinable
  public func changesNothing(in state: Root) -> Bool {
    storage.changesNothing(in: state)
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
    self.init(try entry.decode(name, container))
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

extension FieldEdit: CustomStringConvertible, DumpStringConvertible {
  /// `set(username: "ada")`, the value rendered as ``Dump`` renders it (a secret as its mask).
  public var description: String { "set(\(field): \(Dump.renderOneLine(value, limit: nil)))" }

  /// The same as ``description``.
  public var dumpDescription: String { description }
}
