/// How many characters a field may have — the rule and the words for it, from one number.
///
/// ``CredentialRules`` validates with ``allows(_:)`` and writes its messages with ``phrase``,
/// so a limit and its message cannot drift apart, and every limit reads naturally, including 1
/// ("at least 1 character", never "at least 1 characters").
package enum LengthLimit: Sendable, Equatable {
  /// At least this many characters.
  case atLeast(Int)
  /// More than this many characters.
  case longerThan(Int)
  /// From the first number to the second, both included.
  case between(Int, Int)

  /// Whether a field of `count` characters keeps to the limit.
  package func allows(_ count: Int) -> Bool {
    switch self {
    case .atLeast(let minimum): count >= minimum
    case .longerThan(let minimum): count > minimum
    case .between(let lower, let upper): lower <= count && count <= upper
    }
  }

  /// The limit in words, to follow "must be": "at least 3 characters", "longer than 8
  /// characters", "2 to 10 characters", "exactly 1 character".
  package var phrase: String {
    switch self {
    case .atLeast(let minimum):
      "at least \(Self.characters(max(0, minimum)))"
    case .longerThan(let minimum) where minimum < 1:
      "at least 1 character"
    case .longerThan(let minimum):
      "longer than \(Self.characters(minimum))"
    case .between(let lower, let upper) where lower == upper:
      "exactly \(Self.characters(upper))"
    case .between(let lower, let upper) where lower <= 0:
      "at most \(Self.characters(upper))"
    case .between(let lower, let upper):
      "\(lower) to \(Self.characters(upper))"
    }
  }

  /// "1 character", "0 characters", "10 characters".
  private static func characters(_ count: Int) -> String {
    count == 1 ? "1 character" : "\(count) characters"
  }
}
