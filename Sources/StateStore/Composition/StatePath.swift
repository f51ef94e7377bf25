/// Where a child's state lives in its parent's: a key path, resolved once to a byte offset when
/// it names stored properties.
///
/// Projecting a key path at run time costs generic metadata lookups on every call — most of the
/// time of a scoped keystroke when measured. `MemoryLayout.offset(of:)` gives the offset of a
/// path of stored properties once, and then reading and mutating the child is pointer
/// arithmetic on the parent's own storage, exactly where the key path would have led. Paths
/// through computed properties or classes have no offset and keep using the key path.
@usableFromInline
struct StatePath<Root, Value>: @unchecked Sendable {
  // `@unchecked`: the key path is `Sendable` when given (every initializer asks for it), and an
  // offset is an integer.
  @usableFromInline let keyPath: KeyPath<Root, Value>
  @usableFromInline let writableKeyPath: WritableKeyPath<Root, Value>?
  @usableFromInline let offset: Int?

  /// A writable path whose offset was resolved before (`nil` when it has none).
  @inlinable init(_ keyPath: WritableKeyPath<Root, Value> & Sendable, offset: Int?) {
    self.keyPath = keyPath
    self.writableKeyPath = keyPath
    self.offset = offset
  }

  /// A read-only path.
  @usableFromInline init(_ keyPath: KeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
    self.writableKeyPath = keyPath as? WritableKeyPath<Root, Value>
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Reads the value at the path, and gives it to `body` without copying it.
  @inlinable
  func withValue<T>(in root: borrowing Root, _ body: (Value) -> T) -> T {
    guard let offset else { return body((copy root)[keyPath: keyPath]) }
    return withUnsafePointer(to: root) { pointer in
      body(
        UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self)
          .pointee)
    }
  }

  /// Reads the value at the path of a root the caller may mutate, without copying either.
  @inlinable
  func withValue<T>(inPlace root: inout Root, _ body: (Value) -> T) -> T {
    guard let offset else { return body(root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { pointer in
      body(
        UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self)
          .pointee)
    }
  }

  /// Gives `body` a pointer to the value at the path of the root at `pointer`, and whether it
  /// points into the root's own storage (`false`: to a copy, for a path without an offset).
  /// The pointer is valid only during the call.
  @inlinable
  func withPointer<T>(
    at pointer: UnsafePointer<Root>, _ body: (UnsafePointer<Value>, _ isStored: Bool) -> T
  ) -> T {
    guard let offset else {
      return withUnsafePointer(to: pointer.pointee[keyPath: keyPath]) { body($0, false) }
    }
    return body(
      UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self), true)
  }

  /// A copy of the value at the path.
  @inlinable
  func value(in root: borrowing Root) -> Value {
    withValue(in: root) { $0 }
  }

  /// Mutates the value at the path in place.
  ///
  /// Only for a path made from a `WritableKeyPath`, as ``Scope`` and ``IfLet`` make theirs; a
  /// read-only path without an offset leaves the root as it is and gives `body` a copy.
  @inlinable
  func modify<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T {
    guard let offset else {
      if let writableKeyPath { return body(&root[keyPath: writableKeyPath]) }
      var detached = root[keyPath: keyPath]
      return body(&detached)
    }
    return withUnsafeMutablePointer(to: &root) { pointer in
      body(
        &UnsafeMutableRawPointer(pointer).advanced(by: offset)
          .assumingMemoryBound(to: Value.self).pointee)
    }
  }
}
