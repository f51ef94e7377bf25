import StateStore

/// Compares the effects a replay returned with the recorded ones by their canonical JSON, in
/// the canonical form the log was written in: never by the effect type's `==`, which may ignore
/// a field (a type compared by its `id`), so a replay whose effects differ from the recording
/// only there is a divergence too.
struct EffectComparison<Effect: Encodable> {
  /// An encoder that remembers nothing, in the log's canonical form.
  let encoder: CanonicalJSONEncoder

  /// Whether `replayed` are the `recorded` effects, byte for byte in canonical JSON.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when an effect cannot be encoded.
  func same(_ recorded: [Effect], _ replayed: [Effect]) throws(ActionLogError) -> Bool {
    guard recorded.count == replayed.count else { return false }
    if recorded.isEmpty { return true }
    do {
      return try encoder.encode(recorded) == encoder.encode(replayed)
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: Effect.self))
    }
  }
}
