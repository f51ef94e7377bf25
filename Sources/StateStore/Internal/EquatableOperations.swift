/// Comparing values whose type is only known to be `Equatable` at run time, without pointers:
/// the type's `==` is found once (the cast to `any Equatable.Type` is the slow part) and kept
/// as a small witness that casts its two arguments back to the type and compares them.
package protocol ValueEquality: Sendable {
  /// Whether `left` and `right` are equal; `nil` when either is not of the type this compares.
  func areEqual<Left, Right>(_ left: Left, _ right: Right) -> Bool?
}

/// The `==` of `Value`.
struct EquatableEquality<Value: Equatable>: ValueEquality {
  func areEqual<Left, Right>(_ left: Left, _ right: Right) -> Bool? {
    guard let left = left as? Value, let right = right as? Value else { return nil }
    return left == right
  }
}

/// Where the package finds a type's `==` at run time.
package enum EquatableOperations {
  /// The `==` of `Value`, or `nil` when it is not `Equatable` or, with `valuesOnly`, when it
  /// is a class: a kept reference compares equal to itself after the object changed.
  package static func of<Value>(
    _: Value.Type, valuesOnly: Bool = false
  ) -> (any ValueEquality)? {
    if valuesOnly, Value.self is AnyObject.Type { return nil }
    guard let equatable = Value.self as? any Equatable.Type else { return nil }
    return equality(of: equatable)
  }

  /// Whether two values of the same type are equal: `==` when `Value` is `Equatable`, `nil`
  /// when it cannot tell. The type's `==` is looked up once and kept.
  ///
  /// ```swift
  /// EquatableOperations.areEqual(state, previous) ?? false
  /// ```
  package static func areEqual<Value>(_ left: Value, _ right: Value) -> Bool? {
    let id = ObjectIdentifier(Value.self)
    let equality: (any ValueEquality)?
    if let cached = known.withLock({ $0[id] }) {
      equality = cached
    } else {
      equality = of(Value.self)
      known.withLock { $0[id] = equality }
    }
    return equality?.areEqual(left, right)
  }

  /// The `==` of every type ``areEqual(_:_:)`` has met; `nil` for one not `Equatable`.
  private static let known = Guarded<[ObjectIdentifier: (any ValueEquality)?]>([:])

  private static func equality<Value: Equatable>(of _: Value.Type) -> any ValueEquality {
    EquatableEquality<Value>()
  }
}
