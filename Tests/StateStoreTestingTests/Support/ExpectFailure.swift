import StateStore
import Testing

/// The issues a `withKnownIssue` block saw.
final class SeenIssues: Sendable {
  let texts = Guarded<[String]>([])
}

/// Runs `body`, expecting exactly the failures `messages`, in order, through the real Swift
/// Testing path (`Issue.record`), each reported at `line` of the calling file when given.
@MainActor
func expectFailures(
  _ messages: [String],
  line: Int? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @MainActor () async -> Void
) async {
  let seen = SeenIssues()
  await withKnownIssue {
    await body()
  } matching: { issue in
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    seen.texts.withLock { $0.append(text) }
    let lineMatches = line.map { issue.sourceLocation?.line == $0 } ?? true
    return messages.contains(text) && lineMatches
  }
  #expect(seen.texts.withLock { $0 } == messages, sourceLocation: sourceLocation)
}
