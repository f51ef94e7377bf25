import StateStore
import StateStoreTesting
import Testing

/// `#require` before every release: a call that was never held would leave its task waiting
/// for an answer forever, so the test stops there instead.
@MainActor
struct HeldCallsTests {
  @Test func heldCallsAreAnsweredInAnyOrder() async {
    let held = HeldCalls<String, Int>()
    let first = Task { await held.hold("first") }
    let second = Task { await held.hold("second") }
    #expect(await held.waitForCall(timeout: .seconds(10)) { $0 == "first" } == "first")
    #expect(await held.waitForCall(timeout: .seconds(10)) { $0 == "second" } == "second")
    #expect(held.count == 2)

    #expect(held.release(2, where: { $0 == "second" }) == "second")
    #expect(await second.value == 2)
    #expect(held.requests == ["first"])
    #expect(held.release(1) == "first")
    #expect(await first.value == 1)
    #expect(held.release(3) == nil)
  }

  @Test func anAnswerCanBeMadeFromTheRequest() async throws {
    let held = HeldCalls<String, Int>()
    let call = Task { await held.hold("four") }
    try #require(await held.waitForCall(timeout: .seconds(10)) == "four")
    held.release(where: { _ in true }, with: { $0.count })
    #expect(await call.value == 4)
  }

  @Test func waitingTimesOutWithNilWhenNoCallMeetsTheCondition() async throws {
    let held = HeldCalls<String, Int>()
    #expect(await held.waitForCall(timeout: .milliseconds(20)) == nil)
    let call = Task { await held.hold("other") }
    try #require(await held.waitForCall(timeout: .seconds(10)) == "other")
    #expect(await held.waitForCall(timeout: .milliseconds(20)) { $0 == "wanted" } == nil)
    held.release(0)
    _ = await call.value
  }

  @Test func cancellingAHeldCallEndsItWithNil() async throws {
    let held = HeldCalls<String, Int>()
    let call = Task { await held.hold("call") }
    try #require(await held.waitForCall(timeout: .seconds(10)) == "call")
    call.cancel()
    #expect(await call.value == nil)
    #expect(held.count == 0)
  }

  @Test func aCallThatIgnoresCancellationWaitsForItsAnswer() async throws {
    let held = HeldCalls<String, Int>()
    let call = Task { await held.hold("call", honoringCancellation: false) }
    try #require(await held.waitForCall(timeout: .seconds(10)) == "call")
    call.cancel()
    #expect(held.count == 1)
    held.release(7)
    #expect(await call.value == 7)
  }
}
