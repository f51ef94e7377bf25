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
public struct CaseKey<Root, Value>: Sendable {
  /// Wraps a child value in the parent's case.
  public let embed: @Sendable (Value) -> Root
  /// Unwraps the child value when `root` is the case, or returns `nil`.
  public let extract: @Sendable (Root) -> Value?

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
}
