extension Clock where Duration == Swift.Duration {
  /// Sleeps one second and calls `tick`, `seconds` times: the countdown of a "resend" timer
  /// effect. Returns early, without a tick, when the task is cancelled.
  func countDown(seconds: Int, tick: () async -> Void) async {
    for _ in 0..<max(0, seconds) {
      do {
        try await sleep(for: .seconds(1))
      } catch {
        return
      }
      await tick()
    }
  }
}
