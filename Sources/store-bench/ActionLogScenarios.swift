import ActionLog
import Foundation
import StateStore

/// A counter-like feature with Codable types, as a recorded feature would have.
struct LoggedCounter: Reducer {
  struct State: Codable, Equatable, Sendable {
    var count = 0
    var label = "counter"
    var isEven = true
  }

  enum Action: Codable, Sendable {
    case increment
    case add(Int)
  }

  func reduce(into state: inout State, action: Action) -> [Never] {
    switch action {
    case .increment: state.count &+= 1
    case .add(let amount): state.count &+= amount
    }
    state.isEven = state.count % 2 == 0
    return []
  }
}

/// The result of `body`, a step a scenario cannot run without; when it fails, the run ends
/// with the error (exit status 1) instead of timing something else.
func benchSetUp<T>(_ what: String, _ body: () throws -> T) -> T {
  do {
    return try body()
  } catch {
    FileHandleOutput.standardError("store-bench: cannot \(what): \(error)")
    exit(1)
  }
}

/// Recording overhead on the main actor, and replay with verification against plain decoding:
/// a counter-like feature, then the login feature (LoginActionLogScenarios.swift).
@MainActor
func actionLogScenarios(quick: Bool) async -> [BenchmarkResult] {
  let folder = scratchFolder()
  defer { try? FileManager.default.removeItem(at: folder) }
  var results = await recordingScenarios(ops: quick ? 2_000 : 1_000_000, folder: folder)
  results += await replayScenarios(transitions: quick ? 1_000 : 1_000_000, folder: folder)
  results += await logDecodingScenarios(quick: quick, folder: folder)
  results += await loginActionLogScenarios(quick: quick, folder: folder)
  results += await growingStateScenarios(quick: quick, folder: folder)
  // Last: it resets the peak-memory mark, which the rows before it report.
  results += await recorderPressureScenarios(quick: quick, folder: folder)
  return results
}

/// `--group record`: the recording overhead rows alone, counter and login (for profiling).
@MainActor
func recordingOverheadScenarios(quick: Bool) async -> [BenchmarkResult] {
  let folder = scratchFolder()
  defer { try? FileManager.default.removeItem(at: folder) }
  let ops = quick ? 2_000 : 1_000_000
  return await recordingScenarios(ops: ops, folder: folder)
    + loginRecordingScenarios(ops: ops, folder: folder)
}

/// A new folder for the logs of one run, named after the process.
func scratchFolder() -> URL {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("store-bench-\(ProcessInfo.processInfo.processIdentifier)")
  benchSetUp("create \(folder.path)") {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }
  return folder
}

@MainActor
private func recordingScenarios(ops: Int, folder: URL) async -> [BenchmarkResult] {
  await recordingScenarios(
    prefix: "record", subject: "counter", feature: "counter", ops: ops,
    url: folder.appendingPathComponent("record.jsonl"),
    makeStore: { Store(initialState: LoggedCounter.State(), reducer: LoggedCounter()) },
    action: { _ in .increment })
}

/// `Store.send` with and without a recorder: the main actor's own cost, and the cost end to end.
///
/// Sends go in bursts that fit the recorder's buffer, so the timed part is the main actor's;
/// the writer catches up between bursts, untimed (but counted end to end).
@MainActor
func recordingScenarios<R: Reducer>(
  prefix: String,
  subject: String,
  feature: String,
  ops: Int,
  url: URL,
  makeStore: () -> Store<R>,
  action: (Int) -> R.Action
) async -> [BenchmarkResult]
where R.State: Encodable, R.Action: Encodable, R.Effect: Encodable {
  let burst = 1_000
  func timeSends(recording: Bool) async -> (main: Double, total: Double) {
    let store = makeStore()
    let recorder =
      recording
      ? benchSetUp("record to \(url.path)") { try store.record(to: url, feature: feature) } : nil
    var mainActor = Duration.zero
    let start = ContinuousClock.now
    var sent = 0
    while sent < ops {
      let count = min(burst, ops - sent)
      let burstStart = ContinuousClock.now
      for index in 0..<count { store.send(action(sent + index)) }
      mainActor += ContinuousClock.now - burstStart
      sent += count
      await recorder?.flush()
    }
    await recorder?.close()
    return (nanoseconds(mainActor), nanoseconds(ContinuousClock.now - start))
  }
  var plain = Double.infinity
  var recorded = Double.infinity
  var endToEnd = Double.infinity
  for _ in 0..<3 {
    plain = min(plain, await timeSends(recording: false).main)
    let (main, total) = await timeSends(recording: true)
    recorded = min(recorded, main)
    endToEnd = min(endToEnd, total)
  }
  let floorName = "\(prefix): Store.send, \(subject), not recording"
  func result(_ scenario: String, _ ns: Double, _ target: String? = nil) -> BenchmarkResult {
    BenchmarkResult(
      group: "actionlog", scenario: scenario, ops: ops, nanoseconds: ns, floor: floorName,
      floorNanosecondsPerOp: plain / Double(ops), peakRSSMiB: peakRSSMiB(), target: target)
  }
  return [
    result(floorName, plain),
    result("\(prefix): Store.send while recording (main actor)", recorded),
    result("\(prefix): overhead per send (main actor)", max(0, recorded - plain), "≤ 1000 ns"),
    result("\(prefix): send + encode + digest + write, end to end", endToEnd),
  ]
}

/// Replays an N-transition log with verification, against decoding the same lines with a plain
/// `JSONDecoder` (read in the same 64 KiB chunks).
@MainActor
private func replayScenarios(transitions: Int, folder: URL) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("replay.jsonl")
  let store = Store(initialState: LoggedCounter.State(), reducer: LoggedCounter())
  let recorder = benchSetUp("record to \(url.path)") {
    try store.record(to: url, feature: "counter")
  }
  for index in 0..<transitions {
    store.send(index % 3 == 0 ? .add(index) : .increment)
    if index % 2_000 == 1_999 { await recorder.flush() }
  }
  await recorder.close()

  return replayComparison(
    prefix: "replay", floorName: "JSONDecoder, same lines", url: url, transitions: transitions,
    reducer: LoggedCounter(),
    lineType: RecordedTransition<LoggedCounter.State, LoggedCounter.Action, Never>.self)
}

/// Replays the log at `url` with verification (first, so its peak memory is not hidden by the
/// floor's), then decodes the same lines as `Line` with a plain `JSONDecoder`: the floor. `Line`
/// is the log's own step line type, `RecordedTransition`, decoded by its `Decodable`
/// conformance alone: the same fields and the same keyed decoding as the reader, without the
/// reader's checks.
func replayComparison<R: Reducer, Line: Decodable>(
  prefix: String,
  floorName floorSuffix: String,
  url: URL,
  transitions: Int,
  reducer: R,
  lineType: Line.Type
) -> [BenchmarkResult]
where R.State: Codable & Equatable, R.Action: Codable, R.Effect: Codable {
  let replayer = Replayer(reducer: reducer)
  var replayTime = Double.infinity
  var replayed = 0
  for _ in 0..<2 {
    let start = ContinuousClock.now
    do {
      replayed = try replayer.replay(url).stepCount
    } catch {
      FileHandleOutput.standardError("store-bench: \(prefix) failed: \(error)")
    }
    replayTime = min(replayTime, nanoseconds(ContinuousClock.now - start))
  }
  let replayPeak = peakRSSMiB()
  if replayed != transitions {
    FileHandleOutput.standardError("store-bench: \(prefix) returned \(replayed) steps")
  }

  var floorTime = Double.infinity
  var decoded = 0
  for _ in 0..<2 {
    let start = ContinuousClock.now
    decoded = decodePlainLines(of: url, as: lineType)
    floorTime = min(floorTime, nanoseconds(ContinuousClock.now - start))
  }
  if decoded != transitions {
    FileHandleOutput.standardError("store-bench: \(prefix) floor decoded \(decoded) lines")
  }
  let floorName = "\(prefix): \(floorSuffix)"
  let floorPerOp = floorTime / Double(transitions)
  return [
    BenchmarkResult(
      group: "actionlog", scenario: floorName, ops: transitions,
      nanoseconds: floorTime, floor: floorName, floorNanosecondsPerOp: floorPerOp,
      peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "actionlog", scenario: "\(prefix): Replayer.replay, verified", ops: transitions,
      nanoseconds: replayTime, floor: floorName, floorNanosecondsPerOp: floorPerOp,
      peakRSSMiB: replayPeak, target: "≤ 1.5×, < 64 MiB"),
  ]
}

/// Decodes every line after the header as `Line` with a plain `JSONDecoder`: the replay floor.
/// A line holding a `Duration`, which the canonical form writes as seconds and `Duration`'s own
/// `Codable` cannot read, is decoded again by the log's decoder, as the reader must.
func decodePlainLines<Line: Decodable>(of url: URL, as _: Line.Type) -> Int {
  let handle = benchSetUp("read \(url.path)") { try FileHandle(forReadingFrom: url) }
  defer { try? handle.close() }
  let decoder = JSONDecoder()
  let seconds = CanonicalJSONDecoder()
  var pending = Data()
  var decoded = 0
  var isHeader = true
  while let chunk = benchSetUp("read \(url.path)", { try handle.read(upToCount: 64 * 1024) }),
    !chunk.isEmpty
  {
    pending.append(chunk)
    var start = pending.startIndex
    while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = pending[start..<newline]
      start = newline + 1
      if isHeader {
        isHeader = false
      } else if (try? decoder.decode(Line.self, from: line)) != nil
        || (try? seconds.decode(Line.self, from: line)) != nil
      {
        decoded += 1
      }
    }
    pending = Data(pending[start...])
  }
  return decoded
}
