import ActionLog
import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replay --follow LOG|DIR`: the timeline of a log as the app writes it, like `tail -f`,
/// verified step by step, until Ctrl-C.
///
/// Every step written so far is printed first, then each new one as it arrives. A log that
/// ends (the app closed it) or stops (the recorder gave up) says so; a log that is recorded
/// again from the start (the app launched again with the same `--record` path) says that a new
/// recording begins and replays it from its header. In a flight recorder's folder the segments
/// are followed in order as they are written and rolled, each launch said where it begins.
/// A divergence or a bad line ends the command with its usual exit status.
extension ReplayRun {
  /// How many looks at a folder whose segment ended find no next one before the recording
  /// is said to have ended (a roll-over creates the next segment right after closing one).
  static var rollOverGrace: Int { 5 }

  /// Follows the log at `url`; returns only by throwing.
  func follow(_ url: URL) throws(ReplayFailure) {
    let printer = FollowPrinter(output: output)
    var recordings = 0
    while true {
      try Self.waitForHeader(of: url)
      let session: ReplaySession<R>
      do {
        session = try Replayer(reducer: reducer).following(
          url, options: ActionLogReadOptions(expectedFeature: feature))
      } catch {
        throw .log(error)
      }
      recordings += 1
      if recordings > 1 {
        printer.steps.restart()
        printer.say(
          "a new recording begins in \(url.lastPathComponent) "
            + "(\(session.header.created.formatted(.iso8601)))")
      }
      var saidEnd = false
      while true {
        try drain(session, printer: printer) { _ in }
        if session.hasEnded, !saidEnd {
          printer.say(Self.ending(of: session))
          saidEnd = true
        }
        // Told by the open file itself, not by a look at the path taken after it was opened:
        // a recording made again at once (deleted first or not) is seen whatever the timing.
        if session.isReplaced() { break }
        FollowedFile.pause()
      }
    }
  }

  /// Follows the segments of the flight recorder's folder at `url`; returns only by
  /// throwing.
  func follow(folder url: URL) throws(ReplayFailure) {
    let printer = FollowPrinter(output: output)
    var lastNumber = 0
    // Launches that write into the folder at the same time interleave their segments: each is
    // counted on its own (its number, its last step), by the launch its headers name.
    var launches: [String?: (number: Int, lastSequence: Int?)] = [:]
    var lastLaunch: String??
    var launchCount = 0
    while true {
      guard let segment = Self.segment(after: lastNumber, in: url) else {
        FollowedFile.pause()
        continue
      }
      // A segment deleted before its header could be read (the recorder rotated it out while
      // this looked elsewhere) is passed over; its steps are said rotated out before the next.
      guard Self.waitForHeader(ofSegment: segment.url) else {
        lastNumber = segment.number
        continue
      }
      let session: ReplaySession<R>
      do {
        session = try Replayer(reducer: reducer).following(
          segment.url, options: ActionLogReadOptions(expectedFeature: feature))
      } catch {
        if !FileManager.default.fileExists(atPath: segment.url.path) {
          lastNumber = segment.number
          continue
        }
        throw .log(error)
      }
      let name = segment.url.lastPathComponent
      let launch = session.header.launch
      var saidEnd = false
      var endedPolls = 0
      if let seen = launches[launch], lastLaunch != nil, lastLaunch != launch {
        printer.say("launch \(seen.number) goes on in \(name)")
      }
      if lastLaunch != launch { printer.steps.restart() }
      lastLaunch = launch
      // Says where a launch begins and what was rotated out, before the step.
      func note(_ step: ReplayStep<R>) {
        let lastSequence = launches[launch]?.lastSequence
        if lastSequence == nil, step.sequenceNumber > 1 {
          let steps = step.sequenceNumber - 1
          printer.say(
            "\(steps) step\(steps == 1 ? " was" : "s were") rotated out before the window kept")
        } else if let last = lastSequence, step.sequenceNumber > last + 1 {
          // The recorder wrote faster than this reads, and deleted segments not read yet.
          let steps = step.sequenceNumber - last - 1
          printer.say(
            "\(steps) step\(steps == 1 ? " was" : "s were") rotated out before they were read")
        }
        if lastSequence == nil || step.sequenceNumber == 1 {
          launchCount += 1
          launches[launch] = (launchCount, nil)
          printer.say(
            "launch \(launchCount) begins in \(name) "
              + "(\(session.header.created.formatted(.iso8601)))")
        }
        launches[launch]?.lastSequence = step.sequenceNumber
      }
      while true {
        try drain(session, printer: printer, before: note)
        let newer = Self.segment(after: segment.number, in: url)
        if session.hasEnded || newer != nil {
          // Whatever the writer appended before it moved on is read before moving on too.
          try drain(session, printer: printer, before: note)
          if !saidEnd, case .recordingStopped = session.warnings.last {
            printer.say(Self.ending(of: session))
            saidEnd = true
          }
          if newer != nil { break }
          // A segment that rolled over has its successor at once; a launch that ended has
          // none until the app starts again.
          endedPolls += 1
          if endedPolls == Self.rollOverGrace, !saidEnd {
            printer.say("the recording ended in \(name); waiting for the next launch")
            saidEnd = true
          }
        }
        FollowedFile.pause()
      }
      lastNumber = segment.number
    }
  }

  /// Prints every step the session has for now, and what the recorder warned of between
  /// them (a segment it could not delete); `before` sees each step first.
  private func drain(
    _ session: ReplaySession<R>, printer: FollowPrinter,
    before: (ReplayStep<R>) -> Void
  ) throws(ReplayFailure) {
    var seen = session.warnings.count
    func sayWarnings() {
      for warning in session.warnings.dropFirst(seen) {
        if case .recorderWarning = warning { printer.say("warning: \(warning)") }
      }
      seen = session.warnings.count
    }
    do {
      while let step = try session.next() {
        sayWarnings()
        before(step)
        printer.step(step)
      }
      sayWarnings()
    } catch {
      throw .log(error)
    }
  }

  private static func ending(of session: ReplaySession<R>) -> String {
    for warning in session.warnings.reversed() {
      if case .recordingStopped(_, let reason) = warning {
        return "the recording stopped: \(reason)"
      }
    }
    return "the recording ended: the app closed its log"
  }

  /// The oldest segment numbered after `number`, if the folder has one.
  private static func segment(after number: Int, in folder: URL) -> FlightRecording.Segment? {
    // A folder that is not there yet, or has no segment yet, is waited for like an empty one.
    let numbers = try? FlightRecording.segmentNumbers(in: folder)
    // What bears a segment's name but is not a file (a FIFO would block its reader) is not one.
    return numbers?.lazy.filter { $0 > number }
      .map { FlightRecording.Segment(number: $0, url: FlightRecording.segmentURL($0, in: folder)) }
      .first { FlightRecording.notAFile($0.url) == nil }
  }

  /// Waits until the file at `url` holds its header line whole (the app may not have
  /// started, or may be writing it).
  private static func waitForHeader(of url: URL) throws(ReplayFailure) {
    while !FollowedFile.hasWholeFirstLine(url) { FollowedFile.pause() }
  }

  /// Waits until a segment's header is whole: `false` when the segment is deleted first.
  private static func waitForHeader(ofSegment url: URL) -> Bool {
    while !FollowedFile.hasWholeFirstLine(url) {
      guard FileManager.default.fileExists(atPath: url.path) else { return false }
      FollowedFile.pause()
    }
    return true
  }
}

/// Prints followed steps and the lines between them, a blank line apart.
private final class FollowPrinter {
  let output: ReplayOutput
  var steps = PrintedSteps()
  var printed = false

  init(output: ReplayOutput) {
    self.output = output
  }

  func say(_ line: String) {
    if printed { output.print("") }
    output.print("── " + line + " ──")
    printed = true
  }

  func step<R: Reducer>(_ step: ReplayStep<R>)
  where R.State: Encodable, R.Action: Encodable, R.Effect: Encodable {
    if printed { output.print("") }
    output.print(steps.text(of: step))
    printed = true
  }
}

/// What `--follow` waits for in a file the app may not have created yet, or may be writing.
enum FollowedFile {
  /// How often a file is looked at again once everything in it has been read.
  static var pollInterval: Duration { .milliseconds(100) }

  /// Waits one ``pollInterval``.
  ///
  /// The follow loops wait without a bound on purpose: like `tail -f`, until Ctrl-C.
  static func pause() {
    // Not `BoundedWait.poll`: `ReplayCommand.run` is synchronous; a `Clock` sleeps only in async.
    let (seconds, attoseconds) = pollInterval.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// Whether the file at `url` holds its first line whole: until it does, the app has not
  /// written its header, and the file is waited for; once it does, a header that does not
  /// read is an error, not something to wait for.
  ///
  /// A file that is not there, or cannot be read yet, does not.
  ///
  /// - Parameter url: The log, or a segment of a folder.
  /// - Returns: Whether the first line ends.
  static func hasWholeFirstLine(_ url: URL) -> Bool {
    // Not there yet: waited for. Something that is not a file (a FIFO would block this open):
    // the reader refuses it, with its reason, at once.
    var info = stat()
    guard stat(url.path, &info) == 0 else { return false }
    if FileKind.notRegular(info.st_mode) != nil { return true }
    // Not readable: the same to a follower as not written yet.
    guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
    defer { try? handle.close() }
    var read = 0
    while read <= ActionLogReadOptions.defaultMaximumLineLength {
      guard let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty else {
        return false
      }
      if chunk.contains(UInt8(ascii: "\n")) { return true }
      read += chunk.count
    }
    // A first line longer than the reader takes: it refuses the line, saying so. (A header
    // holding a large state is megabytes: it is waited for until then.)
    return true
  }
}
