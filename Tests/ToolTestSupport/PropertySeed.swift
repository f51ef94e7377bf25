import Foundation

/// The seed of a property test's random cases: a new one at every run, or the one in
/// `LOGIN_PROPERTY_SEED`, which reproduces a run.
///
/// A property test takes a sample of its space per run, small enough that the test takes
/// seconds; since the seed changes from run to run, the runs between them cover what one long
/// run would. Every failure message of such a test names the seed and how to run it again:
///
/// ```swift
/// let seed = PropertySeed.current
/// var random = SeededGenerator(seed: seed)
/// // …
/// Issue.record("Invariant broken (seed \(seed)) … \(PropertySeed.reproduction(seed))")
/// ```
package enum PropertySeed {
  /// The environment variable that pins the seed.
  package static let variable = "LOGIN_PROPERTY_SEED"

  /// The pinned seed if `LOGIN_PROPERTY_SEED` holds one, else a random one.
  package static var current: UInt64 {
    if let text = ProcessInfo.processInfo.environment[variable], let seed = UInt64(text) {
      return seed
    }
    return UInt64.random(in: 0...UInt64.max)
  }

  /// How to run a test again with `seed`: `Reproduce with LOGIN_PROPERTY_SEED=<seed>.`
  package static func reproduction(_ seed: UInt64) -> String {
    "Reproduce with \(variable)=\(seed)."
  }
}
