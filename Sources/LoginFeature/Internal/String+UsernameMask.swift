import StateStore

extension String {
  /// The username's shape mask: like ``StateStore/Secret/mask(of:)``, but `@` and `.` are kept.
  ///
  /// The email rules look for those two characters, and the lengths and first-character class
  /// are kept too, so a masked username breaks exactly the rules the original broke — a replay
  /// of a log with masked usernames validates the same way. Masking a mask changes nothing.
  package var usernameMask: String {
    var result = ""
    result.reserveCapacity(utf8.count)
    for character in self {
      if character == "@" || character == "." {
        result.append(character)
      } else {
        result += Secret.mask(of: String(character))
      }
    }
    return result
  }
}
