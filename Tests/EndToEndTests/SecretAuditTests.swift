import Foundation
import LoginFeature
import LoginHTTPClient
import StateStore
import Testing
import ToolTestSupport

/// The secret audit: a session with a canary password and a canary token, run through every
/// output channel — dumps, descriptions, reflection, JSON, the debug printer, snapshots, stories,
/// test failure messages, the action log, `replay` (its HTML timeline too), `login-demo`, the
/// HTTP client's errors and the fixture server's log — and neither canary may appear in any of
/// them.
///
/// Each channel must also produce text (so the audit cannot pass vacuously) and, where it
/// renders a secret at all, show the secret's mask. The channels are in `AuditChannels`.
@MainActor
struct SecretAuditTests {
  @Test func aWholeSessionLeaksNeitherSecretOnAnyChannel() async throws {
    let audit = AuditChannels.makeAudit()
    let temporaryFolder = try TemporaryFolder()
    defer { withExtendedLifetime(temporaryFolder) {} }
    let folder = temporaryFolder.url

    // The audit runs many channels one after another: on a busy machine it takes minutes.
    let server = try await FixtureServer.start(lifetime: 300)
    defer { server.stop() }

    try AuditChannels.values(into: audit)
    let log = try await AuditChannels.storeSession(into: audit, folder: folder)
    try await AuditChannels.replay(
      log, into: audit, label: "store session",
      timelineMasks: [AuditChannels.passwordMaskInLog, AuditChannels.tokenMaskInLog])
    await AuditChannels.testStores(into: audit, folder: folder)
    try await AuditChannels.loginDemo(into: audit, folder: folder, server: server)
    try await AuditChannels.http(into: audit, server: server)

    let channels = Set(audit.entries.map(\.channel))
    #expect(channels.count == audit.entries.count, "channel names must be unique")
    for family in [
      "Dump.render", "String(describing:)", "String(reflecting:)", "interpolation", "dump(_:to:)",
      "Mirror", "debugPrint(_:to:)", "JSONEncoder", "Store.printTransitions", "TransitionFormatter",
      "action log", "replay (store session) timeline", "replay (store session) --state",
      "replay (store session) --until 2", "replay (store session) --verify",
      "replay (store session) --emit-test", "replay (store session) --html",
      "replay (login-demo) --html", "snapshot file state", "snapshot file story",
      "storyText", "TestStore failure messages", "login-demo stdout+stderr",
      "login-demo --record file", "replay (login-demo) timeline", "login-demo --api stdout+stderr",
      "login-demo --api --record file", "HTTPLoginAPI errors", "HTTPLoginAPI session",
      "fixture server stdout",
    ] {
      #expect(channels.contains(family), "the audit misses the channel '\(family)'")
    }
    audit.check()
    // SECRET_AUDIT_DUMP=<folder> writes every channel's text there, to read what was audited.
    if let folder = ProcessInfo.processInfo.environment["SECRET_AUDIT_DUMP"] {
      for entry in audit.entries {
        let name = entry.channel.map { $0.isLetter || $0.isNumber ? $0 : "_" }
        try Data(entry.text.utf8).write(
          to: URL(fileURLWithPath: folder).appendingPathComponent(String(name) + ".txt"))
      }
    }
  }

  @Test func theAuditFindsACanaryAndItsPiecesWithoutPrintingThem() {
    let audit = AuditChannels.makeAudit()
    audit.record("clean", "LoginState(password: Secret(Aaaaaa*Aa*0a0a0))", showing: ["Aaaaaa*"])
    audit.record("whole", "password: " + AuditChannels.password.reveal())
    audit.record("piece", "…ary-Pw-7f…")
    audit.record("token", "token=tok-Canary-5150", showing: ["aaa*Aaaaaa*0000"])
    audit.record("empty", "")

    let problems = audit.problems()

    #expect(
      problems == [
        "Channel 'whole' leaks the whole password canary at UTF-8 offset 10 of 25.",
        "Channel 'whole' leaks a piece of the token canary at UTF-8 offset 10 of 25.",
        "Channel 'piece' leaks a piece of the password canary at UTF-8 offset 3 of 15.",
        "Channel 'token' leaks a piece of the password canary at UTF-8 offset 10 of 21.",
        "Channel 'token' leaks the whole token canary at UTF-8 offset 6 of 21.",
        "Channel 'token' does not show expected mask #1, \"aaa*Aaaaaa*0000\": the secret was "
          + "not rendered there.",
        "Channel 'empty' produced no text: the audit proves nothing.",
      ])
    for problem in problems {
      #expect(!problem.contains("Canary"))
    }
  }

  @Test func theCanariesPassTheDefaultRulesAndHaveTheExpectedMasks() {
    let rules = CredentialRules.default
    #expect(rules.validate(username: "auditor", password: AuditChannels.password) == [])
    #expect(rules.validate(username: "echo-audit", password: AuditChannels.token) == [])
    #expect(AuditChannels.password.mask == "Aaaaaa*Aa*0a0a0")
    #expect(AuditChannels.token.mask == "aaa*Aaaaaa*0000")
    #expect(LeakAudit.pieces(of: AuditChannels.password).count == 11)
  }
}
