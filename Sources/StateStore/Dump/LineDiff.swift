extension Dump {
  /// A line diff from `old` to `new`, or `nil` when they are equal.
  ///
  /// Lines only in `old` start with `− `, lines only in `new` with `+ `, and shared lines with
  /// two spaces. With `context`, runs of unchanged lines longer than that many lines on each
  /// side of a change are folded into one `… (N unchanged)` line.
  ///
  /// ```swift
  /// Dump.diff(Dump.render(expected), Dump.render(actual), context: 1)
  /// ```
  ///
  /// <!-- sample: line-diff -->
  /// ```text
  ///     … (2 unchanged)
  ///     password: Secret(),
  /// −   isLoading: false,
  /// +   isLoading: true,
  ///     failedAttempts: 0,
  ///     … (17 unchanged)
  /// ```
  ///
  /// - Parameters:
  ///   - old: The text to diff from (the expected value, in tests).
  ///   - new: The text to diff to (the actual value, in tests).
  ///   - context: How many unchanged lines to keep around each change; `nil` keeps all.
  /// - Returns: The diff, one line per line, or `nil` when `old == new`.
  public static func diff(_ old: String, _ new: String, context: Int? = nil) -> String? {
    guard old != new else { return nil }
    let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let newLines = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var rows = LineDiffer.diff(oldLines, newLines)
    if let context { rows = LineDiffer.fold(rows, context: max(0, context)) }
    return rows.map(\.text).joined(separator: "\n")
  }

  /// The diff between the renderings of two values, or `nil` when they render the same.
  ///
  /// The values are walked together, and only what differs is rendered in full: equal parts
  /// are compared with `==`, and a long run of equal elements in a collection shows as one
  /// `… (N unchanged)` line with a few elements kept on each side of a change. A 100,000-item
  /// state that changed one item diffs in milliseconds. Without such a run, the diff is the
  /// line diff of `render(old)` and `render(new)`.
  ///
  /// - Parameters:
  ///   - old: The value to diff from.
  ///   - new: The value to diff to.
  ///   - context: How many unchanged lines to keep around each change; `nil` keeps all.
  /// - Returns: The line diff, or `nil` when both render the same.
  public static func diff(of old: Any, and new: Any, context: Int? = nil) -> String? {
    let (oldText, newText) = renderedForDiff(old, new)
    return diff(oldText, newText, context: context)
  }

  /// Both values rendered for ``diff(of:and:context:)``: in full where they differ, with long
  /// runs of equal collection elements folded the same way in both.
  ///
  /// - Parameters:
  ///   - old: The value to diff from.
  ///   - new: The value to diff to.
  /// - Returns: The two renderings.
  public static func renderedForDiff(_ old: Any, _ new: Any) -> (old: String, new: String) {
    var renderer = DifferenceRenderer(keep: 3)
    return renderer.render(old, new, indent: 0)
  }
}

enum LineDiffer {
  enum Row: Equatable {
    case same(String)
    case removed(String)
    case added(String)
    case folded(Int, indent: String)

    var line: String {
      switch self {
      case .same(let line), .removed(let line), .added(let line): line
      case .folded: ""
      }
    }

    var text: String {
      switch self {
      case .same(let line): "  " + line
      case .removed(let line): "\u{2212} " + line
      case .added(let line): "+ " + line
      case .folded(let count, let indent): "  " + indent + "… (\(count) unchanged)"
      }
    }
  }

  // Longest-common-subsequence tables grow with the product of the sizes; past this the middle
  // of the diff is shown as a plain replacement instead.
  static let tableLimit = 4_000_000

  static func diff(_ old: [String], _ new: [String]) -> [Row] {
    let (prefix, suffix) = old.commonEnds(with: new)
    let oldMiddle = Array(old[prefix..<(old.count - suffix)])
    let newMiddle = Array(new[prefix..<(new.count - suffix)])

    var rows = old[..<prefix].map(Row.same)
    rows += middle(oldMiddle, newMiddle)
    rows += old[(old.count - suffix)...].map(Row.same)
    return rows
  }

  private static func middle(_ old: [String], _ new: [String]) -> [Row] {
    let n = old.count
    let m = new.count
    guard n > 0, m > 0, n * m <= tableLimit else {
      return old.map(Row.removed) + new.map(Row.added)
    }
    // lengths[i][j]: LCS length of old[i...] and new[j...], stored flat.
    var lengths = [Int](repeating: 0, count: (n + 1) * (m + 1))
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        lengths[i * (m + 1) + j] =
          old[i] == new[j]
          ? lengths[(i + 1) * (m + 1) + j + 1] + 1
          : max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
      }
    }
    var rows: [Row] = []
    var i = 0
    var j = 0
    while i < n, j < m {
      if old[i] == new[j] {
        rows.append(.same(old[i]))
        i += 1
        j += 1
      } else if lengths[(i + 1) * (m + 1) + j] >= lengths[i * (m + 1) + j + 1] {
        rows.append(.removed(old[i]))
        i += 1
      } else {
        rows.append(.added(new[j]))
        j += 1
      }
    }
    rows += old[i...].map(Row.removed)
    rows += new[j...].map(Row.added)
    return rows
  }

  static func fold(_ rows: [Row], context: Int) -> [Row] {
    var result: [Row] = []
    var index = 0
    while index < rows.count {
      guard case .same = rows[index] else {
        result.append(rows[index])
        index += 1
        continue
      }
      var end = index
      while end < rows.count, case .same = rows[end] { end += 1 }
      let keepBefore = index == 0 ? 0 : context
      let keepAfter = end == rows.count ? 0 : context
      let runLength = end - index
      if runLength > keepBefore + keepAfter + 1 {
        result += rows[index..<(index + keepBefore)]
        // Align the marker with the folded line next to the visible content: the last one of a
        // leading run, the first one otherwise.
        let adjacent = index == 0 ? rows[end - keepAfter - 1] : rows[index + keepBefore]
        let indent = String(adjacent.line.prefix { $0 == " " })
        result.append(.folded(runLength - keepBefore - keepAfter, indent: indent))
        result += rows[(end - keepAfter)..<end]
      } else {
        result += rows[index..<end]
      }
      index = end
    }
    return result
  }
}
