import ActionLog
import Foundation
import StateStore

/// Progress of a long replay on standard error, for a person watching a terminal: the steps
/// done, the rate and the time left, on one line drawn over itself and cleared at the end.
///
/// <!-- sample: replay-progress -->
/// ```text
/// replay: 120,000 steps · 80,000 steps/s · about 6 seconds left
/// ```
///
/// It shows only after the work has taken half a second (short replays print nothing extra),
/// only when standard error is a terminal, and never over a timeline being printed to the same
/// terminal. The time left comes from the bytes of the log read so far against its size.
package final class ReplayProgress {
  /// What the progress is of, with the bytes read so far, for the time left.
  package struct Reading {
    package var steps: Int
    package var bytes: Int

    package init(steps: Int, bytes: Int) {
      self.steps = steps
      self.bytes = bytes
    }
  }

  private let totalBytes: Int
  private let write: (String) -> Void
  private let now: () -> ContinuousClock.Instant
  private let started: ContinuousClock.Instant
  private var nextDraw: ContinuousClock.Instant
  private var isShown = false
  private var calls = 0

  /// The delay before the first line, and between two lines.
  static var firstDelay: Duration { .milliseconds(500) }
  static var interval: Duration { .milliseconds(250) }

  /// A progress line for `output`, or `nil` when nobody watches one: standard error is not a
  /// terminal, or standard output prints to the terminal as the replay goes.
  static func make(
    totalBytes: Int, output: ReplayOutput, printsAsItGoes: Bool
  ) -> ReplayProgress? {
    guard output.terminals.error, !(printsAsItGoes && output.terminals.output) else {
      return nil
    }
    return ReplayProgress(totalBytes: totalBytes, write: output.writeErr)
  }

  package init(
    totalBytes: Int, write: @escaping (String) -> Void,
    now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }
  ) {
    self.totalBytes = totalBytes
    self.write = write
    self.now = now
    started = now()
    nextDraw = started + Self.firstDelay
  }

  /// Notes the work done; draws a line when one is due. Cheap: it looks at the clock every
  /// 256 calls only.
  package func update(_ reading: @autoclosure () -> Reading) {
    calls += 1
    guard calls & 255 == 0 else { return }
    let time = now()
    guard time >= nextDraw else { return }
    nextDraw = time + Self.interval
    write("\r\u{1B}[K" + Self.line(reading(), elapsed: time - started, totalBytes: totalBytes))
    isShown = true
  }

  /// Removes the line, if one is showing: before other text on standard error, and at the end.
  package func clear() {
    guard isShown else { return }
    write("\r\u{1B}[K")
    isShown = false
  }

  /// The bytes of the files at `urls` together; a file that cannot be looked at counts 0
  /// (the replay that opens it reports why).
  static func size(of urls: [URL]) -> Int {
    urls.reduce(0) { total, url in
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
      return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
  }

  /// How far `replay` is through its folder, in bytes: the segments before the one it reads
  /// (their `sizes`, in order), and what it read of that one.
  static func bytesRead<R>(of replay: FlightReplay<R>, sizes: [Int]) -> Int {
    let segments = replay.recording.segments
    let index = replay.currentSegment.flatMap { segments.firstIndex(of: $0) } ?? sizes.count
    return sizes.prefix(index).reduce(0, +) + replay.bytesReadInSegment
  }

  /// `replay: 120,000 steps · 85,000 steps/s · about 6 seconds left`.
  package static func line(_ reading: Reading, elapsed: Duration, totalBytes: Int) -> String {
    let seconds =
      Double(elapsed.components.seconds)
      + Double(elapsed.components.attoseconds) / 1e18
    var text = "replay: \(grouped(reading.steps)) steps"
    guard seconds > 0 else { return text }
    text += " · \(grouped(Int(Double(reading.steps) / seconds))) steps/s"
    if reading.bytes > 0, totalBytes > reading.bytes {
      let left = seconds * Double(totalBytes - reading.bytes) / Double(reading.bytes)
      text += " · about \(Duration.seconds(max(1, Int(left.rounded()))).inWords) left"
    }
    return text
  }

  private static func grouped(_ value: Int) -> String {
    Duration.grouped(UInt128(max(0, value)))
  }
}
