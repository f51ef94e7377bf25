import StateStore

/// Compares the effects a replay returned with the recorded ones by their canonical JSON, in
/// the canonical form the log was written in: never by the effect type's `==`, which may ignore
/// a field (a type compared by its `id`), so a replay whose effects differ from the recording
/// only there is a divergence too.
struct EffectComparison<Effect: Encodable> {
  /// An encoder that remembers nothing, in the log's canonical form.
  let encoder: CanonicalJSONEncoder

  /// How `replayed` differ from the `recorded` effects in canonical JSON, as a −/+ diff of
  /// their fields (``CanonicalJSONText``); `nil` when they are the same, byte for byte.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when an effect cannot be encoded.
  func difference(_ recorded: [Effect], _ replayed: [Effect]) throws(ActionLogError) -> String? {
    try compare(recorded, replayed).difference
  }

  /// How `replayed` differ from the `recorded` effects (see ``difference(_:_:)``), and the
  /// replayed effects' canonical JSON (one array), which a tool that shows them keeps.
  ///
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when an effect cannot be encoded.
  func compare(
    _ recorded: [Effect], _ replayed: [Effect]
  ) throws(ActionLogError) -> (difference: String?, replayedBytes: [UInt8]) {
    if recorded.isEmpty, replayed.isEmpty { return (nil, Self.emptyArray) }
    let old: [UInt8]
    let new: [UInt8]
    do {
      old = try encoder.encode(recorded)
      new = try encoder.encode(replayed)
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: Effect.self))
    }
    guard old != new else { return (nil, new) }
    // Bytes that differ always show: two renderings that read the same are shown whole.
    let difference =
      CanonicalJSONText.diff(from: old, to: new)
      ?? "recorded: \(ShownText.escaped(String(decoding: old, as: UTF8.self)))\n"
      + "replayed: \(ShownText.escaped(String(decoding: new, as: UTF8.self)))"
    return (difference, new)
  }

  private static var emptyArray: [UInt8] {
    [JSONValueBytes.openBracket, JSONValueBytes.closeBracket]
  }
}
