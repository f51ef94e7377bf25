/// Where a child feature sits in its parent, declared once.
///
/// A parent feature keeps a child's state in one of its properties and carries the child's
/// actions and effects in cases of its own enums. A `ChildFeature` says all of that in one
/// value, and every composition tool reads it:
///
/// - ``Scope`` and `ifLet(_:child:)` run the child's reducer and embed its effects;
/// - `EffectHandler.lifted(into:)` runs the child's handler inside the parent's;
/// - `Store.scope(_:)` and `ScopedStore.scope(_:)` give a view a handle on the child;
/// - ``cancellation(of:)`` puts the child's effects in the child's own namespace (its
///   ``name``), and ``dismissal`` ends them all when an optional child goes away.
///
/// ```swift
/// extension AppReducer {
///   static let login = ChildFeature(
///     "login", state: \AppState.login,
///     action: CaseKey(embed: AppAction.login) { if case .login(let a) = $0 { a } else { nil } },
///     effect: CaseKey(embed: AppEffect.login) { if case .login(let e) = $0 { e } else { nil } })
/// }
///
/// enum AppEffect: ComposedEffect {
///   case login(LoginEffect)
///   case childDismissed(ChildDismissal)
///   // No `cancellation`: the child's effects run in the namespace of their case, "login".
/// }
/// ```
///
/// The two closures of each ``CaseKey`` must agree, and the child's name must be the name of
/// the case that carries its effects (or the parent's `cancellation` must return
/// ``cancellation(of:)`` for that case). Debug builds check the second on every effect the
/// child returns (a ``RuntimeWarning`` names the child when it does not hold); a test checks
/// both with ``embeddingProblems(actions:effects:)``.
///
/// A `ChildFeature` is an immutable object, shared by every reducer and handle that reads it.
/// (Swift 6.3 copies a composed reducer's stored properties on every action it reduces; as a
/// struct of closures, key paths and a name, it made the app's reducer 848 bytes copied per
/// keystroke.)
public final class ChildFeature<
  ParentState, ParentAction: Sendable, ParentEffect: StoreEffect,
  State, Action: Sendable, Effect: StoreEffect
>: Sendable {
  /// The name of the place the child sits: the namespace its effects run in.
  public let name: String
  /// Where the child's state lives in the parent's (an optional for a child that comes and
  /// goes).
  public let state: WritableKeyPath<ParentState, State> & Sendable
  /// The parent's action case that carries the child's actions.
  public let action: CaseKey<ParentAction, Action>
  @usableFromInline let embedEffect: @Sendable (Effect) -> ParentEffect
  @usableFromInline let extractEffect: @Sendable (ParentEffect) -> Effect?

  /// Declares a child with effects.
  ///
  /// - Parameters:
  ///   - name: The name of the place the child sits, unique among the parent's children: the
  ///     namespace of the child's effects (two children of one type under two names never
  ///     cancel each other's work).
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: The parent's action case that carries the child's actions.
  ///   - effect: The parent's effect case that carries the child's effects.
  public init(
    _ name: String,
    state: WritableKeyPath<ParentState, State> & Sendable,
    action: CaseKey<ParentAction, Action>,
    effect: CaseKey<ParentEffect, Effect>
  ) {
    self.name = name
    self.state = state
    self.action = action
    self.embedEffect = effect.embed
    self.extractEffect = effect.extract
  }

  /// Declares a child that has no effects.
  ///
  /// - Parameters:
  ///   - name: The name of the place the child sits, unique among the parent's children.
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: The parent's action case that carries the child's actions.
  public init(
    _ name: String,
    state: WritableKeyPath<ParentState, State> & Sendable,
    action: CaseKey<ParentAction, Action>
  ) where Effect == Never {
    self.name = name
    self.state = state
    self.action = action
    self.embedEffect = absurd
    self.extractEffect = { _ in nil }
  }

  /// Declares a child that has no effects, in the feature that `parent` reduces: the parent's
  /// types come from it, so nothing is spelled out.
  ///
  /// ```swift
  /// static let todos = ChildFeature(
  ///   "todos", of: TodosCore.self, state: \.todos,
  ///   action: CaseKey(embed: TodosAction.todos) { if case .todos(let a) = $0 { a } else { nil } })
  /// ```
  ///
  /// Without `of:`, nothing in the declaration names the parent's effect type. Where the
  /// context gives it — the declaration written inline in `forEach(_:row:)`, or given its type —
  /// `ChildFeature(name, state:action:)` takes it from there; a declaration on its own is a
  /// compile-time error that says to add `of:`:
  ///
  /// <!-- not output: printed by the Swift compiler -->
  /// ```text
  /// error: 'init(_:state:action:)' is unavailable: a child without effects cannot tell its parent's effect type: name a reducer of the parent with ChildFeature(name, of: ParentReducer.self, state: …, action: …)
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name of the place the child sits, unique among the parent's children.
  ///   - parent: A reducer of the parent's state, actions and effects (its core or the whole).
  ///   - state: Where the child's state lives in the parent's.
  ///   - action: The parent's action case that carries the child's actions.
  public convenience init<Parent: Reducer>(
    _ name: String,
    of parent: Parent.Type,
    state: WritableKeyPath<ParentState, State> & Sendable,
    action: CaseKey<ParentAction, Action>
  )
  where
    Effect == Never, Parent.State == ParentState, Parent.Action == ParentAction,
    Parent.Effect == ParentEffect
  {
    self.init(name, state: state, action: action)
  }

  /// The parent's effect case that carries the child's effects.
  public var effect: CaseKey<ParentEffect, Effect> {
    CaseKey(embed: embedEffect, extract: extractEffect)
  }

  /// How the store schedules one of the child's effects once it is embedded in the parent's:
  /// its own cancellation, in the child's namespace.
  ///
  /// Return it from the parent effect's `cancellation` for the child's case.
  ///
  /// - Parameter effect: One of the child's effects.
  /// - Returns: `effect.cancellation.within(name)`.
  public func cancellation(of effect: Effect) -> EffectCancellation {
    effect.cancellation.within(name)
  }

  /// The effect data of this child going away: it cancels everything the child started.
  public var dismissal: ChildDismissal { ChildDismissal(child: name) }

  /// The child's effects, embedded in the parent's effect type.
  @inlinable
  func embed(_ effects: [Effect]) -> [ParentEffect] {
    if effects.isEmpty { return [] }
    let embedded = effects.map(embedEffect)
    #if DEBUG
      checkNamespaces(of: effects, embedded: embedded)
    #endif
    return embedded
  }

  /// Reports an embedded effect whose cancellation is not the child's in its namespace: a
  /// parent `cancellation` that forgot ``cancellation(of:)`` or names another child.
  @usableFromInline
  func checkNamespaces(of effects: [Effect], embedded: [ParentEffect]) {
    for (effect, parent) in zip(effects, embedded)
    where parent.cancellation != cancellation(of: effect) {
      RuntimeWarning.report(namespaceProblem(effect, parent))
    }
  }

  private func namespaceProblem(_ effect: Effect, _ parent: ParentEffect) -> String {
    "the child '\(name)' returned \(Dump.renderOneLine(effect)), whose cancellation in "
      + "\(ParentEffect.self) is \(parent.cancellation), not \(cancellation(of: effect)): "
      + "name the child after the case that carries its effects, or return "
      + "\(name).cancellation(of: effect) for that case"
  }
}

extension ChildFeature where ParentEffect == Never, Effect == Never {
  /// The declaration of a child without effects whose parent's effect type nothing names: a
  /// compile-time error saying to add `of:` (see
  /// ``init(_:of:state:action:)``). Swift picks it only when no other initializer applies:
  /// where the context gives the parent's effect type (even `Never`), the declaration compiles.
  @available(
    *, unavailable,
    message:
      "a child without effects cannot tell its parent's effect type: name a reducer of the parent with ChildFeature(name, of: ParentReducer.self, state: …, action: …)"
  )
  public convenience init(
    _ name: String,
    state: WritableKeyPath<ParentState, State> & Sendable,
    action: CaseKey<ParentAction, Action>
  ) {
    self.init(name, state: state, action: action, effect: CaseKey(embed: absurd, extract: absurd))
  }
}

extension ChildFeature where Action: Equatable, Effect: Equatable {
  /// Checks the declaration against sample values, for a test: returns what is wrong, or
  /// nothing.
  ///
  /// For every action and effect given, the parent's case must give back the same value
  /// (`extract(embed(x)) == x`), and an embedded effect's cancellation must be the child's in
  /// its namespace. A test asserts the result is empty:
  ///
  /// ```swift
  /// #expect(AppReducer.login.embeddingProblems(
  ///   actions: [.loginButtonTapped], effects: [.cancelAuthentication]) == [])
  /// ```
  ///
  /// - Parameters:
  ///   - actions: Sample child actions: one of each case is a good choice.
  ///   - effects: Sample child effects.
  /// - Returns: One line per problem, naming the child and the value.
  public func embeddingProblems(actions: [Action], effects: [Effect]) -> [String] {
    var problems: [String] = []
    for action in actions where self.action.extract(self.action.embed(action)) != action {
      problems.append(
        "the child '\(name)': \(Dump.renderOneLine(action)) does not come back out of "
          + "\(ParentAction.self)")
    }
    for effect in effects {
      let parent = embedEffect(effect)
      if extractEffect(parent) != effect {
        problems.append(
          "the child '\(name)': \(Dump.renderOneLine(effect)) does not come back out of "
            + "\(ParentEffect.self)")
      }
      if parent.cancellation != cancellation(of: effect) {
        problems.append(namespaceProblem(effect, parent))
      }
    }
    return problems
  }
}

/// The effect data of a child feature going away: it cancels every effect the child (and
/// anything nested in it) started.
///
/// `ifLet(_:child:)` returns it, embedded in the parent's effects with
/// ``ComposedEffect/childDismissed(_:)``, when an optional child's state becomes `nil`. It is
/// data like any other effect: a `TestStore` receives it and an action log records it. Effect
/// handlers have nothing to do for it: the store has cancelled the child's effects already.
public struct ChildDismissal: Hashable, Sendable, Codable, CustomStringConvertible,
  DumpStringConvertible
{
  /// The ``ChildFeature/name`` of the child that went away, or of the list whose row did.
  public let child: String
  /// For a row of a list (see `forEach(_:row:)`), the row's namespace, `[id: 3]`; `nil` for a
  /// child of its own.
  public let row: String?

  /// The dismissal of the child named `child`.
  ///
  /// - Parameter child: The ``ChildFeature/name`` of the child.
  public init(child: String) {
    self.child = child
    self.row = nil
  }

  /// The dismissal of the row with `id` of the list named `child`.
  ///
  /// - Parameters:
  ///   - child: The ``ChildFeature/name`` of the list.
  ///   - id: The id of the row that was removed.
  public init(child: String, row id: some Hashable & Sendable) {
    self.child = child
    self.row = RowNamespace.name(of: id)
  }

  /// Cancels everything in flight in the child's namespace (the row's, for a row).
  public var cancellation: EffectCancellation {
    EffectCancellation(.cancelsNamespace, namespace: row.map { [child, $0] } ?? [child])
  }

  /// `ChildDismissal("home")`, or `ChildDismissal("todos[id: 3]")` for a row, on one line.
  public var description: String { "ChildDismissal(\(Dump.quoted(child + (row ?? ""))))" }

  /// The same as ``description``: a dismissal reads on one line in dumps and test failures.
  public var dumpDescription: String { description }
}

/// The effect type of a feature with optional children: it has one case that carries any
/// child's ``ChildDismissal``.
///
/// ```swift
/// enum LoginEffect: ComposedEffect {
///   case twoFactor(TwoFactorEffect)
///   case childDismissed(ChildDismissal)
///   // …
/// }
/// ```
///
/// An enum case satisfies the requirement.
///
/// A composed effect needs no `cancellation` of its own for its children: the default reads
/// where each effect sits. An effect carried by a case whose payload is a child's effect gets
/// the child's own cancellation within the case's name (``childCancellation``), and a
/// dismissal gets its own. So a child's ``ChildFeature/name`` is the name of the case that
/// carries its effects (`"login"` for `case login(LoginEffect)`); ``ChildFeature/embeddingProblems(actions:effects:)``
/// and debug builds report a child whose name is not its case's. A feature with effects of its
/// own in groups writes `cancellation` for those and leaves the rest to ``childCancellation``:
///
/// ```swift
/// var cancellation: EffectCancellation {
///   switch self {
///   case .authenticate: .group("login.authenticate", cancelInFlight: true)
///   default: childCancellation ?? .none
///   }
/// }
/// ```
public protocol ComposedEffect: StoreEffect {
  /// The effect of an optional child going away.
  ///
  /// - Parameter dismissal: Which child.
  /// - Returns: The parent effect that carries it.
  static func childDismissed(_ dismissal: ChildDismissal) -> Self
}

/// The state of a child feature that can end itself — a presented screen: once it has an
/// ``outcome``, its parent removes it and acts on how it ended (see `ifLet(_:onEnd:child:)`).
public protocol PresentedState {
  /// How the child can end: verified, cancelled, …
  associatedtype Outcome: Sendable

  /// How the child ended, once it has; `nil` while it is still showing.
  var outcome: Outcome? { get }
}

extension ComposedEffect {
  /// The effect's cancellation, from where it sits: ``childCancellation``, or `.none` for a
  /// case that carries no child's effect.
  public var cancellation: EffectCancellation { childCancellation ?? .none }

  /// For a case that carries a child's effect — `.login(effect)` — that effect's own
  /// cancellation in the child's namespace, named after the case (`"login"`); for a case that
  /// carries a ``ChildDismissal``, the dismissal's; `nil` for any other case.
  ///
  /// It reads the case's name and payload by reflection, when the store schedules the effect
  /// (effects are far rarer than actions).
  public var childCancellation: EffectCancellation? {
    guard let payload = Mirror(reflecting: self).children.first, let name = payload.label
    else { return nil }
    var value = payload.value
    // A labelled payload, `case login(effect: LoginEffect)`, reflects as a one-element tuple.
    let inner = Mirror(reflecting: value)
    if inner.displayStyle == .tuple, inner.children.count == 1, let only = inner.children.first {
      value = only.value
    }
    if let dismissal = value as? ChildDismissal { return dismissal.cancellation }
    guard let effect = value as? any StoreEffect else { return nil }
    return effect.cancellation.within(name)
  }
}
