import StateStore

/// Collects the runtime warnings reported while its ``reporter`` is bound, so that a test that
/// expects warnings asserts their text instead of letting them reach standard error.
///
/// ```swift
/// let warnings = WarningLog()
/// RuntimeWarning.$reporter.withValue(warnings.reporter) { store.send(.child(.tapped)) }
/// #expect(warnings.messages == ["… was sent to the optional child 'child', which is absent; …"])
/// ```
package final class WarningLog: Sendable {
  private let storage = Guarded<[String]>([])

  package init() {}

  /// Every message reported so far, in order.
  package var messages: [String] { storage.withLock { $0 } }

  /// A reporter that appends each warning's message to ``messages``.
  package var reporter: RuntimeWarning.Reporter {
    RuntimeWarning.Reporter { warning in self.storage.withLock { $0.append(warning.message) } }
  }
}
