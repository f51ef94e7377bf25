/// A way into one case of an enum: embeds a value as that case, and extracts it back.
///
/// A parent feature embeds its children's actions and effects in cases of its own enums
/// (`AppAction.login(LoginAction)`). A ``ChildFeature`` needs to go both ways for each: from the
/// child's value to the parent's case, and from a parent value back to the child's value when
/// it is that case. A `CaseKey` is those two closures, written where the child is declared:
///
/// ```swift
/// let login = CaseKey(embed: AppAction.login) {
///   if case .login(let action) = $0 { action } else { nil }
/// }
///
/// login.embed(.loginButtonTapped)     // .login(.loginButtonTapped)
/// login.extract(.home(.appeared))     // nil
/// ```
///
/// The two closures must agree: `extract(embed(value))` is `value` for every value. The
/// package has no macros, so the extract closure is written by hand;
/// ``ChildFeature/embeddingProblems(actions:effects:)`` checks it in a test.
public struct CaseKey<Root, Value>: Sendable, Hashable {
  /// Wraps a child value in the parent's case.
  public let embed: @Sendable (Value) -> Root
  /// Unwraps the child value when `root` is the case, or returns `nil`.
  public let extract: @Sendable (Root) -> Value?
  /// Who this key is: two keys are equal when one was copied from the other, so a key can
  /// be a key-path subscript argument (see ``CaseAccessible``).
  private let identity = Identity()

  /// Creates a key from the case's constructor and a pattern match.
  ///
  /// - Parameters:
  ///   - embed: The case's constructor, e.g. `AppAction.login`.
  ///   - extract: Returns the payload when its argument is the case, else `nil`.
  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }

  /// Whether both are the same key (one was copied from the other).
  public static func == (lhs: CaseKey, rhs: CaseKey) -> Bool {
    lhs.identity === rhs.identity
  }

  /// Hashes the key's identity.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(identity))
  }

  private final class Identity: Sendable {}
}

/// An enum whose cases can be reached through a key path: `\Parent.screen[case: key]` is the
/// payload of one case, `nil` while the enum is in another.
///
/// It is how a child feature lives in one case of an enum state — one screen of several:
///
/// ```swift
/// enum Screen: Equatable, Sendable, CaseAccessible {
///   case list(ListState)
///   case detail(DetailState)
///
///   static let detail = CaseKey(embed: Screen.detail) {
///     if case .detail(let state) = $0 { state } else { nil }
///   }
/// }
///
/// static let detail = ChildFeature(
///   "detail", state: \AppState.screen[case: Screen.detail], action: …, effect: …)
/// // ifLet(AppReducer.detail) runs the detail feature while the screen is `.detail`, and
/// // ends its effects when the screen changes.
/// ```
///
/// Setting the payload writes the case back; setting `nil` leaves the enum as it is (a child
/// never removes itself from an enum: its parent changes the case).
public protocol CaseAccessible {}

extension CaseAccessible {
  /// The payload of the case `key` reaches: `nil` while the enum is in another case.
  ///
  /// - Parameter key: The case.
  public subscript<Value>(case key: CaseKey<Self, Value>) -> Value? {
    get { key.extract(self) }
    set {
      if let newValue { self = key.embed(newValue) }
    }
  }
}
