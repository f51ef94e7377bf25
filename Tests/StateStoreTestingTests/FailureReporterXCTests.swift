import Foundation
import StateStore
import StateStoreTesting
import XCTest

/// Proves that a test store's failure fails an XCTest test at the caller's file and line.
///
/// XCTest on Linux has no `XCTExpectFailure`, so this case overrides `recordFailure`, the
/// method every `XCTFail` ends in, and keeps the failures it is told to expect instead of
/// failing. What this proves: the default reporter (`FailureReporter.testFrameworks`) calls
/// `XCTFail` when no Swift Testing test is running, with the test's file and line, and XCTest
/// routes it to the running test case. What it does not prove: how Xcode displays it.
final class FailureReporterXCTests: XCTestCase {
  private var intercepted: [(description: String, file: String, line: Int)] = []
  private var isIntercepting = false

  override func recordFailure(
    withDescription description: String,
    inFile filePath: String,
    atLine lineNumber: Int,
    expected: Bool
  ) {
    guard isIntercepting else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      return
    }
    intercepted.append((description, filePath, lineNumber))
  }

  @MainActor func testATestStoreFailureFailsTheRunningXCTestAtTheCallersLine() async {
    let store = TestStore(initialState: CounterState(), reducer: Counter())
    isIntercepting = true
    let line = #line + 1
    await store.send(.increment) { $0.count = 1 }
    isIntercepting = false

    XCTAssertEqual(intercepted.count, 1)
    XCTAssertEqual(intercepted.first?.file, #filePath)
    XCTAssertEqual(intercepted.first?.line, line)
    XCTAssertEqual(
      intercepted.first?.description,
      """
      failed - State after send(CounterAction.increment) differs from the expected state.

          CounterState(
            count: 1,
        −   isEven: true
        +   isEven: false
          )

      (Expected: −, Actual: +)
      Mutate the expected state in the trailing closure to match, or fix the reducer.
      """)
  }

  @MainActor func testAnInjectedReporterReceivesTheCallersLocation() async {
    let failures = FailureReporter.Recorder()
    let line = #line + 3
    await FailureReporter.$current.withValue(failures.reporter) {
      let store = TestStore(initialState: CounterState(), reducer: Counter())
      await store.send(.noop) { $0.count = 0 }
    }
    XCTAssertEqual(failures.failures.map(\.location.line), [line])
    XCTAssertEqual(failures.failures.map(\.location.fileID), [#fileID])
    XCTAssertEqual(failures.failures.map { "\($0.location.filePath)" }, [#filePath])
  }
}
