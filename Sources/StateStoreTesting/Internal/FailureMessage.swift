import StateStore

/// Builds failure messages in the house format: a headline, a blank line, an indented `−`/`+`
/// diff, a blank line, the legend, then how to fix it.
enum FailureMessage {
  static let legend = "(Expected: −, Actual: +)"

  /// `headline`, the diff of `expected` and `actual` indented by two spaces, the legend and
  /// `fix`.
  static func diff(
    _ headline: String,
    expected: String,
    actual: String,
    context: Int? = nil,
    fix: String
  ) -> String {
    guard let diff = Dump.diff(expected, actual, context: context) else {
      // Different values with the same rendering: they differ inside a secret.
      let same = indent(actual, by: "  ")
      let note = "(Both render the same: they differ inside a secret, which shows its mask only.)"
      return [headline, "", indent(same), "", note, fix].joined(separator: "\n")
    }
    return [headline, "", indent(diff), "", legend, fix].joined(separator: "\n")
  }

  /// `headline`, the diff of the values `expected` and `actual` (rendered where they differ,
  /// see `Dump.diff(of:and:context:)`), the legend and `fix`.
  static func diff(
    _ headline: String,
    expectedValue expected: Any,
    actualValue actual: Any,
    fix: String
  ) -> String {
    let (expectedText, actualText) = Dump.renderedForDiff(expected, actual)
    return diff(headline, expected: expectedText, actual: actualText, fix: fix)
  }

  /// `headline`, the given lines indented by two spaces, and `fix`.
  static func list(_ headline: String, _ lines: [String], fix: String) -> String {
    [headline, "", indent(lines.joined(separator: "\n")), "", fix].joined(separator: "\n")
  }

  static func indent(_ text: String, by prefix: String = "  ") -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : prefix + $0 }
      .joined(separator: "\n")
  }

  /// "1 effect", "2 effects".
  static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
