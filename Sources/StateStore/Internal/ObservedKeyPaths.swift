/// The key path Observation is told about for each store and handle type, made once per type.
///
/// `\Store<R>.state` and `\ScopedStore<State, Action>.state` are generic key paths: forming one
/// instantiates it from its mangled pattern at run time (the runtime demangles the type), which
/// measured about a third of creating a scoped handle (`store-bench`, `1,000 handles`). Stores
/// and handles of one type share one instance.
@MainActor
enum ObservedKeyPaths {
  private static var paths: [ObjectIdentifier: AnyKeyPath] = [:]

  /// The one key path of `root`'s observed property, made by `make` on first use.
  ///
  /// - Parameters:
  ///   - root: The store or handle type; it has one observed property.
  ///   - make: Forms the key path, e.g. `{ \.state }`.
  /// - Returns: The shared instance.
  static func path<Root, Value>(
    in root: Root.Type, _ make: () -> KeyPath<Root, Value>
  ) -> KeyPath<Root, Value> {
    let key = ObjectIdentifier(root)
    // Stored under this exact root type below, with its one value type: the cast succeeds.
    if let path = paths[key] as? KeyPath<Root, Value> { return path }
    let path = make()
    paths[key] = path
    return path
  }
}
