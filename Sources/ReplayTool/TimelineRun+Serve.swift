import ActionLog
import Dispatch
import Foundation
import StateStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `replay --serve LOG|DIR`: the timeline page served on `127.0.0.1` while the app writes the
/// log, until Ctrl-C (or `SIGTERM`), then exit status 0.
///
/// Whenever the log (or a segment of the folder) changes, the page is made again from the
/// start, verified, as `--html` makes it, in memory; a log recorded again from its header, a
/// truncated one and a folder's new launches and rotated-out segments are therefore shown as
/// `--html` would show them at that moment. An open page asks `/steps` whether there are more
/// steps than it shows and loads itself again when there are (`timeline-live.js`).
///
/// Endpoints, each behind ``LiveTimelineGate``: `GET /?token=…` the page; `GET /steps?token=…&
/// known=N` `{"steps":M}` at once when `M ≠ N`, else after about a second.
extension TimelineRun {
  /// How often the log is looked at for changes.
  static var servePollInterval: Duration { .milliseconds(20) }

  /// Serves the page of the log or folder at `url` until `SIGINT` or `SIGTERM`.
  func serve(_ url: URL, isFolder: Bool) throws(ReplayFailure) {
    let stop = ServeStop()
    let page = Guarded(LivePage())
    let server: LoopbackServer
    let gateBox = Guarded<LiveTimelineGate?>(nil)
    do {
      server = try LoopbackServer(port: options.port ?? 0) { request in
        guard let gate = gateBox.withLock({ $0 }) else { return .plain(503, "starting") }
        return LivePage.answer(request, gate: gate, page: page)
      }
    } catch {
      throw .usage("--serve: \(error.description)")
    }
    defer { server.stop() }
    let gate = LiveTimelineGate(port: server.port)
    gateBox.withLock { $0 = gate }
    var seen: [Int]?
    var saidOverSize = false
    var printed = false
    while !stop.isRequested {
      let now = Self.fingerprint(of: url, isFolder: isFolder)
      if now != seen {
        seen = now
        let urls = isFolder ? Self.segments(of: url) : [url]
        if ReplayProgress.size(of: urls) > TimelinePage.maximumLogBytes {
          if !saidOverSize {
            output.error(
              "the log is over \(TimelinePage.maximumLogBytes >> 20) MiB: the page stops "
                + "here (the server goes on until Ctrl-C)", tool: options.tool)
            saidOverSize = true
          }
        } else if let made = make(url, isFolder: isFolder) {
          page.withLock { $0 = made }
        }
        if !printed {
          output.print(
            "serving the timeline of \(Sanitized.path(options.file)) at \(gate.pageURL)")
          printed = true
        }
      }
      let (seconds, attoseconds) = Self.servePollInterval.components
      Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
  }

  /// The page of the log as it is now; `nil` when it cannot be read at the moment (a header
  /// being rewritten): the page served stays the last one made.
  private func make(_ url: URL, isFolder: Bool) -> LivePage? {
    let file = TimelineOutputFile.inMemory()
    let silent = ReplayOutput(isColored: false, write: { _ in }, writeError: { _ in })
    let run = TimelineRun(
      reducer: reducer, feature: feature, screen: screen, options: options, output: silent,
      isLive: true)
    do throws(ReplayFailure) {
      let outcome: Outcome
      if isFolder {
        let recording: FlightRecording
        do {
          recording = try FlightRecording(folder: url, shownAs: options.file)
        } catch {
          throw .log(error)
        }
        outcome = try run.write(recording, to: file)
      } else {
        outcome = try run.write(url, to: file)
      }
      return LivePage(html: file.contents, steps: outcome.steps)
    } catch {
      return nil
    }
  }

  /// What changes when the log is written, rotated or truncated: each file's identity, size
  /// and modification time.
  private static func fingerprint(of url: URL, isFolder: Bool) -> [Int] {
    let files = isFolder ? segments(of: url) : [url]
    var result: [Int] = []
    for file in files {
      var info = stat()
      guard stat(file.path, &info) == 0 else {
        result.append(-1)
        continue
      }
      #if canImport(Darwin)
        let modified = info.st_mtimespec
      #else
        let modified = info.st_mtim
      #endif
      result += [
        Int(truncatingIfNeeded: info.st_ino), Int(info.st_size), Int(modified.tv_sec),
        Int(modified.tv_nsec),
      ]
    }
    return result
  }

  private static func segments(of folder: URL) -> [URL] {
    // A folder without segments yet (or unreadable for a moment) has none to show.
    let numbers = (try? FlightRecording.segmentNumbers(in: folder)) ?? []
    return numbers.map { FlightRecording.segmentURL($0, in: folder) }
  }
}

/// The page `replay --serve` answers with, and how many steps it shows.
struct LivePage: Sendable {
  var html: [UInt8] = []
  var steps = 0

  /// How long `/steps` waits for a change before it answers that there is none.
  static var longPoll: Duration { .seconds(1) }

  /// Answers a request the server read, once `gate` lets it in.
  static func answer(
    _ request: LoopbackServer.Request, gate: LiveTimelineGate, page: Guarded<LivePage>
  ) -> LoopbackServer.Response {
    if let refusal = gate.refusal(of: request) { return refusal }
    switch request.path {
    case "/":
      let html = page.withLock { $0.html }
      return gate.secured(
        .init(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: html))
    case "/steps":
      let known = request.query["known"].flatMap { Int($0) }
      let clock = ContinuousClock()
      let deadline = clock.now + longPoll
      var steps = page.withLock { $0.steps }
      while steps == known, clock.now < deadline {
        Thread.sleep(forTimeInterval: 0.01)
        steps = page.withLock { $0.steps }
      }
      return gate.secured(
        .init(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array("{\"steps\":\(steps)}".utf8)))
    default:
      return gate.secured(.plain(404, "not found"))
    }
  }
}

/// Set once `SIGINT` or `SIGTERM` arrives, for as long as it is alive: the serve loop then ends
/// and the command exits 0.
private final class ServeStop {
  private let requested = Guarded(false)
  private var sources: [any DispatchSourceSignal] = []

  init() {
    for number in [SIGINT, SIGTERM] {
      // Dispatch takes the signal; the default action (ending the process) must not.
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { [requested] in requested.withLock { $0 = true } }
      source.resume()
      sources.append(source)
    }
  }

  deinit {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }

  var isRequested: Bool { requested.withLock { $0 } }
}
