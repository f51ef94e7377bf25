import ActionLog
import AppFeature
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// The reader splits a step line in the recorder's own layout by its bytes and decodes only
/// the values. That shortcut must never read a line otherwise than decoding the whole line
/// does: every step line the recorder writes takes it, and no damaged line gets through it
/// with a value the whole-line decoding would not give.
struct StepLineLayoutTests {
  typealias LoginStep = RecordedTransition<LoginState, LoginAction, LoginEffect>

  @Test(arguments: ["login.jsonl", "login-divergent.jsonl", "login-truncated.jsonl"])
  func everyCommittedStepLineTakesTheShortcutToTheSameStep(name: String) throws {
    let lines = try Self.stepLines(of: ReplayProcess.fixtures.appendingPathComponent(name))
    #expect(lines.count >= 9)
    for line in lines {
      let quick: LoginStep? = StepLineLayout.step(in: line, using: CanonicalJSONDecoder())
      #expect(quick != nil, "\(String(decoding: line, as: UTF8.self))")
      #expect(quick == (try CanonicalJSONDecoder().decode(LoginStep.self, from: line)))
    }
  }

  @Test @MainActor func everyStepOfARecordedRandomSessionTakesTheShortcut() async throws {
    let folder = try TemporaryFolder()
    let url = folder.file("random.jsonl")
    let store = Store(initialState: LoginState(rules: .email), reducer: LoginReducer())
    let recorder = try store.record(
      to: url, feature: LoginReducer.actionLogFeature,
      options: RecordingOptions(checkpointInterval: 7))
    var random = SeededGenerator(seed: 25_11_2026)
    let generator = LoginActionGenerator(longTextPerMille: 30)
    WarningLog.expectingAbsentChildWarnings {
      for _ in 0..<600 { store.send(generator.next(for: store.state, using: &random)) }
    }
    await recorder.close()
    let lines = try Self.stepLines(of: url)
    #expect(lines.count == 600)
    var checkpoints = 0
    var withEffects = 0
    for line in lines {
      let quick: LoginStep? = StepLineLayout.step(in: line, using: CanonicalJSONDecoder())
      let whole = try CanonicalJSONDecoder().decode(LoginStep.self, from: line)
      #expect(quick == whole, "\(String(decoding: line, as: UTF8.self))")
      if whole.checkpoint != nil { checkpoints += 1 }
      if !whole.effects.isEmpty { withEffects += 1 }
    }
    #expect(checkpoints == 600 / 7)
    // Effects are exercised too: at least one step in twenty returned some.
    #expect(withEffects >= 600 / 20)
  }

  @Test func anAppStepWithChildActionsTakesTheShortcut() throws {
    let lines = try Self.stepLines(of: ReplayProcess.fixtures.appendingPathComponent("app.jsonl"))
    #expect(!lines.isEmpty)
    typealias AppStep = RecordedTransition<AppState, AppAction, AppEffect>
    for line in lines {
      // app.jsonl is a log of the first canonical form: JSONDecoder reads it as it is.
      let quick: AppStep? = StepLineLayout.step(in: line, using: CanonicalJSONDecoder(form: .v1))
      #expect(quick != nil)
      #expect(quick == (try JSONDecoder().decode(AppStep.self, from: line)))
    }
  }

  /// Damaged lines: whatever the shortcut reads, the whole line reads the same; a line it
  /// refuses goes to the whole-line decoding, which gives the error.
  @Test func aDamagedLineNeverReadsOtherwiseThanTheWholeLine() throws {
    let lines = try Self.stepLines(of: ReplayProcess.fixtures.appendingPathComponent("login.jsonl"))
    var random = SeededGenerator(seed: 16)
    let interesting =
      Array(#"{}[]",:\ 0123456789-+.eEtrufalsn"#.utf8) + [0, 0x1F, 0x7F, 0xC3, 0xFF]
    var quickReads = 0
    var refused = 0
    for round in 0..<6_000 {
      var line = lines[round % lines.count]
      let offset = Int.random(in: 0..<line.count, using: &random)
      let index = line.startIndex + offset
      switch round % 4 {
      case 0: line[index] = interesting.randomElement(using: &random)!
      case 1: line.insert(interesting.randomElement(using: &random)!, at: index)
      case 2: line.remove(at: index)
      default: line = line.prefix(offset)
      }
      let quick: LoginStep? = StepLineLayout.step(in: line, using: CanonicalJSONDecoder())
      let whole = try? CanonicalJSONDecoder().decode(LoginStep.self, from: line)
      if let quick {
        quickReads += 1
        #expect(quick == whole, "\(String(decoding: line, as: UTF8.self))")
      } else {
        refused += 1
      }
    }
    // Both kinds happen: changes inside strings still read, broken layouts do not.
    #expect(quickReads > 500)
    #expect(refused > 2_000)
  }

  @Test func otherLayoutsGoToTheWholeLine() throws {
    let digest = String(repeating: "0", count: 16)
    let others = [
      // Other key order, spaces, a leading zero, a sign, an escaped digest, a trailing space,
      // a number too long, an origin that is not one.
      #"{"origin":"user","seq":1,"action":"x","effects":[],"digest":"\#(digest)"}"#,
      #"{"seq": 1,"origin":"user","action":"x","effects":[],"digest":"\#(digest)"}"#,
      #"{"seq":01,"origin":"user","action":"x","effects":[],"digest":"\#(digest)"}"#,
      #"{"seq":-1,"origin":"user","action":"x","effects":[],"digest":"\#(digest)"}"#,
      #"{"seq":1,"origin":"user","action":"x","effects":[],"digest":"\u0030\#(digest)"}"#,
      #"{"seq":1,"origin":"user","action":"x","effects":[],"digest":"\#(digest)"} "#,
      #"{"seq":1234567890123456789,"origin":"user","action":"x","effects":[],"digest":"0"}"#,
      #"{"seq":1,"origin":"robot","action":"x","effects":[],"digest":"\#(digest)"}"#,
    ]
    for line in others {
      #expect(StepLineLayout.find(in: Data(line.utf8)) == nil, "\(line)")
    }
    // Brackets are only counted; a value that does not decode sends the line to the whole
    // line's decoding too.
    let mismatched = Data(
      (#"{"seq":1,"origin":"user","action":{"edit":{"_0":[}]},"effects":[],"#
        + #""digest":"\#(digest)"}"#).utf8)
    #expect(StepLineLayout.find(in: mismatched) != nil)
    #expect(
      (StepLineLayout.step(in: mismatched, using: CanonicalJSONDecoder()) as LoginStep?) == nil)
    let good = Data(
      (#"{"seq":1,"origin":"user","#
        + #""action":{"edit":{"_0":{"field":"username","value":"a"}}},"effects":[],"#
        + #""digest":"\#(digest)"}"#).utf8)
    #expect((StepLineLayout.step(in: good, using: CanonicalJSONDecoder()) as LoginStep?) != nil)
  }

  @Test func aValueNestedNearTheLimitIsLeftToTheWholeLine() throws {
    func line(depth: Int) -> Data {
      let action = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      return Data(
        (#"{"seq":1,"origin":"user","action":"# + action
          + #","effects":[],"digest":"0000000000000000"}"#).utf8)
    }
    #expect(StepLineLayout.find(in: line(depth: 100)) != nil)
    // Inside the line the value is one level deeper: JSONDecoder's limit is the line's.
    #expect(StepLineLayout.find(in: line(depth: 511)) == nil)
    #expect(StepLineLayout.find(in: line(depth: 5_000)) == nil)
  }

  /// The step lines of a log, without their newlines (a cut last line left out).
  static func stepLines(of url: URL) throws -> [Data] {
    let log = try Data(contentsOf: url)
    let mutator = LogMutator(log)
    return mutator.transitionLines.map { mutator.lines[$0] }
  }
}
