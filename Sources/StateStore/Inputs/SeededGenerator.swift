/// A fast, seeded random number generator (SplitMix64), so a random test can be replayed.
///
/// A test store draws its reducers' random numbers from one (``ControlledInputs/random``), and
/// a property test its values: print the seed when a property fails; run again with the same
/// seed to get the same values.
///
/// ```swift
/// var random = SeededGenerator(seed: 42)
/// let roll = Int.random(in: 1...6, using: &random)
/// ```
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator whose sequence is fixed by `seed`.
  ///
  /// - Parameter seed: Any value; equal seeds give equal sequences.
  public init(seed: UInt64) {
    self.state = seed
  }

  /// The next 64 random bits.
  ///
  /// - Returns: A value uniformly distributed over all of `UInt64`.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
