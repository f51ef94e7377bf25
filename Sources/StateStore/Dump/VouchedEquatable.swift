/// A type whose renderings the package can compare without rendering them: the standard
/// library's values and the package's own, compared with their `==` where it compares everything
/// ``Dump`` shows of them, by their bits where it does not (`0.0 == -0.0`, but `-0.0` renders
/// with its sign), and collections of such values.
///
/// A host type is never one, whatever its `==` (one that compares an `id` only is common): a
/// diff renders a host value on both sides before it calls it unchanged, and the timeline page
/// renders it again at every step. Text is compared as Swift compares strings, as every diff
/// and the page's string table do: canonically equivalent spellings (`é` as one scalar, or as
/// `e` and a combining accent) look the same on screen and count as the same text.
package protocol VouchedEquatable {
  /// Whether `self` renders as `other` does.
  func rendersSame(as other: Self) -> Bool
}

/// A ``VouchedEquatable`` type whose `==` compares everything ``Dump`` shows of it.
package protocol ExactlyEquatable: VouchedEquatable, Equatable {}

extension ExactlyEquatable {
  package func rendersSame(as other: Self) -> Bool { self == other }
}

extension Dump {
  /// Whether `old` and `new` render the same, when the package can tell without rendering them
  /// (both of one ``VouchedEquatable`` type); `nil` when it cannot.
  package static func rendersSame(_ old: Any, _ new: Any) -> Bool? {
    guard let old = old as? any VouchedEquatable else { return nil }
    // Passing `old` opens it: `Value` is its own type, not `any VouchedEquatable`.
    func compare<Value: VouchedEquatable>(_ old: Value) -> Bool? {
      guard let new = new as? Value else { return nil }
      return old.rendersSame(as: new)
    }
    return compare(old)
  }
}

extension Double: VouchedEquatable {
  package func rendersSame(as other: Double) -> Bool { bitPattern == other.bitPattern }
}
extension Float: VouchedEquatable {
  package func rendersSame(as other: Float) -> Bool { bitPattern == other.bitPattern }
}
extension String: ExactlyEquatable {}
extension Substring: ExactlyEquatable {}
extension Character: ExactlyEquatable {}
extension Bool: ExactlyEquatable {}
extension Int: ExactlyEquatable {}
extension Int8: ExactlyEquatable {}
extension Int16: ExactlyEquatable {}
extension Int32: ExactlyEquatable {}
extension Int64: ExactlyEquatable {}
extension UInt: ExactlyEquatable {}
extension UInt8: ExactlyEquatable {}
extension UInt16: ExactlyEquatable {}
extension UInt32: ExactlyEquatable {}
extension UInt64: ExactlyEquatable {}
extension Duration: ExactlyEquatable {}
// A secret renders as its mask, one character per character of the secret, by its kind.
extension Secret: ExactlyEquatable {}
extension PersonalData: ExactlyEquatable {}

extension Optional: VouchedEquatable where Wrapped: VouchedEquatable {
  package func rendersSame(as other: Wrapped?) -> Bool {
    switch (self, other) {
    case (nil, nil): true
    case (let value?, let otherValue?): value.rendersSame(as: otherValue)
    default: false
    }
  }
}
extension Array: VouchedEquatable where Element: VouchedEquatable {
  package func rendersSame(as other: [Element]) -> Bool {
    count == other.count && zip(self, other).allSatisfy { $0.rendersSame(as: $1) }
  }
}
// A set and a dictionary render sorted: each element is compared with the one `other` holds
// in its place (equal by `==`), whatever the order the two iterate in.
extension Set: VouchedEquatable where Element: VouchedEquatable {
  package func rendersSame(as other: Set<Element>) -> Bool {
    count == other.count
      && allSatisfy { element in
        other.firstIndex(of: element).map { other[$0].rendersSame(as: element) } ?? false
      }
  }
}
extension Dictionary: VouchedEquatable where Key: VouchedEquatable, Value: VouchedEquatable {
  package func rendersSame(as other: [Key: Value]) -> Bool {
    count == other.count
      && allSatisfy { key, value in
        guard let index = other.index(forKey: key) else { return false }
        return other[index].key.rendersSame(as: key) && other[index].value.rendersSame(as: value)
      }
  }
}
