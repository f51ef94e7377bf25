import StateStore
import StateStoreTesting
import Testing

/// Proves that a test store's failure fails the running Swift Testing test at the caller's line,
/// through the default reporter (`FailureReporter.testFrameworks`, which calls `Issue.record`).
/// The one test of the suite that reports its failure for real, as a known issue: every other
/// test of failures captures them (`expectFailures`), so a passing run says only that it passed.
/// `FailureReporterXCTests` proves the same for XCTest.
@MainActor
struct FailureReporterTests {
  @Test func aTestStoreFailureFailsTheRunningTestAtTheCallersLine() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    let seen = SeenIssues()
    let line = #line + 2
    await withKnownIssue("the failure this test proves is reported") {
      await store.send(.increment) { $0.count = 2 }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined(separator: "\n")
      seen.texts.withLock { $0.append(text) }
      return issue.sourceLocation?.line == line
        && text.hasPrefix("State after send(CounterAction.increment) differs")
    }
    #expect(seen.texts.withLock { $0 }.count == 1, "\(seen.texts.withLock { $0 })")
  }
}
