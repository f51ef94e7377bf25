/// Where a child's state lives in its parent's: a key path, and the writable one when it is.
///
/// Reads and writes go through the key path, never through pointers into the parent's storage
/// (an offset resolved with `MemoryLayout.offset(of:)` and pointer arithmetic did, and was taken
/// out as unsafe: safe Swift first, speed from data structures).
@usableFromInline
struct StatePath<Root, Value>: @unchecked Sendable {
  // `@unchecked`: the key path is `Sendable` when given (every initializer asks for it).
  @usableFromInline let keyPath: KeyPath<Root, Value>
  @usableFromInline let writableKeyPath: WritableKeyPath<Root, Value>?

  /// A writable path.
  @inlinable init(_ keyPath: WritableKeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
    self.writableKeyPath = keyPath
  }

  /// A read-only path.
  @usableFromInline init(_ keyPath: KeyPath<Root, Value> & Sendable) {
    self.keyPath = keyPath
    self.writableKeyPath = keyPath as? WritableKeyPath<Root, Value>
  }

  /// Reads the value at the path, and gives it to `body`.
  @inlinable
  func withValue<T>(in root: borrowing Root, _ body: (Value) -> T) -> T {
    body((copy root)[keyPath: keyPath])
  }

  /// Reads the value at the path of a root the caller may mutate.
  @inlinable
  func withValue<T>(inPlace root: inout Root, _ body: (Value) -> T) -> T {
    body(root[keyPath: keyPath])
  }

  /// A copy of the value at the path.
  @inlinable
  func value(in root: borrowing Root) -> Value {
    withValue(in: root) { $0 }
  }

  /// Mutates the value at the path in place.
  ///
  /// Only for a path made from a `WritableKeyPath`, as ``Scope`` and ``IfLet`` make theirs; a
  /// read-only path leaves the root as it is and gives `body` a copy.
  @inlinable
  func modify<T>(_ root: inout Root, _ body: (inout Value) -> T) -> T {
    if let writableKeyPath { return body(&root[keyPath: writableKeyPath]) }
    var detached = root[keyPath: keyPath]
    return body(&detached)
  }
}
