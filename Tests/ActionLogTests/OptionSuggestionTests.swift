import ActionLog
import Testing

/// The "did you mean …?" of the command lines: a typo of a long option is matched to it, and
/// anything further off is not.
struct OptionSuggestionTests {
  let options = ["--rules", "--record", "--state", "--state-dir", "--now", "--api", "--help"]

  @Test(arguments: [
    ("--recrod", "--record"), ("--recor", "--record"), ("--records", "--record"),
    ("--RECORD", "--record"), ("--reccord", "--record"), ("--nwo", "--now"), ("--ap", "--api"),
    ("--stat", "--state"), ("--state-dri", "--state-dir"), ("--statedir", "--state-dir"),
    ("--hlep", "--help"),
  ])
  func aTypoOfAnOptionIsMatchedToIt(_ typed: String, _ option: String) {
    #expect(OptionSuggestion.nearest(to: typed, in: options) == option)
  }

  @Test(arguments: [
    "--frob", "--recorder-x", "--n", "--apix1", "-r", "-h", "record", "--", "",
    "--" + String(repeating: "record", count: 100_000),
  ])
  func anythingFurtherOffHasNoSuggestion(_ typed: String) {
    #expect(OptionSuggestion.nearest(to: typed, in: options) == nil)
  }

  @Test func theNearestWinsAndTheFirstOnATie() {
    #expect(OptionSuggestion.nearest(to: "--stae", in: options) == "--state")
    #expect(OptionSuggestion.nearest(to: "--ab", in: ["--ac", "--ad"]) == "--ac")
    #expect(OptionSuggestion.nearest(to: "--ab", in: ["--ad", "--ac"]) == "--ad")
  }

  @Test func swapsCountOnce() {
    #expect(OptionSuggestion.distance(Array("ab"), Array("ba"), atMost: 2) == 1)
    #expect(OptionSuggestion.distance(Array("abc"), Array("ca"), atMost: 3) == 3)
    #expect(OptionSuggestion.distance(Array(""), Array("ab"), atMost: 2) == 2)
    #expect(OptionSuggestion.distance(Array("abcd"), Array("wxyz"), atMost: 2) == nil)
  }

  /// A value not among an option's choices is matched by the same rules, without dashes.
  @Test func aMistypedChoiceIsMatchedByTheSameRules() {
    let presets = ["default", "email", "min6"]
    #expect(OptionSuggestion.nearestWord(to: "emial", in: presets) == "email")
    #expect(OptionSuggestion.nearestWord(to: "MIN6", in: presets) == "min6")
    #expect(OptionSuggestion.nearestWord(to: "strict", in: presets) == nil)
    #expect(OptionSuggestion.nearestWord(to: "", in: presets) == nil)
  }
}
