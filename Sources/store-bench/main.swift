import ActionLog
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: store-bench [--quick] [--json] [--group NAME] [--help]
         store-bench --timeline [STEPS]

  Measures LoginStore's hot paths side by side in one run and prints, per scenario, the
  operations, nanoseconds per operation and the ratio to that scenario's floor.

    --quick      a short smoke run (timings are not meaningful)
    --json       JSON Lines: one object per scenario
    --group NAME run one group only: counter, login, scoped, teststore, actionlog, scale,
                 rows, or record (actionlog's recording overhead rows alone); for profiling, the
                 Performance article quotes full runs only
    --timeline   instead: record an app log of STEPS steps (100000 by default), time the
                 built `replay --html` on it against `replay --verify`, and compare the
                 page's size with the log's; the log and the page stay in the folder it
                 prints, for the browser half (Tests/Fixtures/timeline_browser.py bench)
    --help       this text

  Build in release mode for meaningful figures: swift run -c release store-bench
  """

var quick = false
var json = false
var group: String?
var timelineSteps: Int?
let groups = ["counter", "login", "scoped", "teststore", "actionlog", "scale", "rows", "record"]
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--quick": quick = true
  case "--json": json = true
  case "--group":
    guard let name = arguments.popFirst(), groups.contains(name) else {
      FileHandleOutput.standardError(
        "store-bench: --group needs one of \(groups.joined(separator: ", ")) (see --help)")
      exit(2)
    }
    group = name
  case "--timeline": timelineSteps = 100_000
  case _ where timelineSteps != nil && Int(argument) != nil:
    guard let steps = Int(argument), steps > 0 else {
      FileHandleOutput.standardError("store-bench: --timeline needs a positive step count")
      exit(2)
    }
    timelineSteps = steps
  case "--help", "-h":
    print(usage)
    exit(0)
  default:
    let options = ["--quick", "--json", "--group", "--timeline", "--help"]
    let suggestion = OptionSuggestion.nearest(to: argument, in: options).map {
      "; did you mean '\($0)'?"
    }
    FileHandleOutput.standardError(
      "store-bench: unknown option \(Sanitized.name(argument))\(suggestion ?? "") (see --help)")
    exit(2)
  }
}

// Top-level `await` makes this file an async entry point; its code runs on the main actor.
if let timelineSteps {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "store-bench-timeline-\(ProcessInfo.processInfo.processIdentifier)")
  exit(await timelineBench(steps: timelineSteps, folder: folder))
}
@MainActor func runs(_ name: String) -> Bool { group == nil || group == name }
var results: [BenchmarkResult] = []
if runs("counter") { results += counterScenarios(ops: quick ? 1_000 : 2_000_000) }
if runs("login") { results += loginKeystrokeScenarios(ops: quick ? 1_000 : 1_000_000) }
if runs("scoped") {
  results += appScopedScenarios(ops: quick ? 1_000 : 1_000_000)
  results += siblingScenarios(ops: quick ? 1_000 : 200_000)
}
if runs("teststore") { results += await testStoreScenarios(ops: quick ? 1_000 : 10_000) }
if runs("actionlog") { results += await actionLogScenarios(quick: quick) }
if runs("scale") { results += await scaleScenarios(quick: quick) }
if runs("rows") { results += await rowScenarios(quick: quick) }
if group == "record" { results += await recordingOverheadScenarios(quick: quick) }
// Last: the floor of these renders two 100,000-item states whole (10,000 in a quick run), and
// the heap it leaves would show in every later row's peak.
if runs("teststore") { results += await failingAssertionScenarios(quick: quick) }
print(json ? Report.jsonLines(results) : Report.table(results))
