import ActionLog
import AppFeature
import Foundation
import StateStore
import Testing

/// Judges what the browser saw on the page of a two-factor session at 800 px — rows, the
/// group of timer ticks, times, the code step's alert, the filter and the address — against
/// what the replay of its log computes.
@MainActor
struct TimelineBrowserJudge {
  let steps: [ReplayStep<AppReducer>]

  init(log: URL) throws {
    steps = try Replayer(reducer: AppReducer()).replay(log, keepingSteps: true).steps
  }

  func judge(_ seen: [String: Any]) throws {
    let help = seen["help"] as? String ?? ""
    #expect(help.contains("-word") && help.contains("state:twoFactor.code"), "\(help)")
    try judgeRows(seen)
    try judgeSelectedSteps(seen)
    try judgeFilters(seen)
    #expect(seen["afterHash"] as? Int == 19, "#step-20 typed in the address selects step 20")
    #expect(seen["afterClick"] as? Int == 2)
    #expect(seen["afterBack"] as? [AnyHashable] == [19, "#step-20"], "Back returns to step 20")
    #expect(seen["afterForward"] as? [AnyHashable] == [2, "#step-3"])
  }

  /// The leaf first, the breadcrumb after it, the time since the start; the 30 ticks of the
  /// resend countdown one row until it is opened.
  private func judgeRows(_ seen: [String: Any]) throws {
    let rows = try #require(seen["rows"] as? [[String: Any]]).filter {
      $0["kind"] as? String == "step"
    }
    let nine = try #require(rows.first { $0["seq"] as? String == "#9" })
    #expect(nine["action"] as? String == "verifyResponse(failure(incorrectCode), request: 1)")
    #expect(nine["crumbs"] as? String == "in login › twoFactor")
    #expect(nine["origin"] as? String == "effect")
    #expect(nine["clock"] as? String == clock(8))
    #expect(nine["title"] as? String == canonicalLine(steps[8].transition.action))
    #expect(
      seen["leafVisible"] as? [String: Bool] == ["#9": true, "#41": true],
      "at 800 px the leaf's name is not cut off")

    let (start, count) = try #require(firstGroup(), "the log has no repeats to group")
    #expect(start == 10 && count == 30, "the 30 ticks of the resend countdown")
    let groups = rows.filter { $0["group"] as? Bool == true }
    #expect(groups.count == 1)
    #expect(groups.first?["seq"] as? String == "#\(start + 1)")
    #expect(groups.first?["count"] as? String == "×\(count)")
    #expect(groups.first?["action"] as? String == "resendTimerTicked")
    let seqs = rows.compactMap { $0["seq"] as? String }
    #expect(!seqs.contains("#12") && seqs.contains("#41"), "the group hides its other steps")
    let opened = (seen["expandedRows"] as? [[String: Any]] ?? []).compactMap {
      $0["seq"] as? String
    }
    #expect(opened.contains("#12") && opened.contains("#13"), "an opened group shows each step")
    let closed = (seen["collapsedRows"] as? [[String: Any]] ?? []).compactMap {
      $0["seq"] as? String
    }
    #expect(!closed.contains("#12"), "its ▾ closes it again")
  }

  /// Times and gaps, how long the verification spinner ran, the code step's alert.
  private func judgeSelectedSteps(_ seen: [String: Any]) throws {
    let selected = try #require(seen["steps"] as? [String: [String: Any]])
    let nine = try #require(selected["8"])
    let verifying = try #require(steps[8].time) - (try #require(steps[7].time))
    #expect(
      nine["badges"] as? [String] == [
        "step 9 of 46", "at \(clock(8))", "\(verifying.inWords) after the step before",
        "isVerifying was true for \(verifying.inWords) (from #8)",
      ])
    let alert = (nine["screen"] as? [String: Any])?["alert"] as? [String]
    #expect(
      alert?.count == 1 && alert?.first?.hasPrefix("Incorrect code") == true, "\(alert ?? [])")
    let twelve = try #require(selected["11"])
    #expect((twelve["badges"] as? [String])?.contains("at \(clock(11))") == true)
    let rows = twelve["rows"] as? [[String: Any]] ?? []
    #expect(rows.map { $0["seq"] as? String } == ["#11"], "a step in a group selects the group")
  }

  /// `-word`, `state:` searches and the origin boxes keep the steps the replay says.
  private func judgeFilters(_ seen: [String: Any]) throws {
    let filters = try #require(seen["filters"] as? [String: [String: Any]])
    func shown(_ name: String) -> [Int] {
      (filters[name]?["steps"] as? [[String: Any]] ?? []).compactMap {
        guard $0["kind"] as? String == "step", let seq = $0["seq"] as? String else { return nil }
        return Int(seq.dropFirst())
      }
    }
    func numbers(_ keep: (ReplayStep<AppReducer>) -> Bool) -> [Int] {
      steps.filter(keep).map(\.sequenceNumber)
    }
    let words = numbers { step in
      let texts =
        ([canonicalLine(step.transition.action)]
        + step.transition.effects.map(canonicalLine)).map { $0.lowercased() }
      return texts.contains { $0.contains("twofactor") }
        && !texts.contains { $0.contains("resendtimer") }
    }
    #expect(shown("words") == words)
    #expect(words.count > 3 && words.count < 20)
    let verifying = numbers { changedLines($0).contains { $0.contains("isVerifying") } }
    #expect(shown("state") == verifying)
    #expect(verifying.contains(9) && !verifying.contains(12))
    let code = numbers { step in
      changedLines(step).contains { $0.drop { $0 == " " }.hasPrefix("code:") }
    }
    #expect(shown("path") == code)
    #expect(shown("userOnly") == numbers { $0.transition.origin == .user })
    #expect(filters["none"]?["info"] as? String == "46 steps")
  }

  private func clock(_ index: Int) -> String {
    steps[index].time.map(TransitionFormatter.clock) ?? "?"
  }

  /// The state lines a step changed, without their − or + mark.
  private func changedLines(_ step: ReplayStep<AppReducer>) -> [String] {
    // As the page shows states: their canonical JSON, field by field.
    let encoder = CanonicalJSONEncoder()
    let diff = try? CanonicalJSONText.diff(
      from: encoder.encode(step.transition.stateBefore),
      to: encoder.encode(step.transition.stateAfter))
    return (diff ?? "").split(separator: "\n").filter { $0.hasPrefix("−") || $0.hasPrefix("+") }
      .map { String($0.dropFirst()) }
  }

  /// The first run of steps with the same action and effects that only tick a counter.
  private func firstGroup() -> (start: Int, count: Int)? {
    func shape(_ text: Substring) -> String {
      String(text.replacing(/[0-9]+/, with: "#"))
    }
    func repeatsPrevious(_ index: Int) -> Bool {
      let (before, step) = (steps[index - 1].transition, steps[index].transition)
      let changed = changedLines(steps[index])
      let removed = changed.prefix(changed.count / 2).map { shape($0[...]) }
      let inserted = changed.suffix(changed.count / 2).map { shape($0[...]) }
      return canonicalLine(before.action) == canonicalLine(step.action)
        && before.effects.map(canonicalLine) == step.effects.map(canonicalLine)
        && changed.count % 2 == 0 && removed == inserted
    }
    var index = 1
    while index < steps.count {
      if repeatsPrevious(index) {
        var end = index + 1
        while end < steps.count, repeatsPrevious(end) { end += 1 }
        return (index - 1, end - index + 1)
      }
      index += 1
    }
    return nil
  }
}

/// An action or an effect as the log tools show it: one line read from its canonical JSON.
func canonicalLine(_ value: some Encodable) -> String {
  CanonicalJSON.oneLine(value, using: CanonicalJSONEncoder())
}
