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
  /// - Parameter name: Any name; effects with equal names share a group.
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

/// How the store schedules an effect with respect to cancellation groups.
///
/// The reducer stays pure: it only returns an effect whose ``StoreEffect/cancellation`` says
/// what to do, and the ``Store`` cancels the right tasks.
public enum EffectCancellation: Hashable, Sendable {
  /// The effect runs on its own and is cancelled only by ``Store/cancelAll()`` or the store's end.
  case none
  /// The effect joins `id`. With `cancelInFlight`, starting it first cancels the group's
  /// effects that are still running (a new request replaces an older one).
  case group(CancellationID, cancelInFlight: Bool)
  /// Starting the effect cancels every effect of `id` that is in flight. The effect itself is
  /// still handed to the effect handler afterwards (it may, for example, tell a server).
  case cancels(CancellationID)
}
