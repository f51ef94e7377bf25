/// A version of the canonical form, named in every header as its digest algorithm.
///
/// Digests and the values in a log's lines are the canonical JSON of the version its header
/// names; a verifier encodes the replayed state in that version, so a log keeps verifying after
/// the form moves on. The versions differ in one place only:
///
/// - ``v1`` (`fnv1a64-canonical-v1`): a `Duration` as its own `Codable` writes it, two 64-bit
///   words of attoseconds, high first: 30 seconds is `[1,11553255926290448384]`.
/// - ``v2`` (`fnv1a64-canonical-v2`): a `Duration` as a number of seconds, exact to the
///   attosecond: `30`, `-0.5`, `0.000000000000000001`.
package enum CanonicalForm: Int, CaseIterable, Sendable {
  /// Durations as two words of attoseconds.
  case v1 = 1
  /// Durations as seconds.
  case v2 = 2

  /// The form this build writes.
  package static let current = v2

  /// The header's name for the form: `fnv1a64-canonical-v2`.
  package var digestAlgorithm: String { "fnv1a64-canonical-v\(rawValue)" }

  /// The form a header names; `nil` for an algorithm this build does not know.
  ///
  /// - Parameter digestAlgorithm: The header's `digest` value.
  package init?(digestAlgorithm: String) {
    guard let form = Self.allCases.first(where: { $0.digestAlgorithm == digestAlgorithm })
    else { return nil }
    self = form
  }

  /// Whether a `Duration` is written as a number of seconds.
  var writesDurationsAsSeconds: Bool { self >= .v2 }
}

extension CanonicalForm: Comparable {
  package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
