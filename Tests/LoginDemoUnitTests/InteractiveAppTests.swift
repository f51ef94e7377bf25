import AppFeature
import StateStore
import Testing
import login_demo

/// The full-screen app's event loop, fed batches of keys as the key reader hands them on.
@MainActor
struct InteractiveAppTests {
  /// One app with a counting screen, and what its store reduced.
  @MainActor final class Harness {
    let app: InteractiveApp
    var renders = 0
    var actions: [AppAction] = []
    private var subscription: StoreSubscription?

    init() async throws {
      app = try await InteractiveApp(options: DemoOptions())
      app.attach()
      app.drawScreen = { [unowned self] _, _ in renders += 1 }
      subscription = app.store.observeTransitions { [unowned self] in actions.append($0.action) }
    }

    /// Waits for the render a state change scheduled to have run (it draws nothing when a
    /// batch of keys drew first).
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
      #expect(app.scheduledRender != nil, "no render was scheduled", sourceLocation: sourceLocation)
      await app.scheduledRender?.value
    }
  }

  /// The case: 10,000 pasted characters were 10,000 actions and 10,000 redraws.
  @Test func aPastedBatchOfTenThousandCharactersIsOneActionAndOneRender() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    let keys = decoder.decode(Array(repeating: UInt8(ascii: "a"), count: 10_000))
    #expect(keys.count == 10_000)

    #expect(harness.app.process(keys))
    await harness.settle()

    #expect(harness.actions == [.login(.usernameChanged(String(repeating: "a", count: 10_000)))])
    #expect(harness.renders == 1)
    #expect(harness.app.store.state.login.username.count == 10_000)
  }

  @Test func aPasteWithATabFillsBothFieldsWithOneRender() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("demo\tSecr3t".utf8))))
    await harness.settle()

    #expect(
      harness.actions == [
        .login(.usernameChanged("demo")), .login(.passwordChanged(Secret("Secr3t"))),
      ])
    #expect(harness.renders == 1)
  }

  @Test func keysTypedOneAtATimeAreOneActionEach() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    for byte in "demo".utf8 { #expect(harness.app.process(decoder.decode([byte]))) }
    await harness.settle()

    #expect(
      harness.actions == ["d", "de", "dem", "demo"].map { .login(.usernameChanged($0)) })
    #expect(harness.renders == 4)
  }

  @Test func ctrlCInABatchQuitsAndIgnoresTheKeysAfterIt() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(!harness.app.process(decoder.decode(Array("ab\u{03}cd".utf8))))
    #expect(harness.actions == [.login(.usernameChanged("ab"))])
  }

  @Test func runsOfCharactersAreCoalescedAndOtherKeysKept() {
    #expect(
      Key.coalesced([.character("a"), .character("b"), .tab, .character("c"), .backspace])
        == [.text("ab"), .tab, .character("c"), .backspace])
  }

  /// Backspace in an empty field changes nothing, so it sends nothing (a log records no step).
  @Test func backspaceInAnEmptyFieldSendsNoAction() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode([0x7F, 0x7F])))
    #expect(harness.app.process(decoder.decode([0x09, 0x7F])))
    #expect(harness.actions == [])
    #expect(harness.app.process(decoder.decode(Array("ab".utf8) + [0x7F])))
    #expect(
      harness.actions == [
        .login(.passwordChanged(Secret("ab"))), .login(.passwordChanged(Secret("a"))),
      ])
  }
}
