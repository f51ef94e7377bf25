import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the command writes: plain text, or ANSI colours when standard output is a terminal
/// and `NO_COLOR` is unset.
struct Terminal {
  /// Whether `−` lines are red, `+` lines green and entry headlines bold.
  var isColored: Bool

  /// Colours only on a terminal, and never with `NO_COLOR` set (to anything).
  static func standard() -> Terminal {
    Terminal(isColored: isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
  }

  /// Writes `text` and a newline to standard output, coloured line by line.
  func print(_ text: String) {
    Swift.print(isColored ? colored(text) : text)
  }

  /// Writes `replay: <line>` to standard error.
  func error(_ line: String) {
    FileHandle.standardError.write(Data("replay: \(line)\n".utf8))
  }

  /// Writes `replay: warning: <line>` to standard error.
  func warning(_ line: String) {
    error("warning: " + line)
  }

  private func colored(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      // Diff rows: at the start of a divergence's diff, two spaces in from a timeline entry.
      let marker = line.hasPrefix("  ") ? line.dropFirst(2) : line[...]
      if marker.hasPrefix("\u{2212} ") { return "\u{1B}[31m\(line)\u{1B}[0m" }
      if marker.hasPrefix("+ ") { return "\u{1B}[32m\(line)\u{1B}[0m" }
      if line.hasPrefix("#") { return "\u{1B}[1m\(line)\u{1B}[0m" }
      return String(line)
    }.joined(separator: "\n")
  }
}
