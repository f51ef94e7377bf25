import ActionLog
import Testing

/// The one option table of `login-demo`, `replay` and `store-bench`: one set of rules for
/// values, `=`, `--`, unknown options, and one layout of `--help`.
struct OptionTableTests {
  private let table = OptionTable([
    .init("--verify", help: ["check every step"]),
    .init("--until", value: "N", needs: "a step number", help: ["stop after step N"]),
    .init("--flight-recorder", value: "DIR", help: ["record into DIR,", "rolling"]),
    .init("--help", short: "-h", help: ["this text"]),
  ])

  @Test func valuesComeAfterASpaceOrAnEqualsSign() throws {
    let parsed = try table.parse(["--until", "3", "log", "--flight-recorder=rec", "-h", "--verify"])
    #expect(parsed.value(of: "--until") == "3")
    #expect(parsed.value(of: "--flight-recorder") == "rec")
    #expect(parsed.has("--help"))
    #expect(parsed.has("--verify"))
    #expect(parsed.arguments == ["log"])
    #expect(parsed.options.map(\.name) == ["--until", "--flight-recorder", "--help", "--verify"])
  }

  /// The next argument is the value unless it is a long option: a negative number is a value
  /// (the tool then says what is wrong with it), `--verify` is not.
  @Test func theNextArgumentIsTheValueUnlessItIsALongOption() throws {
    #expect(try table.parse(["--until", "-3"]).value(of: "--until") == "-3")
    #expect(try table.parse(["--until="]).value(of: "--until") == "")
    #expect(throws: OptionTable.Failure.missingValue(option: "--until", needs: "a step number")) {
      try table.parse(["--until", "--verify"])
    }
    #expect(throws: OptionTable.Failure.missingValue(option: "--until", needs: "a step number")) {
      try table.parse(["--until"])
    }
  }

  @Test func dashDashEndsTheOptionsAndADashIsAnArgument() throws {
    let parsed = try table.parse(["-", "--", "--verify", "-h"])
    #expect(parsed.arguments == ["-", "--verify", "-h"])
    #expect(parsed.options.isEmpty)
  }

  @Test func badOptionsAreWordedOneWayForEveryTool() {
    func message(_ arguments: [String]) -> String {
      do {
        _ = try table.parse(arguments)
        return "parsed"
      } catch {
        return error.message(known: table.names, seeHelp: "see replay --help")
      }
    }
    #expect(
      message(["--verfiy"])
        == "unknown option '--verfiy'; did you mean '--verify'? (see replay --help)")
    #expect(message(["--frobnicate=1"]) == "unknown option '--frobnicate' (see replay --help)")
    #expect(message(["--verify=yes"]) == "--verify takes no value (see replay --help)")
    #expect(message(["-h=1"]) == "unknown option '-h=1' (see replay --help)")
    #expect(message(["--until"]) == "--until needs a step number (see replay --help)")
    #expect(message(["-x"]) == "unknown option '-x' (see replay --help)")
    // Control bytes in an unknown option are shown, not sent to the terminal.
    #expect(message(["--\u{1B}[2J"]) == "unknown option '--?[2J' (see replay --help)")
  }

  /// An option that takes one value, given twice, is refused naming both values as messages
  /// show them (a path whole, a URL without its password, control bytes as `?`); an option
  /// without a value may be repeated.
  @Test func anOptionWithAValueGivenTwiceIsRefusedNamingBothValues() throws {
    let table = OptionTable([
      .init("--verify", help: ["check"]),
      .init("--until", value: "N", help: ["stop"]),
      .init("--html", value: "OUT", kind: .path, help: ["page"]),
      .init("--api", value: "URL", kind: .url, help: ["service"]),
    ])
    func message(_ arguments: [String]) -> String {
      do {
        _ = try table.parse(arguments)
        return "parsed"
      } catch {
        return error.message(known: table.names, seeHelp: "see --help")
      }
    }
    #expect(
      message(["--html", "a", "--html=b"])
        == "--html given twice ('a', then 'b'); give it once (see --help)")
    #expect(
      message(["--until", "3", "--until", "3"])
        == "--until given twice ('3', then '3'); give it once (see --help)")
    #expect(
      message(["--api", "http://me:hunter2@a/", "--api", "http://b/"])
        == "--api given twice ('http://••••@a/', then 'http://b/'); give it once (see --help)")
    #expect(
      message(["--html", "dir/a\u{1B}[2J", "--html", "b"])
        == #"--html given twice ('dir/a\u{1B}[2J', then 'b'); give it once (see --help)"#)
    #expect(message(["--verify", "--verify"]) == "parsed")
  }

  /// Names with their values in one column, help in the next; a name too long for its column
  /// puts its help on the lines below.
  @Test func helpListsEveryOptionInTwoColumns() {
    #expect(
      table.help(indent: 2, column: 14) == """
          --verify      check every step
          --until N     stop after step N
          --flight-recorder DIR
                        record into DIR,
                        rolling
          -h, --help    this text
        """)
    #expect(table.names == ["--verify", "--until", "--flight-recorder", "--help"])
  }

  /// At the column's edge: a name one shorter than the column keeps one space before its help,
  /// a name exactly as long puts its help on the line below (issue 49 §5: no name was exactly
  /// as long as its column, so a `<=` went unnoticed).
  @Test func aNameAsLongAsItsColumnPutsItsHelpBelow() {
    let edge = OptionTable([
      .init("--twelve-chr", help: ["fits"]), .init("--thirteen-ch", help: ["below"]),
    ])
    #expect(
      edge.help(indent: 0, column: 13) == """
        --twelve-chr fits
        --thirteen-ch
                     below
        """)
  }
}
