#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: store-bench [--quick] [--json] [--help]

  Measures LoginStore's hot paths side by side in one run and prints, per scenario, the
  operations, nanoseconds per operation and the ratio to that scenario's floor.

    --quick   a short smoke run (timings are not meaningful)
    --json    JSON Lines: one object per scenario
    --help    this text

  Build in release mode for meaningful figures: swift run -c release store-bench
  """

var quick = false
var json = false
for argument in CommandLine.arguments.dropFirst() {
  switch argument {
  case "--quick": quick = true
  case "--json": json = true
  case "--help", "-h":
    print(usage)
    exit(0)
  default:
    FileHandleOutput.standardError("store-bench: unknown option '\(argument)' (see --help)")
    exit(2)
  }
}

// Top-level `await` makes this file an async entry point; its code runs on the main actor.
var results = counterScenarios(ops: quick ? 1_000 : 2_000_000)
results += loginKeystrokeScenarios(ops: quick ? 1_000 : 1_000_000)
results += appScopedScenarios(ops: quick ? 1_000 : 1_000_000)
results += await testStoreScenarios(ops: quick ? 1_000 : 10_000)
results += await actionLogScenarios(quick: quick)
print(json ? Report.jsonLines(results) : Report.table(results))
