import Foundation

/// The fingerprint of a state that an action log writes after every transition.
///
/// A digest is the 64-bit FNV-1a hash of the state's *canonical* JSON — the package's own form,
/// specified in the "Action logs and replay" article and written by one encoder on every
/// platform — as 16 lowercase hex digits. It is stable across runs, machines and platforms, costs 8 bytes per line instead of a full
/// state, and lets a replay check every step. Because a ``StateStore/Secret`` encodes as its shape mask,
/// the recorded state (with the real password) and the replayed state (with the mask) have the
/// same digest.
///
/// ```swift
/// let digest = try StateDigest.of(LoginState())   // "5d1f0e3a9c27b468"
/// ```
public enum StateDigest {
  /// The digest of `state`.
  ///
  /// - Parameter state: Any encodable value.
  /// - Returns: 16 lowercase hex digits.
  /// - Throws: ``ActionLogError/encodingFailed(_:)`` when the value cannot be encoded.
  public static func of<State: Encodable>(_ state: State) throws(ActionLogError) -> String {
    do {
      return hex(try CanonicalJSON.digest(state, using: CanonicalJSONEncoder()))
    } catch {
      throw .encodingFailed(CanonicalJSON.failure(error, encoding: State.self))
    }
  }

  /// The 64-bit FNV-1a hash of `bytes`.
  ///
  /// - Parameter bytes: Any bytes, typically canonical JSON.
  /// - Returns: The hash.
  package static func fnv1a(_ bytes: Data) -> UInt64 {
    bytes.withUnsafeBytes { fnv1a($0) }
  }

  package static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    bytes.withUnsafeBytes { fnv1a($0) }
  }

  static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    fnv1a(bytes, continuing: offsetBasis)
  }

  /// FNV-1a's starting hash state.
  static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

  /// The FNV-1a hash state after `bytes`, from the hash state `hash`: the hash of some bytes
  /// followed by `bytes`, when `hash` is the state after those.
  static func fnv1a(_ bytes: ArraySlice<UInt8>, continuing hash: UInt64) -> UInt64 {
    bytes.withUnsafeBytes { fnv1a($0, continuing: hash) }
  }

  /// The FNV-1a hash state after one more byte.
  static func fnv1a(_ byte: UInt8, continuing hash: UInt64) -> UInt64 {
    (hash ^ UInt64(byte)) &* prime
  }

  private static let prime: UInt64 = 0x0000_0100_0000_01b3

  private static func fnv1a(_ bytes: UnsafeRawBufferPointer, continuing hash: UInt64) -> UInt64 {
    var hash = hash
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= prime
    }
    return hash
  }

  /// Writes `hash` as 16 lowercase hex digits, zero-padded.
  ///
  /// - Parameter hash: A 64-bit hash.
  /// - Returns: The text a log line holds.
  public static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Whether `text` is `hex(hash)`, checked without making the text.
  package static func hash(_ hash: UInt64, isWrittenAs text: String) -> Bool {
    guard text.utf8.count == 16 else { return false }
    var shift: UInt64 = 64
    for byte in text.utf8 {
      shift -= 4
      let nibble = UInt8(truncatingIfNeeded: hash >> shift) & 0xF
      guard byte == (nibble < 10 ? 0x30 + nibble : 0x57 + nibble) else { return false }
    }
    return true
  }
}
