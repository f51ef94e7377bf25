import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// Random, hostile action sequences through the reducer, checking its invariants after every
/// step. Reproduce a failure with the seed it prints: `LOGIN_PROPERTY_SEED=<seed> swift test`.
struct LoginReducerPropertyTests {
  /// Sequences per rule set and run: a few seconds' worth. The seed is new at every run, so the
  /// runs between them explore what one long run did (5,000 sequences took a minute).
  private static let sequences = 400
  /// The most sequences a run tries while the coverage below is not reached.
  private static let maximumSequences = 5_000
  private static let maximumLength = 50

  @Test(arguments: [CredentialRules.default, .email, .minimumLength(6)])
  func invariantsHoldAfterEveryStepOfRandomSequences(rules: CredentialRules) async {
    let seed = PropertySeed.current
    var random = SeededGenerator(seed: seed)
    let generator = LoginActionGenerator()
    var steps = 0
    var codeSteps = 0
    var resetSteps = 0
    var resetClosings = 0
    var endings: Set<String> = []
    let warnings = WarningLog()
    let allEndings: Set<String> = ["verified", "tooManyIncorrectCodes", "cancelled"]
    // The random sequences, then more (up to `maximumSequences`) while an ending of the code
    // step or a closed reset step has not come up: whether a given seed's first sequences
    // happen to reach one is luck (one CI run in many missed "tooManyIncorrectCodes"), whether
    // the generator can reach it at all is what the coverage checks below ask.
    var sequence = -1
    while true {
      sequence += 1
      let covered = endings == allEndings && resetClosings > 0
      guard sequence < Self.sequences || (!covered && sequence < Self.maximumSequences) else {
        break
      }
      // Seconds of work: the other tests' tasks get the two cores' threads between sequences.
      if sequence.isMultiple(of: 20) { await Task.yield() }
      // A third of the sequences start at the one-time-code step, as after a challenge, so
      // that it is explored as deeply as the form.
      let start =
        sequence.isMultiple(of: 3)
        ? LoginState(
          rules: rules, username: "grace", password: "Cobol1959", attemptID: 1,
          twoFactor: TwoFactorReducer.start(with: Challenge(id: "c", destination: "•••• 42")).0)
        : LoginState(rules: rules)
      var model = Model(state: start)
      // Code-step sequences run longer: three wrong codes take a few dozen actions.
      let length = Self.maximumLength * (start.twoFactor == nil ? 1 : 3)
      for step in 0..<Int.random(in: 1...length, using: &random) {
        let action = generator.next(for: model.state, using: &random)
        // Actions aimed at an absent code step are part of the attack: their warnings are
        // captured (off standard error), and any other warning is a failure.
        let violation = RuntimeWarning.$reporter.withValue(warnings.reporter) {
          model.apply(action)
        }
        if let violation {
          Issue.record(
            """
            Invariant broken (seed \(seed), sequence \(sequence), step \(step)): \(violation)
            Action: \(Dump.render(action))
            \(PropertySeed.reproduction(seed))
            """)
          return
        }
        steps += 1
        if model.state.twoFactor != nil { codeSteps += 1 }
        if model.state.passwordReset != nil { resetSteps += 1 }
        if model.closedReset { resetClosings += 1 }
        if case .twoFactor = action, let ending = model.lastEnding { endings.insert(ending) }
      }
    }
    #expect(
      warnings.unexpectedMessages.isEmpty,
      "warnings other than for an absent child (seed \(seed)): \(warnings.unexpectedMessages)")
    #expect(steps > Self.sequences, "seed \(seed)")
    // The code step is really exercised, to each of its three endings.
    #expect(codeSteps > steps / 50, "seed \(seed)")
    #expect(endings == allEndings, "seed \(seed), after \(sequence) sequences")
    // The password-reset step is opened, worked and closed too.
    #expect(resetSteps > steps / 100, "seed \(seed)")
    #expect(resetClosings > 0, "seed \(seed), after \(sequence) sequences")
  }

  @Test func theGeneratorCoversEveryActionCaseOfARunningForm() {
    var random = SeededGenerator(seed: 1)
    var seen: Set<String> = []
    let state = LoginState(attemptID: 3)
    for _ in 0..<2_000 {
      seen.insert(Self.caseName(LoginActionGenerator().next(for: state, using: &random)))
    }
    #expect(
      seen == [
        "edit.username", "edit.password", "loginButtonTapped", "cancelButtonTapped",
        "loginResponse", "alertButtonTapped", "lockoutEnded", "logoutButtonTapped", "twoFactor",
        "storageFailed", "forgotPasswordTapped", "passwordReset",
      ])
  }

  /// Every case by name; a new case does not compile until it is named here, and must then be
  /// generated (or, like the launch, left out on purpose and said so above).
  private static func caseName(_ action: LoginAction) -> String {
    switch action {
    case .edit(let edit): "edit.\(edit.field)"
    case .loginButtonTapped: "loginButtonTapped"
    case .cancelButtonTapped: "cancelButtonTapped"
    case .loginResponse: "loginResponse"
    case .alertButtonTapped: "alertButtonTapped"
    case .lockoutEnded: "lockoutEnded"
    case .logoutButtonTapped: "logoutButtonTapped"
    case .twoFactor: "twoFactor"
    case .launched, .restored: "launch"
    case .forgotPasswordTapped: "forgotPasswordTapped"
    case .passwordReset: "passwordReset"
    case .storageFailed: "storageFailed"
    }
  }

  @Test func equalSeedsGiveEqualSequences() {
    var first = SeededGenerator(seed: 99)
    var second = SeededGenerator(seed: 99)
    let state = LoginState()
    for _ in 0..<100 {
      #expect(
        LoginActionGenerator().next(for: state, using: &first)
          == LoginActionGenerator().next(for: state, using: &second))
    }
  }
}

/// The reducer's state plus what the test knows independently: which attempt is in flight.
private struct Model {
  var state: LoginState
  var inFlight: Int?
  /// How the code step ended in the last action, if it did.
  var lastEnding: String?
  /// Whether the last action closed the password-reset step.
  var closedReset = false

  /// Reduces `action` and returns a description of the first broken invariant, if any.
  mutating func apply(_ action: LoginAction) -> String? {
    let before = state
    let effects = LoginReducer().reduce(into: &state, action: action)
    lastEnding = nil
    closedReset = before.passwordReset != nil && state.passwordReset == nil
    if closedReset, effects.last != .childDismissed(LoginReducer.passwordReset.dismissal) {
      return "the password-reset step closed without ending its effects"
    }
    if state.passwordReset != nil {
      if state.user != nil { return "signed in with the password-reset step showing" }
      if state.twoFactor != nil { return "the code step and the password-reset step at once" }
      if before.passwordReset != nil,
        effects.contains(where: {
          if case .authenticate = $0 { true } else { false }
        })
      {
        return "a sign-in started while the password-reset step showed"
      }
    }
    if before.twoFactor != nil, state.twoFactor == nil {
      guard effects.last == .childDismissed(LoginReducer.twoFactor.dismissal) else {
        return "the code step closed without ending its effects"
      }
      lastEnding =
        if state.user != nil {
          "verified"
        } else if state.password.isEmpty,
          effects.contains(where: {
            if case .showAlert = $0 { true } else { false }
          })
        { "tooManyIncorrectCodes" } else { "cancelled" }
    }

    let authenticated = effects.compactMap { effect -> Int? in
      guard case .authenticate(_, let attempt) = effect else { return nil }
      return attempt
    }
    if let attempt = authenticated.first {
      guard action == .loginButtonTapped, before.isLoginButtonEnabled, before.user == nil else {
        return "authenticate was emitted without an enabled login button being tapped"
      }
      guard authenticated.count == 1, attempt == before.attemptID + 1, attempt == state.attemptID
      else { return "authenticate carries attempt \(attempt) after \(before.attemptID)" }
      inFlight = attempt
    }
    if effects.contains(.cancelAuthentication) {
      guard before.isLoading else { return "cancelled a request that was not in flight" }
      inFlight = nil
    }
    if case .loginResponse(let attempt, _) = action, attempt == inFlight {
      inFlight = nil
    }

    if state.isLoading != (inFlight != nil) {
      return
        "isLoading is \(state.isLoading) but the attempt in flight is \(String(describing: inFlight))"
    }
    if state.attemptID < before.attemptID { return "the attempt id went backwards" }
    if state.failedAttempts < 0 || state.failedAttempts > state.rules.maxAttempts {
      return "failedAttempts is \(state.failedAttempts)"
    }
    if state.isLocked && state.isLoginButtonEnabled { return "locked, yet the button is enabled" }
    if action == .forgotPasswordTapped, (state.passwordReset != nil) != before.isFormActive,
      before.passwordReset == nil
    {
      return "Forgot password? with the form active \(before.isFormActive) left the reset "
        + "step shown \(state.passwordReset != nil)"
    }
    if state.isFormValid && !state.isLoading && !state.isLocked && state.user == nil
      && state.twoFactor == nil && state.passwordReset == nil && !state.isLoginButtonEnabled
    {
      return "valid and idle, yet the button is disabled"
    }
    if state.user != nil && state.isLoginButtonEnabled {
      return "signed in, yet the login button is enabled"
    }
    if let step = state.twoFactor {
      if state.isLoading || (step.isVerifying && step.isResending) {
        return "two requests in flight at once"
      }
      if state.user != nil { return "signed in with the code step still showing" }
      if step.outcome != nil { return "the code step ended but is still showing" }
      if step.code.reveal().count > step.challenge.codeLength
        || step.code.reveal().contains(where: { !("0"..."9").contains($0) })
      {
        return "the code holds something other than up to \(step.challenge.codeLength) digits"
      }
    }
    if before.user == nil, let user = state.user {
      // Never on the home screen without a session: a sign-in saves it and pushes home.
      let saved = effects.contains { effect in
        if case .saveSession(let session) = effect { session.user == user } else { false }
      }
      guard saved, effects.contains(.route(.push(.home(user)))) else {
        return "signed in without saving the session and pushing the home screen"
      }
    }
    if case .twoFactor(.codeChanged(let code)) = action {
      let digits = code.reveal().filter { ("1"..."9").contains($0) }
      let output = Dump.render(state) + Dump.render(effects) + Dump.render(action)
      if digits.count >= 3, output.contains(digits) { return "a code reached the output" }
    }
    if state.rules != before.rules { return "the rules changed" }
    if action == .logoutButtonTapped, let user = before.user, state.username != user.username {
      return "a logout did not keep the username of the account that signed out"
    }
    // Hints: only the form's own rules, none on a form nobody touched, all after a tap on Login.
    let hints = state.visibleValidationMessages
    if !hints.allSatisfy(state.validationMessages.contains) { return "a hint for no broken rule" }
    if !state.isUsernameEdited, !state.isPasswordEdited, !state.wasSubmitTried, !hints.isEmpty {
      return "hints on a form nobody touched"
    }
    if state.wasSubmitTried, hints != state.validationMessages {
      return "a hint hidden after a tap on Login"
    }
    if !before.isLocked && state.isLocked {
      guard effects.contains(.startLockoutTimer(state.rules.lockoutDuration)),
        effects.contains(where: { effect in
          if case .showAlert(let alert) = effect {
            return alert.title == LoginReducer.lockoutAlertTitle
          }
          return false
        })
      else { return "locked without the lockout alert and timer" }
    }
    if action == .loginButtonTapped, !before.isFormValid, !before.isLoading, !before.isLocked,
      before.user == nil, before.twoFactor == nil, before.passwordReset == nil
    {
      let expected = Alert(
        title: LoginReducer.validationAlertTitle,
        message: before.validationMessages.joined(separator: "\n"))
      guard effects == [.showAlert(expected)] else {
        return "an invalid login tap emitted \(Dump.render(effects))"
      }
    }
    switch action {
    case .edit(let edit):
      var expected = before
      edit.apply(to: &expected)
      // …and notes that the field was edited: its hints show from now on.
      if !edit.changesNothing(in: before) {
        if edit.field == "username" { expected.isUsernameEdited = true }
        if edit.field == "password" { expected.isPasswordEdited = true }
      }
      if state != expected { return "typing in \(edit.field) changed more than the field" }
      if edit.changesNothing(in: before) != (state == before) {
        return "editing \(edit.field) to what it held changed the state, or the opposite"
      }
    default:
      break
    }
    return nil
  }
}
