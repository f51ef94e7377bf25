extension Array {
  /// Removes the element whose identifier is `id` from an array kept in increasing order of
  /// identifiers (observers are appended with ever larger ones), if it is there.
  ///
  /// A binary search and one move of the elements after it: releasing a thousand handles one
  /// by one costs a thousand of these, where `removeAll(where:)` rewrote the whole array each
  /// time.
  ///
  /// - Parameters:
  ///   - id: The identifier to remove.
  ///   - identifier: Reads an element's identifier.
  @inlinable
  mutating func removeSorted(id: Int, identifier: (Element) -> Int) {
    var low = startIndex
    var high = endIndex
    while low < high {
      let middle = low + (high - low) / 2
      if identifier(self[middle]) < id { low = middle + 1 } else { high = middle }
    }
    if low < endIndex, identifier(self[low]) == id { remove(at: low) }
  }
}
