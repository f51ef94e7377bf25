import StateStore

/// Compares the effects a replay returned with the recorded ones: with `==` when the effect
/// type is `Equatable`, otherwise by their canonical JSON. Whether it is `Equatable` is looked
/// up once, when the comparison is made.
struct EffectComparison<Effect: Encodable> {
  private let equality = EquatableOperations.of(Effect.self)

  func same(_ recorded: [Effect], _ replayed: [Effect]) -> Bool {
    guard recorded.count == replayed.count else { return false }
    if recorded.isEmpty { return true }
    if let equality {
      return zip(recorded, replayed).allSatisfy { equality.areEqual($0, $1) == true }
    }
    // Effects that cannot be encoded compare unequal: the divergence shows both.
    let encoder = CanonicalJSONEncoder()
    guard let left = try? encoder.encode(recorded), let right = try? encoder.encode(replayed) else {
      return false
    }
    return left == right
  }
}
