import StateStore
import Testing

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

  /// The messages that are not the warning for an action sent to an optional child that is
  /// absent: what a test that sends such actions on purpose (a replay of damaged logs, random
  /// action sequences) did not expect.
  package var unexpectedMessages: [String] {
    messages.filter { !Self.isAbsentChildWarning($0) }
  }

  /// Whether `message` is the warning for an action sent to an optional child that is absent.
  package static func isAbsentChildWarning(_ message: String) -> Bool {
    message.contains(" was sent to the optional child '")
      && message.hasSuffix("', which is absent; the action was ignored.")
  }

  /// Runs `body`, which sends actions to optional children that may be absent on purpose (random
  /// or damaged action sequences), capturing its runtime warnings: the absent-child ones are
  /// expected, any other is recorded as an issue at the caller.
  ///
  /// - Parameters:
  ///   - sourceLocation: Where an unexpected warning is reported.
  ///   - body: The work that may warn.
  /// - Returns: What `body` returns.
  package static func expectingAbsentChildWarnings<T>(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T
  ) rethrows -> T {
    let log = WarningLog()
    let result = try RuntimeWarning.$reporter.withValue(log.reporter, operation: body)
    for message in log.unexpectedMessages {
      Issue.record("An unexpected runtime warning: \(message)", sourceLocation: sourceLocation)
    }
    return result
  }

  /// A reporter that appends each warning's message to ``messages``.
  package var reporter: RuntimeWarning.Reporter {
    RuntimeWarning.Reporter { warning in self.storage.withLock { $0.append(warning.message) } }
  }
}
