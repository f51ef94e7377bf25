/// A side effect described as data, with how the store schedules it.
///
/// Effects are values so that a test can assert them without running them and an action log
/// can record them. The only thing the store needs to know about an effect is its
/// ``cancellation``: whether it belongs to a cancellation group, and whether it cancels one.
/// The default is ``EffectCancellation/none``.
///
/// ```swift
/// enum SearchEffect: StoreEffect, Equatable {
///   case search(String)
///   case cancelSearch
///
///   var cancellation: EffectCancellation {
///     switch self {
///     case .search: .group("search", cancelInFlight: true)
///     case .cancelSearch: .cancels("search")
///     }
///   }
/// }
/// ```
///
/// A parent feature that embeds a child's effects places them in a namespace named after where
/// the child sits (see ``EffectCancellation/within(_:)``), so that two instances of one feature
/// never cancel each other's work.
public protocol StoreEffect: Sendable {
  /// How the store relates this effect to the effects already in flight.
  var cancellation: EffectCancellation { get }
}

extension StoreEffect {
  /// Effects belong to no cancellation group unless they say otherwise.
  public var cancellation: EffectCancellation { .none }
}

/// `Never` is the effect type of a reducer that has no side effects.
extension Never: StoreEffect {}

/// The name of a group of in-flight effects that can be cancelled together.
///
/// A name is unique within a namespace: the group `"login.authenticate"` of the login form at
/// `primary` and the group of the same name of the login form at `secondary` are two groups.
///
/// ```swift
/// let id: CancellationID = "login-request"
/// ```
public struct CancellationID: Hashable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The group's name.
  public let name: String

  /// Creates a group named `name`.
  ///
  /// - Parameter name: Any name; effects with equal names in one namespace share a group.
  public init(_ name: String) {
    self.name = name
  }

  /// Creates a group from a string literal.
  ///
  /// - Parameter value: The group's name.
  public init(stringLiteral value: String) {
    self.name = value
  }

  /// The group's name.
  public var description: String { name }
}

/// How the store schedules an effect with respect to cancellation groups, and where the
/// effect's feature sits.
///
/// The reducer stays pure: it only returns an effect whose ``StoreEffect/cancellation`` says
/// what to do, and the ``Store`` cancels the right tasks.
///
/// Every effect lives in a *namespace*: the path of the child features it was embedded
/// through, outermost first (empty at the root). A parent that embeds a child's effects gives
/// them the child's cancellation ``within(_:)`` the place the child sits — a
/// ``ComposedEffect`` does it by itself, naming the place after the case that carries them —
/// so that groups are per place:
///
/// ```swift
/// enum FormsEffect: ComposedEffect {
///   case primary(LoginEffect)
///   case secondary(LoginEffect)
///   case childDismissed(ChildDismissal)
/// }
/// ```
///
/// Cancelling the login request of the `secondary` form leaves the `primary` form's request
/// running, and `.childDismissed(Forms.secondary.dismissal)` ends every effect the `secondary`
/// form started, whatever its group: `ifLet(_:child:)` returns it when an optional
/// child goes away.
public struct EffectCancellation: Hashable, Sendable {
  /// What an effect does to cancellation groups.
  public enum Kind: Hashable, Sendable {
    /// The effect runs on its own and is cancelled only by ``Store/cancelAll()``, by a
    /// ``EffectCancellation/cancelsAll(in:)`` of its namespace, or by the store's end.
    case none
    /// The effect joins the group. With `cancelInFlight`, starting it first cancels the
    /// group's effects that are still running (a new request replaces an older one).
    case group(CancellationID, cancelInFlight: Bool)
    /// Starting the effect cancels every effect of the group that is in flight. The effect
    /// itself is still handed to the effect handler afterwards (it may, for example, tell a
    /// server).
    case cancels(CancellationID)
    /// Starting the effect cancels every effect in flight in its ``EffectCancellation/namespace``
    /// and the namespaces inside it. The effect itself is then handed to the effect handler.
    case cancelsNamespace
  }

  /// What the effect does to cancellation groups.
  public let kind: Kind
  /// Where the effect's feature sits, outermost first; empty for an effect of the store's own
  /// feature.
  public let namespace: [String]

  /// Creates a cancellation.
  ///
  /// - Parameters:
  ///   - kind: What the effect does to cancellation groups.
  ///   - namespace: Where the effect's feature sits, outermost first.
  public init(_ kind: Kind, namespace: [String] = []) {
    self.kind = kind
    self.namespace = namespace
  }

  /// The effect runs on its own: no group.
  public static let none = EffectCancellation(.none)

  /// The effect joins the group `id`; with `cancelInFlight` it first cancels the group's
  /// effects still running.
  ///
  /// - Parameters:
  ///   - id: The group.
  ///   - cancelInFlight: Whether starting the effect cancels the group's running effects.
  /// - Returns: The cancellation.
  public static func group(_ id: CancellationID, cancelInFlight: Bool) -> EffectCancellation {
    EffectCancellation(.group(id, cancelInFlight: cancelInFlight))
  }

  /// Starting the effect cancels the group `id`.
  ///
  /// - Parameter id: The group to cancel.
  /// - Returns: The cancellation.
  public static func cancels(_ id: CancellationID) -> EffectCancellation {
    EffectCancellation(.cancels(id))
  }

  /// Starting the effect cancels every effect in flight that the child at `namespace` (and
  /// anything nested in it) started: the effect a parent returns when a child goes away.
  ///
  /// - Parameter namespace: The name of the place the child sits, as given to ``within(_:)``.
  /// - Returns: The cancellation.
  public static func cancelsAll(in namespace: String) -> EffectCancellation {
    EffectCancellation(.cancelsNamespace, namespace: [namespace])
  }

  /// The same cancellation for an effect embedded in a parent at `namespace`: the groups it
  /// joins or cancels become groups of that place.
  ///
  /// - Parameter namespace: The name of the place the child sits in its parent, e.g. `"login"`.
  /// - Returns: The cancellation, one level deeper.
  public func within(_ namespace: String) -> EffectCancellation {
    EffectCancellation(kind, namespace: [namespace] + self.namespace)
  }
}
