/// The long options a tool's `--help` lists, and the typo of each that its suggestion must
/// undo: one reading of the help for every tool's "did you mean" test.
package enum HelpOptions {
  /// Every `--option` named in `help`, sorted.
  package static func listed(in help: String) -> [String] {
    Set(help.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }).sorted()
  }

  /// `option` with its last two letters swapped (`--record` → `--recodr`).
  package static func typo(of option: String) -> String {
    String(option.dropLast(2) + option.suffix(2).reversed())
  }
}
