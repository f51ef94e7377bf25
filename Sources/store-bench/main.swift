import ActionLog
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let groups = ["counter", "login", "scoped", "teststore", "actionlog", "scale", "rows", "record"]
/// The options, in one table that parses them, words their errors and lists them below.
let table = OptionTable([
  .init("--quick", help: ["a short smoke run (timings are not meaningful)"]),
  .init("--json", help: ["JSON Lines: one object per scenario"]),
  .init(
    "--group", value: "NAME", needs: "one of \(groups.joined(separator: ", "))",
    kind: .choice(groups),
    help: [
      "run one group only: counter, login, scoped, teststore, actionlog, scale,",
      "rows, or record (actionlog's recording overhead rows alone); for profiling, the",
      "Performance article quotes full runs only",
    ]),
  .init(
    "--timeline",
    help: [
      "instead: record an app log of STEPS steps (100000 by default), time the",
      "built `replay --html` on it against `replay --verify`, and compare the",
      "page's size with the log's; the log and the page stay in the folder it",
      "prints, for the browser half (Tests/Fixtures/timeline_browser.py bench)",
    ]),
  .init("--help", short: "-h", help: ["this text"]),
])

let usage = """
  usage: store-bench [--quick] [--json] [--group NAME] [--help]
         store-bench --timeline [STEPS]

  Measures LoginStore's hot paths side by side in one run and prints, per scenario, the
  operations, nanoseconds per operation and the ratio to that scenario's floor.

  \(table.help(indent: 2, column: 13))

  Build in release mode for meaningful figures: swift run -c release store-bench
  """

/// Says `message` on standard error and exits with status 2.
func refuse(_ message: String) -> Never {
  FileHandleOutput.standardError("store-bench: \(message)")
  exit(2)
}

let parsed: OptionTable.Parsed
do {
  parsed = try table.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  refuse(error.message(known: table.names, seeHelp: "see --help"))
}
if parsed.has("--help") {
  print(usage)
  exit(0)
}
let quick = parsed.has("--quick")
let json = parsed.has("--json")
// The table takes only the groups' names.
let group = parsed.value(of: "--group")
var timelineSteps: Int?
if parsed.has("--timeline") {
  timelineSteps = 100_000
  if let steps = parsed.arguments.first {
    guard let count = Int(steps), count > 0, parsed.arguments.count == 1 else {
      refuse("--timeline needs a positive step count")
    }
    timelineSteps = count
  }
} else if let argument = parsed.arguments.first {
  refuse("unexpected argument \(Sanitized.name(argument)) (see --help)")
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
