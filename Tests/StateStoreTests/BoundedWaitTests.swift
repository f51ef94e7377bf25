import Testing

@testable import StateStore

/// The package's one wait with a timeout: the first of the answer and the timeout ends it.
struct BoundedWaitTests {
  @Test func anAnswerThatIsThereAlreadyEndsTheWaitAtOnce() async {
    let value = await BoundedWait.first(timeout: .seconds(60), timedOut: 0) { $0.end(7) }
    #expect(value == 7)
  }

  @Test func theFirstAnswerEndsTheWaitAndALaterOneIsIgnored() async {
    let ends = Guarded<[Bool]>([])
    let value = await BoundedWait.first(timeout: .seconds(60), timedOut: "late") { wait in
      let first = wait.end("answer")
      let second = wait.end("again")
      ends.withLock { $0 = [first, second] }
    }
    #expect(value == "answer")
    #expect(ends.withLock { $0 } == [true, false])
  }

  @Test func anAnswerFromAnotherTaskEndsTheWait() async {
    let value = await BoundedWait.first(timeout: .seconds(60), timedOut: 0) { wait in
      Task.detached { wait.end(3) }
    }
    #expect(value == 3)
  }

  @Test func theTimeoutEndsAWaitNobodyAnswersAndSaysSo() async {
    let forgotten = Guarded(false)
    let value = await BoundedWait.first(
      timeout: .milliseconds(10), timedOut: -1, onTimeout: { forgotten.withLock { $0 = true } },
      start: { _ in })
    #expect(value == -1)
    #expect(forgotten.withLock { $0 })
  }
}
