import ActionLog
import Foundation
import LoginFeature
import StateStore

/// What reading a log's values costs: the log's own decoder against `JSONDecoder` reading the
/// same values, each in the form it reads.
///
/// `JSONDecoder` cannot read the second canonical form's `Duration`s (a number of seconds), so
/// its floor decodes the same values written in the first form (a `Duration` as two words);
/// the log's decoder reads them as a log holds them, in the second form. The login lines are
/// a recorded login session's step lines (actions, effects, checkpoints); the state is the
/// 1,000-item list the growing-state rows replay.
@MainActor
func logDecodingScenarios(quick: Bool, folder: URL) async -> [BenchmarkResult] {
  let url = folder.appendingPathComponent("login-decoding.jsonl")
  let store = Store(initialState: LoginState(), reducer: LoginReducer())
  let recorder = benchSetUp("record to \(url.path)") {
    try store.record(to: url, feature: LoginReducer.actionLogFeature)
  }
  await sendLoginMix(quick ? 500 : 20_000, to: store) { await recorder.flush() }
  await recorder.close()
  typealias Step = RecordedTransition<LoginState, LoginAction, LoginEffect>
  let steps = benchSetUp("read \(url.path)") {
    try ActionLogReader<LoginState, LoginAction, LoginEffect>(url: url).steps()
  }
  let lines = benchSetUp("encode the login lines") {
    try steps.map {
      (
        first: Data(try CanonicalJSONEncoder(form: .v1).encode($0)),
        second: Data(try CanonicalJSONEncoder(form: .v2).encode($0))
      )
    }
  }
  let catalog = benchSetUp("encode the 1,000-item state") {
    Data(try CanonicalJSONEncoder().encode(ItemCatalog.State()))
  }
  let rounds = quick ? 1 : 5
  let catalogCopies = quick ? 10 : 300
  return decodingComparison(
    prefix: "decode login lines", floorSuffix: "JSONDecoder, the same values in form v1",
    ops: lines.count, rounds: rounds,
    floor: { decoder in for line in lines { _ = try decoder.decode(Step.self, from: line.first) } },
    subject: { decoder in
      for line in lines { _ = try decoder.decode(Step.self, from: line.second) }
    })
    + decodingComparison(
      prefix: "decode a 1,000-item state", floorSuffix: "JSONDecoder", ops: catalogCopies,
      rounds: rounds,
      floor: { decoder in
        for _ in 0..<catalogCopies { _ = try decoder.decode(ItemCatalog.State.self, from: catalog) }
      },
      subject: { decoder in
        for _ in 0..<catalogCopies { _ = try decoder.decode(ItemCatalog.State.self, from: catalog) }
      })
}

/// The floor with `JSONDecoder` and the subject with the log's decoder, alternated, each the
/// best of `rounds`.
private func decodingComparison(
  prefix: String, floorSuffix: String, ops: Int, rounds: Int,
  floor: (JSONDecoder) throws -> Void, subject: (CanonicalJSONDecoder) throws -> Void
) -> [BenchmarkResult] {
  var floorTime = Double.infinity
  var subjectTime = Double.infinity
  for _ in 0..<rounds {
    var start = ContinuousClock.now
    benchSetUp("\(prefix) with JSONDecoder") { try floor(JSONDecoder()) }
    floorTime = min(floorTime, nanoseconds(ContinuousClock.now - start))
    start = ContinuousClock.now
    benchSetUp("\(prefix) with the log's decoder") { try subject(CanonicalJSONDecoder()) }
    subjectTime = min(subjectTime, nanoseconds(ContinuousClock.now - start))
  }
  let floorName = "\(prefix): \(floorSuffix)"
  let floorPerOp = floorTime / Double(ops)
  return [
    BenchmarkResult(
      group: "actionlog", scenario: floorName, ops: ops, nanoseconds: floorTime,
      floor: floorName, floorNanosecondsPerOp: floorPerOp, peakRSSMiB: peakRSSMiB()),
    BenchmarkResult(
      group: "actionlog", scenario: "\(prefix): the log's decoder", ops: ops,
      nanoseconds: subjectTime, floor: floorName, floorNanosecondsPerOp: floorPerOp,
      peakRSSMiB: peakRSSMiB()),
  ]
}

extension ActionLogReader {
  /// Every step of the log.
  fileprivate func steps() throws -> [RecordedTransition<State, Action, Effect>] {
    var steps: [RecordedTransition<State, Action, Effect>] = []
    while let entry = try next() {
      if case .transition(let step) = entry { steps.append(step) }
    }
    return steps
  }
}
