import Foundation
import LoginFeature
import LoginHTTPClient
import StateStoreTesting
import Testing
import ToolTestSupport

/// `HTTPLoginAPI` against answers that keep FoundationNetworking busy: a trailer flood and a body
/// in one-byte chunks.
///
/// They run only with `LOGINSTORE_FLOOD_TESTS=1`, in a `swift test` of their own (`.ci/run` has a
/// step for them). FoundationNetworking (Linux) runs every URLSession of a process on one serial
/// queue and reads such an answer to its end, whatever the client does: the login returns at its
/// deadline, but meanwhile every other URLSession in the process — every other test's — waits
/// for seconds, and their deadlines pass. For the same reason they run one at a time, the trailer
/// flood last: URLSession parses its trailers for seconds after the test has ended.
@Suite(
  .serialized,
  .enabled(
    if: ProcessInfo.processInfo.environment["LOGINSTORE_FLOOD_TESTS"] == "1",
    "they stall every URLSession of the test process; run them alone with LOGINSTORE_FLOOD_TESTS=1"
  ))
struct HTTPLoginAPIFloodTests {
  @Test func oneByteChunksEndTheLoginEarlyWithBoundedMemory() async throws {
    // 1.2 MB on the wire for a 200,000-byte body, within the 1 MiB cap. FoundationNetworking
    // keeps a few hundred bytes for every piece it hands over until the transfer ends: a
    // million such chunks used to hold about 330 MiB and, on two cores, take 15–21 s against a
    // 2 s deadline. (Fewer here: URLSession still reads them all after the login has ended,
    // and every session of the process waits meanwhile.)
    try await MemoryHeavyTests.shared.run {
      let server = try await FixtureServer.start(arguments: ["--crumbs", "200000"])
      defer { server.stop() }
      // The deadline is on a clock that never moves: only the cap can end this login.
      let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(2), clock: TestClock())

      // A first login against the same server sets up what URLSession keeps for the process
      // (its queues, threads and libcurl's state: several MiB on the first use). They are not
      // what this test measures.
      #expect(await api.loginResult("cookie").map(\.token) == .success("fixture-token-cookie"))

      // The peak is process-wide: reset it to the current resident size first (Linux
      // `clear_refs` 5), as the action log's bounded-memory tests do.
      let canReset = Memory.resetPeak()
      let before = Memory.kibibytes("VmRSS")
      let result = await api.loginResult("crumbs")
      let peak = Memory.kibibytes(canReset ? "VmHWM" : "VmRSS")

      // Ended as an answer too large to read: the cap ended it, as the deadline cannot.
      #expect(result == .failure(.decodingFailed))
      // The loader holds at most 4,096 pieces within the 1 MiB cap. FoundationNetworking's own
      // few hundred bytes a piece go on until it gets to the cancellation, on its one queue:
      // how far it gets by then depends on the machine (3–8 MiB here on two cores, 18 MiB seen
      // on another). Without the cap the login reads all 200,000 pieces, past 40 MiB.
      if Memory.isMeasurable {
        #expect(peak - before < 32 * 1024, "the peak grew by \(peak - before) KiB")
      }
    }
  }

  @Test func aTrailerFloodTimesOutAtTheDeadlineAndOtherWorkKeepsRunning() async throws {
    // A chunked 200 whose last chunk comes at once, followed by trailer lines for 10 s without
    // end. FoundationNetworking parses them on the one queue all its sessions share, and
    // cancelling the task waits on that queue: the login used to return only when the flood
    // ended and URLSession caught up (a 4 s flood took 23–25 s), with a cooperative thread
    // blocked all along. The deadline runs on a clock the test moves, so the check is of order,
    // not of durations: the login and the main actor are done while the flood still runs.
    let server = try await FixtureServer.start(arguments: ["--hostile-seconds", "10"])
    defer { server.stop() }
    let clock = TestClock()
    let api = HTTPLoginAPI(baseURL: server.baseURL, timeout: .seconds(1), clock: clock)

    let login = Task { await api.loginResult("trailers") }
    #expect(await server.waitForRequest(from: "trailers"))
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(1))
    #expect(await login.value == .failure(.timeout))
    // The main actor runs meanwhile: nothing it waits for is behind URLSession's queue.
    await MainActor.run {}
    #expect(
      !server.printedLines.contains("HOSTILE trailers DONE"),
      "the login or the main actor waited for the flood to end")
  }
}
