import ReplayTool
import StateStore

/// Everything a `ReplayOutput` was given, standard output and standard error apart: for tests
/// that run a `ReplayCommand` in the process.
package final class CapturedReplayOutput: Sendable {
  private let text = Guarded(("", ""))

  package init() {}

  /// What was written to standard output.
  package var standardOutput: String { text.withLock { $0.0 } }
  /// What was written to standard error.
  package var standardError: String { text.withLock { $0.1 } }

  /// An uncoloured output that keeps the text.
  package var output: ReplayOutput {
    ReplayOutput(
      isColored: false, write: { piece in self.text.withLock { $0.0 += piece } },
      writeError: { piece in self.text.withLock { $0.1 += piece } })
  }
}
