/// What it takes to compare and keep a value whose type is only known to be `Equatable` at
/// run time: looked up once per type (the cast to `any Equatable.Type` is the slow part), then
/// called through the values' addresses.
package struct EquatableOperations {
  /// Whether the values at the two addresses are equal.
  package let equals: (UnsafeRawPointer, UnsafeRawPointer) -> Bool
  /// A new allocation holding a copy of the value at the address.
  package let copy: (UnsafeRawPointer) -> UnsafeMutableRawPointer
  /// Deinitializes and frees an allocation made by `copy`.
  package let free: (UnsafeMutableRawPointer) -> Void

  /// The operations of `Value`, or `nil` when it is not `Equatable` or, with
  /// `valuesOnly`, when it is a class: a kept reference compares equal to itself after the
  /// object changed.
  package static func of<Value>(_: Value.Type, valuesOnly: Bool = false) -> EquatableOperations? {
    if valuesOnly, Value.self is AnyObject.Type { return nil }
    guard let equatable = Value.self as? any Equatable.Type else { return nil }
    return operations(equatable)
  }

  /// Whether two values of the same type are equal: `==` when `Value` is `Equatable`, `nil`
  /// when it cannot tell. The type's operations are looked up once and kept.
  ///
  /// ```swift
  /// EquatableOperations.areEqual(state, previous) ?? false
  /// ```
  package static func areEqual<Value>(_ left: Value, _ right: Value) -> Bool? {
    let id = ObjectIdentifier(Value.self)
    let operations: EquatableOperations?
    if let cached = known.withLock({ $0[id] }) {
      operations = cached
    } else {
      operations = of(Value.self)
      known.withLock { $0[id] = operations }
    }
    guard let operations else { return nil }
    return withUnsafePointer(to: left) { left in
      withUnsafePointer(to: right) { right in operations.equals(left, right) }
    }
  }

  /// The operations of every type ``areEqual(_:_:)`` has met; `nil` for one not `Equatable`.
  private static let known = Guarded<[ObjectIdentifier: EquatableOperations?]>([:])

  private static func operations<Value: Equatable>(_: Value.Type) -> EquatableOperations {
    EquatableOperations(
      equals: { left, right in
        left.assumingMemoryBound(to: Value.self).pointee
          == right.assumingMemoryBound(to: Value.self).pointee
      },
      copy: { source in
        let copy = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        copy.initialize(to: source.assumingMemoryBound(to: Value.self).pointee)
        return UnsafeMutableRawPointer(copy)
      },
      free: { storage in
        let value = storage.assumingMemoryBound(to: Value.self)
        value.deinitialize(count: 1)
        value.deallocate()
      })
  }
}
