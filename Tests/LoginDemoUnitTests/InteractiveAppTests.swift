import AppFeature
import Foundation
import LoginFeature
import LoginFileStores
import StateStore
import Testing
import ToolTestSupport
import login_demo

/// The full-screen app's event loop, fed batches of keys as the key reader hands them on.
@MainActor
struct InteractiveAppTests {
  /// One app with a counting screen, and what its store reduced.
  @MainActor final class Harness {
    let app: InteractiveApp
    var renders = 0
    var actions: [AppAction] = []
    var lastScreen: [ScreenLine] = []
    private var subscription: StoreSubscription?

    init(
      options: DemoOptions = DemoOptions(), clock: any Clock<Duration> = ContinuousClock(),
      now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
      app = try await InteractiveApp(options: options, clock: clock, now: now)
      app.attach()
      app.drawScreen = { [unowned self] lines, _ in
        renders += 1
        lastScreen = lines
      }
      subscription = app.store.observeTransitions { [unowned self] in actions.append($0.action) }
    }

    /// Waits for the render a state change scheduled to have run (it draws nothing when a
    /// batch of keys drew first).
    func settle(sourceLocation: SourceLocation = #_sourceLocation) async {
      #expect(app.scheduledRender != nil, "no render was scheduled", sourceLocation: sourceLocation)
      await app.scheduledRender?.value
    }
  }

  /// After a relaunch into a lockout with a fraction of a second over 21 seconds left (the
  /// issue's "Locked for 21.958 seconds"), the form counts whole seconds down on the app's clock (a manual one here), never a fraction; Enter
  /// on Login says why nothing happens; the form opens when the lockout ends on the same clock.
  @Test(.timeLimit(.minutes(5)))
  func aLockoutRestoredAtLaunchCountsDownOnTheAppsClock() async throws {
    let folder = try TemporaryFolder()
    defer { withExtendedLifetime(folder) {} }
    // The file keeps whole seconds; the launch is 0.0625 s past one.
    let launch = Date(timeIntervalSince1970: 1_767_225_600.0625)
    try await FileLockoutStore(url: folder.file("lockout.json")).update { _ in
      LockoutRecord(failedAttempts: 5, lockedUntil: Date(timeIntervalSince1970: 1_767_225_622))
    }
    var options = DemoOptions()
    options.stateDirectory = folder.url.path
    let clock = ManualClock()
    let harness = try await Harness(options: options, clock: clock, now: { launch })
    harness.app.store.send(.login(.launched))
    let locked = try #require(await harness.app.store.state(where: { $0.login.isLocked }))
    #expect(locked.login.lockedFor == .milliseconds(21_938))
    let seconds = 22
    // The ticker and the lockout's timer are both asleep on the app's clock.
    #expect(await clock.waitForSleepers(2))
    await harness.settle()

    #expect(lockLine(harness) == "   Locked after 5 failed attempts. Try again in \(seconds) s")
    #expect(!text(harness).contains("Ready to sign in"))
    for elapsed in 1...3 {
      await clock.advance(by: .seconds(1))
      #expect(await clock.waitForSleepers(2), "the ticker sleeps again once it has drawn")
      #expect(
        lockLine(harness)
          == "   Locked after 5 failed attempts. Try again in \(seconds - elapsed) s")
    }
    // Enter on the locked Login button says why nothing happens.
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode([0x09, 0x09, 0x0D])))
    #expect(
      text(harness).contains(
        "The form is locked after too many failed attempts; wait for the countdown."))

    await clock.advance(by: .milliseconds(21_938))
    _ = await harness.app.store.state(where: { !$0.login.isLocked })
    await harness.settle()
    #expect(lockLine(harness) == nil)
    #expect(harness.actions.contains(.login(.lockoutEnded)))
  }

  private func text(_ harness: Harness) -> String {
    harness.lastScreen.map(\.plainText).joined(separator: "\n")
  }

  private func lockLine(_ harness: Harness) -> String? {
    harness.lastScreen.map(\.plainText).first { $0.contains("Locked after") }
  }

  /// `NO_COLOR` turns the colours off, not the cursor: bold, dim and inverse are not colours.
  @Test func withoutColorsTheCursorStillShows() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("demo".utf8))))
    let field = harness.lastScreen.first { $0.plainText.contains("Username") }
    #expect(
      field?.ansiText(colors: false) == " › \u{1B}[1mUsername  \u{1B}[0mdemo\u{1B}[7m \u{1B}[0m")
    #expect(
      field?.ansiText(colors: true)
        == "\u{1B}[36m › \u{1B}[0m\u{1B}[1mUsername  \u{1B}[0mdemo\u{1B}[7m \u{1B}[0m")
  }

  /// The case: 10,000 pasted characters were 10,000 actions and 10,000 redraws.
  @Test func aPastedBatchOfTenThousandCharactersIsOneActionAndOneRender() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    let keys = decoder.decode(Array(repeating: UInt8(ascii: "a"), count: 10_000))
    #expect(keys.count == 10_000)

    #expect(harness.app.process(keys))
    await harness.settle()

    #expect(
      harness.actions == [
        .login(.edit(.set(\.username, to: PersonalData(String(repeating: "a", count: 10_000)))))
      ])
    #expect(harness.renders == 1)
    #expect(harness.app.store.state.login.username.value.count == 10_000)
  }

  /// "Forgot password?" is after Login in Tab order: Enter opens the step, whose email field
  /// edits at the cursor like the form's; Enter on Back closes it and the form comes back.
  @Test func theForgotPasswordButtonOpensTheStepAndItsEmailEditsAtTheCursor() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("\t\t\t\r".utf8))))
    #expect(text(harness).contains("Reset your password"))
    #expect(harness.app.process(decoder.decode(Array("ada@example.com".utf8))))
    #expect(harness.app.process(decoder.decode([0x1B, 0x5B, 0x44, 0x7F])))
    #expect(text(harness).contains(" › Email     ada@example.cm"))
    #expect(harness.app.process(decoder.decode(Array("\t\t\r".utf8))))

    #expect(
      harness.actions == [
        .login(.forgotPasswordTapped),
        .login(.passwordReset(.edit(.set(\.email, to: "ada@example.com")))),
        .login(.passwordReset(.edit(.set(\.email, to: "ada@example.cm")))),
        .login(.passwordReset(.backButtonTapped)),
      ])
    #expect(harness.app.store.state.login.passwordReset == nil)
    #expect(text(harness).contains(" › Username"))
  }

  @Test func aPasteWithATabFillsBothFieldsWithOneRender() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("demo\tSecr3t".utf8))))
    await harness.settle()

    #expect(
      harness.actions == [
        .login(.edit(.set(\.username, to: "demo"))),
        .login(.edit(.set(\.password, to: Secret("Secr3t")))),
      ])
    #expect(harness.renders == 1)
  }

  @Test func keysTypedOneAtATimeAreOneActionEach() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    for byte in "demo".utf8 { #expect(harness.app.process(decoder.decode([byte]))) }
    await harness.settle()

    #expect(
      harness.actions == ["d", "de", "dem", "demo"].map { .login(.edit(.set(\.username, to: $0))) })
    #expect(harness.renders == 4)
  }

  @Test func ctrlCInABatchQuitsAndIgnoresTheKeysAfterIt() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(!harness.app.process(decoder.decode(Array("ab\u{03}cd".utf8))))
    #expect(harness.actions == [.login(.edit(.set(\.username, to: "ab")))])
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
        .login(.edit(.set(\.password, to: Secret("ab")))),
        .login(.edit(.set(\.password, to: Secret("a")))),
      ])
  }

  /// The line of the focused field, with the cursor's cell in `[` `]`.
  private func focusedField(_ harness: Harness) -> String? {
    let line = harness.lastScreen.map { $0.ansiText(colors: true) }.first { $0.contains(" › ") }
    return line?
      .replacingOccurrences(of: "\u{1B}[7m", with: "[")
      .replacingOccurrences(of: "\u{1B}[0m", with: "]")
      .replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(
        of: "\u{1B}[36m", with: ""
      )
      .replacingOccurrences(of: "]]", with: "]")
  }

  /// Fields edit at a visible cursor: ←/→, Home/End, Delete, Ctrl-U, Ctrl-W.
  @Test func fieldsEditAtAVisibleCursor() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    func press(_ bytes: [UInt8]) { #expect(harness.app.process(decoder.decode(bytes))) }
    let left: [UInt8] = [0x1B, 0x5B, 0x44]
    press(Array("demo".utf8))
    #expect(focusedField(harness)?.hasSuffix("demo[ ]") == true, "\(focusedField(harness) ?? "")")
    press(left + left)
    press(Array("X".utf8))
    #expect(harness.app.store.state.login.username == "deXmo")
    #expect(focusedField(harness)?.hasSuffix("deX[m]o") == true, "\(focusedField(harness) ?? "")")
    press([0x1B, 0x5B, 0x48])  // Home
    press([0x1B, 0x5B, 0x33, 0x7E])  // Delete
    #expect(harness.app.store.state.login.username == "eXmo")
    press([0x05, 0x7F])  // Ctrl-E, Backspace
    #expect(harness.app.store.state.login.username == "eXm")
    press(Array(" lovelace".utf8) + [0x17])  // Ctrl-W
    #expect(harness.app.store.state.login.username == "eXm ")
    press(left + left + [0x15])  // Ctrl-U: everything before the cursor
    #expect(harness.app.store.state.login.username == "m ")
    #expect(focusedField(harness)?.hasSuffix("[m] ") == true, "\(focusedField(harness) ?? "")")
    // Arrows that move nothing, and Home at the start, send nothing.
    let count = harness.actions.count
    press(left + [0x01])
    #expect(harness.actions.count == count)
  }

  /// Enter in the password field signs in, as on every login form.
  @Test func enterInThePasswordFieldSignsIn() async throws {
    let harness = try await Harness()
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("demo\tSecr3t\r".utf8))))
    #expect(harness.actions.contains(.login(.loginButtonTapped)))
    #expect(harness.app.store.state.login.isLoading)
  }

  @Test func theEditingKeysAreDecoded() {
    var decoder = KeyDecoder()
    let sequences: [([UInt8], Key)] = [
      ([0x1B, 0x5B, 0x48], .home), ([0x1B, 0x5B, 0x46], .end), ([0x1B, 0x4F, 0x48], .home),
      ([0x1B, 0x4F, 0x46], .end), ([0x1B, 0x5B, 0x31, 0x7E], .home),
      ([0x1B, 0x5B, 0x34, 0x7E], .end), ([0x1B, 0x5B, 0x33, 0x7E], .delete),
      ([0x01], .home), ([0x05], .end), ([0x15], .deleteToStart), ([0x17], .deleteWord),
      ([0x1B, 0x5B, 0x39, 0x39, 0x7E], .unknown),
    ]
    for (bytes, key) in sequences {
      #expect(decoder.decode(bytes) == [key], "\(bytes)")
    }
  }
}

/// The code step's field, driven by the keys a terminal sends.
@MainActor
struct InteractiveCodeStepTests {
  /// Signs in as the demo's `grace` (a second factor) on `clock`, up to the code step.
  private func codeStep(on clock: ManualClock) async throws -> InteractiveAppTests.Harness {
    let harness = try await InteractiveAppTests.Harness(clock: clock)
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("grace\tCobol1959\r".utf8))))
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .seconds(5))
    _ = await harness.app.store.state(where: { $0.login.twoFactor != nil })
    return harness
  }

  private func codeLine(_ harness: InteractiveAppTests.Harness) -> String? {
    harness.lastScreen.map(\.plainText).first { $0.contains("Code ") }
  }

  /// The code shows its digits as they are typed (it is the person's own terminal), Ctrl-W and
  /// Ctrl-U erase it as the help says, and the code's lifetime shows under it.
  @Test(.timeLimit(.minutes(5)))
  func theCodeShowsItsDigitsAndCtrlUAndCtrlWEditIt() async throws {
    let clock = ManualClock()
    let harness = try await codeStep(on: clock)
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode(Array("4242".utf8))))
    #expect(codeLine(harness) == " › Code      4242__")
    #expect(
      harness.lastScreen.map(\.plainText).contains("             The code is valid for 5 minutes."))
    #expect(harness.app.process(decoder.decode([0x17])))  // Ctrl-W: the word before the cursor
    #expect(harness.app.store.state.login.twoFactor?.code == "")
    #expect(codeLine(harness) == " › Code      ______")
    #expect(harness.app.process(decoder.decode(Array("42".utf8) + [0x15])))  // Ctrl-U
    #expect(harness.app.store.state.login.twoFactor?.code == "")
    // Typing on a button types into the code.
    #expect(harness.app.process(decoder.decode([0x09] + Array("7".utf8))))
    #expect(codeLine(harness) == " › Code      7_____")
    // The digits reach the screen only: the actions hold the code's mask.
    #expect(!Dump.render(harness.actions).contains("4242"))
  }

  /// After Resend the focus is on the code field, where the new code goes, not on the button
  /// its countdown disables.
  @Test(.timeLimit(.minutes(5)))
  func afterResendTheFocusIsOnTheCode() async throws {
    let clock = ManualClock()
    let harness = try await codeStep(on: clock)
    // The resend countdown, tick by tick.
    while let left = harness.app.store.state.login.twoFactor?.resendCountdown, left > 0 {
      #expect(await clock.waitForSleepers(1))
      await clock.advance(by: .seconds(1))
      _ = await harness.app.store.state(where: { $0.login.twoFactor?.resendCountdown != left })
    }
    _ = await harness.app.store.state(where: { $0.login.twoFactor?.isResendButtonEnabled == true })
    var decoder = KeyDecoder()
    #expect(harness.app.process(decoder.decode([0x09, 0x09, 0x0D])))  // Tab, Tab, Enter: Resend
    #expect(harness.actions.last == .login(.twoFactor(.resendButtonTapped)))
    #expect(codeLine(harness)?.hasPrefix(" › Code") == true)
    #expect(!harness.lastScreen.map(\.plainText).contains { $0.hasPrefix(" › [ Resend ]") })
  }
}
