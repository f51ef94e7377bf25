import ActionLog
import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a ``ReplayCommand`` writes: standard output and standard error by default, or any
/// two functions — a debug menu in a host app, or a test that keeps the text.
///
/// ```swift
/// var text = ""
/// let output = ReplayOutput(isColored: false, write: { text += $0 }, writeError: { _ in })
/// _ = command.run(["--state", "bug-42.jsonl"], output: output)
/// ```
public struct ReplayOutput: Sendable {
  /// Whether `−` lines are red, `+` lines green and entry headlines bold (ANSI colours).
  public var isColored: Bool
  let writeOut: @Sendable (String) -> Void
  let writeErr: @Sendable (String) -> Void
  /// Why writing standard output failed (a full disk, a closed pipe), or `nil`; only the
  /// standard output can tell.
  var writeFailure: @Sendable () -> String?
  /// Whether standard error is a terminal a person watches (progress goes there), and whether
  /// standard output is the same kind (then nothing is drawn over what it prints).
  var terminals = (output: false, error: false)

  /// Creates an output from two writers.
  ///
  /// - Parameters:
  ///   - isColored: Whether to add ANSI colours.
  ///   - write: Receives standard-output text, each piece ending with a newline.
  ///   - writeError: Receives standard-error text, each piece one line ending with a newline.
  public init(
    isColored: Bool,
    write: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void
  ) {
    self.isColored = isColored
    self.writeOut = write
    self.writeErr = writeError
    self.writeFailure = { nil }
  }

  /// Standard output and standard error, with colours only when standard output is a
  /// terminal and `NO_COLOR` is unset. When standard error is a terminal, a long replay also
  /// draws its progress there, one line over itself, cleared before anything else is said;
  /// an output made with ``init(isColored:write:writeError:)`` never gets it.
  ///
  /// A failed write to standard output (a full disk, say) is not lost: ``ReplayCommand``
  /// reports it as `write error: …` and exits with status 1.
  public static var standard: ReplayOutput {
    let output = StandardStream(STDOUT_FILENO)
    let error = StandardStream(STDERR_FILENO)
    var standard = ReplayOutput(
      isColored: isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil,
      write: { output.write($0) },
      writeError: { error.write($0) })
    standard.writeFailure = { output.failure }
    standard.terminals = (isatty(1) == 1, isatty(2) == 1)
    return standard
  }

  /// Writes `text` and a newline to standard output, coloured line by line.
  func print(_ text: String) {
    writeOut((isColored ? colored(text) : text) + "\n")
  }

  /// Writes `<tool>: <line>` to standard error.
  func error(_ line: String, tool: String) {
    writeErr("\(tool): \(line)\n")
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

/// A file descriptor written with `WriteAll`, keeping the first error: after it, nothing more
/// is written.
final class StandardStream: Sendable {
  private let descriptor: Int32
  private let state = Guarded<String?>(nil)

  init(_ descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// The first write error, in words (`No space left on device`), or `nil`.
  var failure: String? { state.withLock { $0 } }

  func write(_ text: String) {
    state.withLock { failure in
      guard failure == nil else { return }
      if let errorNumber = WriteAll.write(text, to: descriptor) {
        failure = SystemError.message(errorNumber)
      }
    }
  }
}
