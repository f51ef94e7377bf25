/// The known option a mistyped one most likely meant, for the "did you mean …?" of the command
/// lines' usage errors (`login-demo`, `replay` and a host's replay tool).
package enum OptionSuggestion {
  /// The option of `known` nearest to `typed`, when it is near enough to be a typo of it.
  ///
  /// Only long options (`--name`) are matched, case aside. The distance is the number of
  /// characters to insert, delete, replace or swap with their neighbour (`--recrod` is one
  /// swap from `--record`); a name of up to four characters after the dashes may be one edit
  /// away, a longer one two. The nearest wins, the first of `known` on a tie.
  ///
  /// ```swift
  /// OptionSuggestion.nearest(to: "--recrod", in: ["--rules", "--record"])  // "--record"
  /// OptionSuggestion.nearest(to: "--frob", in: ["--rules", "--record"])    // nil
  /// ```
  ///
  /// - Parameters:
  ///   - typed: The option as typed, without any `=value`.
  ///   - known: The options the command knows, in the order to prefer on a tie.
  /// - Returns: The suggestion, or `nil` when none is near enough.
  package static func nearest(to typed: String, in known: [String]) -> String? {
    // No option name is this long: a huge argument costs nothing.
    guard typed.hasPrefix("--"), typed.utf8.count <= 256 else { return nil }
    let options = known.filter { $0.hasPrefix("--") }
    return nearestWord(to: String(typed.dropFirst(2)), in: options.map { String($0.dropFirst(2)) })
      .map { "--" + $0 }
  }

  /// The word of `known` nearest to `typed`, by the rules of ``nearest(to:in:)`` without the
  /// dashes: what a value not among an option's choices most likely meant.
  ///
  /// ```swift
  /// OptionSuggestion.nearestWord(to: "emial", in: ["default", "email", "min6"])  // "email"
  /// ```
  ///
  /// - Parameters:
  ///   - typed: The word as typed.
  ///   - known: The words to choose from, in the order to prefer on a tie.
  /// - Returns: The suggestion, or `nil` when none is near enough.
  package static func nearestWord(to typed: String, in known: [String]) -> String? {
    // No option or choice is this long: a huge argument costs nothing.
    guard typed.utf8.count <= 256 else { return nil }
    let word = Array(typed.lowercased())
    var best: (word: String, distance: Int)?
    for option in known {
      let candidate = Array(option.lowercased())
      let limit = candidate.count <= 4 ? 1 : 2
      guard abs(candidate.count - word.count) <= limit,
        let distance = distance(word, candidate, atMost: limit),
        distance < (best?.distance ?? .max)
      else { continue }
      best = (option, distance)
    }
    return best?.word
  }

  /// The optimal-string-alignment distance between `a` and `b` (edits: insert, delete,
  /// replace, swap two neighbours), or `nil` when it is over `limit`.
  package static func distance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
    guard !a.isEmpty, !b.isEmpty else {
      return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil
    }
    // Three rows of the table: the one before the previous (for swaps), the previous, this.
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, beforePrevious[j - 2] + 1)
        }
        current[j] = value
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}
