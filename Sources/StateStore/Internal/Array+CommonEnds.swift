extension Array where Element: Equatable {
  /// How many elements `self` and `other` share at their start, and then at their end (the
  /// end counted only in what follows the shared start): what a line diff or a splice keeps.
  ///
  /// Inlinable: the timeline page calls it for every step, on arrays of line numbers.
  ///
  /// - Parameter other: The array to compare with.
  /// - Returns: The lengths of the common head and of the common tail.
  @inlinable
  package func commonEnds(with other: [Element]) -> (head: Int, tail: Int) {
    var head = 0
    while head < count, head < other.count, self[head] == other[head] { head += 1 }
    var tail = 0
    while tail < count - head, tail < other.count - head,
      self[count - 1 - tail] == other[other.count - 1 - tail]
    {
      tail += 1
    }
    return (head, tail)
  }
}
