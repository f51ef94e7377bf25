import Foundation
import Testing
import ToolTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The tests' one process runner stops a program the way each promise says (issue 49 §5: it had
/// no tests of its own, and a runner that sent the wrong signal went unnoticed).
struct ProcessRunnerTests {
  /// `interruptWhen` stops a program with SIGTERM, as a process manager does: one that traps it
  /// ends in its own way.
  @Test func anInterruptIsASigtermTheProgramCanAnswer() async throws {
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "trap 'echo stopped; exit 7' TERM; echo ready; while :; do sleep 0.05; done"],
      timeout: .seconds(60), interruptWhen: { $0.contains("ready") })
    #expect(result.status == 7, "\(result)")
    #expect(result.stdout == "ready\nstopped\n", "\(result)")
    #expect(!result.timedOut)
  }

  /// At its timeout a program is killed with SIGKILL, which it cannot ignore: one that ignores
  /// SIGTERM does not hold the run.
  @Test func aTimeoutIsASigkillEvenForAProgramThatIgnoresSigterm() async throws {
    let result = try await ProcessRunner.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' TERM; echo ready; exec sleep 30"],
      timeout: .seconds(1))
    #expect(result.timedOut, "\(result)")
    #expect(result.status == SIGKILL, "\(result)")
    #expect(result.stdout == "ready\n")
  }
}
