import AppFeature
import LoginFeature
import ReplayTool
import StateStore
import Testing
import ToolTestSupport

/// `IncrementalDump` must render every state exactly as `Dump.render` does, whatever changed
/// since the previous one.
struct IncrementalDumpTests {
  /// Nested deep enough that an enum fits on one line at the top but not four levels down.
  struct Outer: Equatable {
    struct Middle: Equatable {
      struct Inner: Equatable {
        var choice: Choice
        var note: String?
        var tags: [String]
      }
      var inner: Inner
      var count: Int
    }
    var middle: Middle
    var secret: Secret
    var optionalMiddle: Middle?
  }

  enum Choice: Equatable {
    case short
    case long(String, Int)
  }

  /// A type whose values are not `Equatable`: always rendered again.
  struct Opaque {
    var value: Int
  }

  struct Holder: Equatable {
    var id: Int
    var opaque: Opaque

    static func == (lhs: Holder, rhs: Holder) -> Bool { lhs.id == rhs.id }
  }

  func sequence() -> [Outer] {
    let inner = Outer.Middle.Inner(choice: .short, note: nil, tags: [])
    var state = Outer(
      middle: .init(inner: inner, count: 0), secret: "Abc1", optionalMiddle: nil)
    var states = [state]
    state.middle.count = 1
    states.append(state)
    state.middle.inner.choice = .long(String(repeating: "x", count: 34), 12_345)
    states.append(state)
    state.middle.inner.note = "line one\nline two \u{202E}"
    states.append(state)
    state.optionalMiddle = state.middle
    states.append(state)
    state.optionalMiddle?.inner.tags = ["a", "b"]
    states.append(state)
    state.secret = "Xyz98765"
    states.append(state)
    state.optionalMiddle = nil
    states.append(state)
    states.append(state)
    state.middle.inner.choice = .short
    states.append(state)
    return states
  }

  /// Renders `states` in turn with one `IncrementalDump`, expecting each rendering to be
  /// `Dump.render`'s, and returns the lines of the last.
  @discardableResult
  func expectRendersAsDump(
    _ states: [Any], sourceLocation: SourceLocation = #_sourceLocation
  ) -> [String] {
    var dump = IncrementalDump()
    var strings = Interner()
    var lines: [String] = []
    for (index, state) in states.enumerated() {
      lines = dump.lines(of: state, strings: &strings).map { strings.text($0) }
      #expect(
        lines.joined(separator: "\n") == Dump.render(state), "state \(index)",
        sourceLocation: sourceLocation)
    }
    return lines
  }

  @Test func everyStateRendersAsDumpDoes() {
    expectRendersAsDump(sequence())
  }

  @Test func theOrderOfStatesDoesNotMatter() {
    expectRendersAsDump(sequence().reversed() + sequence())
  }

  @Test func appStatesRenderAsDumpDoes() {
    let user = User(id: "7", username: "ada", displayName: "Ada")
    var state = AppState()
    var states = [state]
    state.login.username = "ada"
    states.append(state)
    state.login.password = "Pa55word"
    state.login.isLoading = true
    states.append(state)
    state.login.user = user
    state.home = HomeState(user: user, isLoadingProfile: true)
    states.append(state)
    state.home?.profile = Profile(displayName: "Ada", unreadMessages: 3, plan: "Team")
    state.home?.isLoadingProfile = false
    states.append(state)
    state.login.rules = .minimumLength(6)
    states.append(state)
    state = AppState(login: LoginState(rules: .email))
    states.append(state)
    expectRendersAsDump(states)
  }

  struct Board: Equatable {
    var pinned: NoteComparedByID
    var list: [NoteComparedByID]
    var draft: NoteComparedByID?
  }

  /// A host type's `==` is never taken on its word: a label renamed from "draft" to
  /// "published" is shown renamed at the top, inside a list and inside an optional, although
  /// `==` calls every one of those values unchanged.
  @Test func aHostEqualityThatIgnoresAFieldNeverKeepsAnOldRendering() {
    let draft = NoteComparedByID(id: 1, label: "draft")
    var published = draft
    published.label = "published"
    #expect(draft == published)
    let states = [
      Board(pinned: draft, list: [draft], draft: draft),
      Board(pinned: published, list: [draft], draft: draft),
      Board(pinned: published, list: [published], draft: draft),
      Board(pinned: published, list: [published], draft: published),
    ]
    let last = expectRendersAsDump(states + [states[3]])
    #expect(!last.joined().contains(#""draft""#))
  }

  /// Values that are not `Equatable` are rendered every time.
  @Test func valuesThatCannotBeComparedAreRenderedAgain() {
    var dump = IncrementalDump()
    var strings = Interner()
    _ = dump.lines(of: Holder(id: 1, opaque: Opaque(value: 1)), strings: &strings)
    let same = dump.lines(of: Holder(id: 1, opaque: Opaque(value: 2)), strings: &strings)
    #expect(same.map { strings.text($0) }.contains("    value: 2"))
    _ = dump.lines(of: [Opaque(value: 1)], strings: &strings)
    let again = dump.lines(of: [Opaque(value: 3)], strings: &strings)
    #expect(
      again.map { strings.text($0) }.joined(separator: "\n") == Dump.render([Opaque(value: 3)]))
  }

  struct Reading: Equatable {
    var level: Double
    var levels: [Float]
  }

  /// `0.0 == -0.0`, but `-0.0` renders with its sign: a step that makes a reading negative zero
  /// shows it, at the top and in a list.
  @Test func aNegativeZeroThatEqualityCallsUnchangedIsRenderedAgain() {
    #expect(0.0 == -0.0)
    let states = [Reading(level: 0.0, levels: [0.0]), Reading(level: -0.0, levels: [-0.0])]
    let last = expectRendersAsDump(states + [states[1]])
    #expect(last.contains("  level: -0.0,") && last.contains("    [0]: -0.0"), "\(last)")
  }
}
