import StateStore
import StateStoreTesting
import Testing

/// The issues a `withKnownIssue` block saw.
final class SeenIssues: Sendable {
  let texts = Guarded<[String]>([])
}

/// Runs `body`, expecting exactly the failures `messages`, in order, each reported at `line` of
/// the calling file when given.
///
/// The failures are captured (``FailureReporter/Recorder``), not reported: a passing run says
/// only that it passed, with no "Issue recorded" or "known issue" lines that read like
/// failures. The way from a failure to Swift Testing's `Issue.record` is tested once, in
/// `FailureReporterTests`.
@MainActor
func expectFailures(
  _ messages: [String],
  line: Int? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @MainActor () async -> Void
) async {
  let recorder = FailureReporter.Recorder()
  await FailureReporter.$current.withValue(recorder.reporter) {
    await body()
  }
  #expect(recorder.messages == messages, sourceLocation: sourceLocation)
  if let line {
    #expect(
      recorder.failures.allSatisfy { $0.location.line == line },
      "reported at lines \(recorder.failures.map(\.location.line)), not \(line)",
      sourceLocation: sourceLocation)
  }
}
