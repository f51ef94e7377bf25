extension String {
  /// The string without leading and trailing whitespace (including newlines), by character.
  func trimmingSurroundingWhitespace() -> String {
    guard let start = firstIndex(where: { !$0.isWhitespace }),
      let end = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[start...end])
  }
}
