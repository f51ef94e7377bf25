import ActionLog
import Foundation
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// The HTML timeline's script rebuilds each step's state from the canonical JSON the page
/// carries (a whole state now and then, each step's patch) and renders it as fields when the
/// step is opened. Read in headless Chromium, every step's lines must be exactly the lines
/// `replay` renders from the state's canonical bytes (`CanonicalJSONText`): keys that need
/// quotes, keys added in their sorted place (by UTF-8 bytes, which is not JavaScript's order),
/// invisible characters, integers past 2^53, arrays grown and cut, members removed.
///
/// Runs with the other browser test, when `LOGINSTORE_BROWSER_TESTS=required`.
@MainActor struct TimelineScriptRenderingTests {
  struct Fields: Reducer, Sendable {
    struct State: Codable, Equatable, Sendable {
      var counts: [String: Int] = ["m": 1]
      var texts: [String] = []
      var big: UInt64 = 0
      var small: Int64 = 0
      var ratio = 0.5
      var note: String?
      var grid: [[Int]] = [[]]
    }

    enum Action: Codable, Equatable, Sendable {
      case count(String, Int)
      case uncount(String)
      case append(String)
      case cut(Int)
      case numbers(big: UInt64, small: Int64, ratio: Double)
      case note(String?)
      case grow(Int)
    }

    func reduce(into state: inout State, action: Action) -> [Never] {
      switch action {
      case .count(let key, let value): state.counts[key] = value
      case .uncount(let key): state.counts[key] = nil
      case .append(let text): state.texts.append(text)
      case .cut(let count): state.texts = Array(state.texts.prefix(count))
      case .numbers(let big, let small, let ratio):
        state.big = big
        state.small = small
        state.ratio = ratio
      case .note(let note): state.note = note
      case .grow(let value):
        if state.grid[state.grid.count - 1].count >= 3 { state.grid.append([]) }
        state.grid[state.grid.count - 1].append(value)
      }
      return []
    }
  }

  /// The actions: keys that sort before and after others by UTF-8 bytes (`Z` < `a` < `m` <
  /// `é` < `中` < `😀`, where JavaScript's UTF-16 order puts `😀` before `中`... and `￿`), keys
  /// with quotes, backslashes and control characters; texts with invisible characters.
  static var actions: [Fields.Action] {
    var actions: [Fields.Action] = [
      .count("a", 2), .count("Z", 3), .count("\u{FF5E}", 4), .count("\u{1F600}", 5),
      .count("\u{E9}", 6), .count("a b", 7), .count("quote\"and\\slash", 8),
      .count("tab\tand\u{1}", 9), .count("\u{4E2D}", 10),
      .append("plain"), .append("\u{202E}reversed\u{200B}"), .append("tag\u{E0001}emoji\u{1F600}"),
      .append("line\nbreak </script> & <!--"), .note("a note"),
      .numbers(big: .max, small: .min, ratio: 1e-300),
      .numbers(
        big: 9_007_199_254_740_993,
        small: -9_007_199_254_740_993, ratio: 12345.678),
      .uncount("a"), .cut(1), .note(nil), .append("again"),
    ]
    for value in 0..<40 { actions.append(.grow(value)) }
    actions += [.uncount("Z"), .count("a", 1), .cut(0)]
    return actions
  }

  @Test(
    .enabled(
      if: TimelineBrowserTests.isRequested,
      "the browser check of the HTML timeline runs with LOGINSTORE_BROWSER_TESTS=required"),
    .timeLimit(.minutes(2)))
  func theScriptRendersEveryStepAsReplayDoes() async throws {
    let folder = try TemporaryFolder()
    let log = folder.file("fields.jsonl")
    let store = Store(initialState: Fields.State(), reducer: Fields())
    let recorder = try store.record(to: log, feature: "fields")
    var states: [Fields.State] = []
    for action in Self.actions {
      store.send(action)
      states.append(store.state)
    }
    await recorder.close()
    let page = folder.file("fields.html")
    let captured = CapturedReplayOutput()
    let feature = ReplayableFeature(
      name: "fields", reducer: Fields(), module: "Tests", reducerExpression: "Fields()")
    let status = ReplayCommand(features: [feature], toolName: "fields-replay")
      .run(["--html", page.path, log.path], output: captured.output)
    #expect(status == 0, "\(captured.standardError)")

    let python = try #require(FixtureServer.python3(), "python3 drives the browser")
    let output = try await DemoProcess.run(
      program: python,
      [TimelineBrowserTests.driver.path, "--timeout", "60", "lines", page.path], timeout: 90)
    try #require(output.status == 0, "the browser driver failed:\n\(output.stderr)")
    let seen = try #require(
      try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    let shown = try #require(seen["steps"] as? [[String]])
    try #require(shown.count == states.count)

    let encoder = CanonicalJSONEncoder()
    func lines(_ state: Fields.State) throws -> [String] {
      try #require(CanonicalJSONText.lines(try encoder.encode(state)))
    }
    #expect(seen["initial"] as? [String] == (try lines(Fields.State())))
    for (index, state) in states.enumerated() {
      #expect(shown[index] == (try lines(state)), "step \(index + 1)")
    }
    // The state filter matches a changed field by its path, a removed member included.
    let changed = try #require(seen["changed"] as? [[String]])
    #expect(changed[0] == ["counts.a: 2"])
    #expect(changed[13] == [#"note: "a note""#])
    let removed = try #require(Self.actions.firstIndex(of: .uncount("a")))
    #expect(changed[removed] == ["counts.a: 2"], "a removed member, as it was")
  }
}
