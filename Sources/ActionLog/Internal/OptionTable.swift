/// The options of a command line — `login-demo`, `replay` (and a host's replay tool built on
/// `ReplayCommand`), `store-bench` — in one table that parses them, words their errors and
/// lists them in `--help`, by one set of rules:
///
/// - `--name value` and `--name=value` both give an option its value; the next argument is the
///   value unless it is a long option itself (`--html --verify` lacks its value, `--until -3`
///   has one, which the tool then refuses as a step number).
/// - An option without a value given `=value` is refused (`--verify=yes takes no value`).
/// - `--` ends the options: everything after it is an argument, and so is `-`.
/// - An unknown option is refused with the known one it most likely meant
///   (``OptionSuggestion``).
/// - An option that takes a value is given once: a second one is refused, naming both values
///   (`--html given twice ('a.html', then 'b.html'); give it once`). An option without a value
///   may be repeated.
/// - Values are shown in messages through ``Sanitized``: a path whole, a URL without its
///   user info, anything else as a short name.
/// - A path (``Option/Kind/path``) is never empty: an empty one is refused the same way for
///   every option and argument (``Failure/emptyPath(option:)``).
/// - A choice (``Option/Kind/choice(_:)``) is one of its words: another is refused with the
///   one it most likely meant, as an unknown option is (`--rules must be one of default, email,
///   min6, not 'emial'; did you mean 'email'?`).
///
/// ```swift
/// let table = OptionTable([
///   .init("--until", value: "N", needs: "a step number", help: ["stop after step N"]),
///   .init("--help", short: "-h", help: ["this text"]),
/// ])
/// let parsed = try table.parse(["--until=3", "log.jsonl"])
/// parsed.value(of: "--until")  // "3"
/// parsed.arguments             // ["log.jsonl"]
/// ```
package struct OptionTable: Sendable {
  /// One option.
  package struct Option: Sendable {
    /// Its long name, `--until`.
    package var name: String
    /// Its short name, `-h`, if it has one.
    package var short: String?
    /// What its value is called in the help (`N`, `FILE`); `nil` for an option without one.
    package var value: String?
    /// What a missing value is, after "needs": `a step number`.
    package var needs: String
    /// Its lines in `--help`, without the name.
    package var help: [String]
    /// What its value is: how it is checked and shown in messages.
    package var kind: Kind

    /// What an option's value is.
    package enum Kind: Sendable, Equatable {
      /// Any text, shown as ``Sanitized/name(_:)`` shows a name.
      case text
      /// A path: never empty, shown whole (``Sanitized/path(_:)``).
      case path
      /// A URL, shown without its user info (``Sanitized/url(_:)``).
      case url
      /// One of these words, in the order a suggestion prefers on a tie.
      case choice([String])
    }

    /// An option.
    ///
    /// - Parameters:
    ///   - name: Its long name.
    ///   - short: Its short name.
    ///   - value: What its value is called; `nil` for an option without one.
    ///   - needs: What a missing value is, after "needs"; "a value" by default.
    ///   - kind: What its value is; any text by default.
    ///   - help: Its lines in `--help`.
    package init(
      _ name: String, short: String? = nil, value: String? = nil, needs: String = "a value",
      kind: Kind = .text, help: [String]
    ) {
      self.name = name
      self.short = short
      self.value = value
      self.needs = needs
      self.kind = kind
      self.help = help
    }

    /// `value` as a message shows this option's value: through ``Sanitized``, never raw.
    package func shown(_ value: String) -> String {
      switch kind {
      case .path: Sanitized.path(value)
      case .url: Sanitized.url(value)
      case .text, .choice: Sanitized.name(value)
      }
    }
  }

  /// What a command line gave.
  package struct Parsed: Equatable, Sendable {
    /// The options given, in order, each with its value (`nil` for an option without one).
    package var options: [Given] = []
    /// The other arguments, in order.
    package var arguments: [String] = []

    /// One option as given.
    package struct Given: Equatable, Sendable {
      package var name: String
      package var value: String?
    }

    /// Whether `name` was given.
    package func has(_ name: String) -> Bool { options.contains { $0.name == name } }

    /// The value `name` was given, if it was given (an option with a value is given once).
    package func value(of name: String) -> String? {
      options.last { $0.name == name }?.value
    }
  }

  /// A command line the table refuses.
  package enum Failure: Error, Equatable, Sendable {
    /// An option the table does not know, as typed (without any `=value`).
    case unknownOption(String)
    /// An option that takes a value, given none.
    case missingValue(option: String, needs: String)
    /// An option without a value, given one.
    case unexpectedValue(option: String)
    /// An option that takes one value, given twice: both values as messages show them.
    case repeatedOption(option: String, first: String, second: String)
    /// A path option, or a path argument (`FILE`), given an empty path.
    case emptyPath(option: String)
    /// A value not among an option's choices, as messages show it, with the choice it most
    /// likely meant.
    case notAChoice(option: String, value: String, choices: [String], suggestion: String?)

    /// The message, with where to look for help (`see --help`, `see replay --help`).
    ///
    /// - Parameters:
    ///   - known: The options a suggestion is chosen from.
    ///   - seeHelp: The words in the closing parentheses.
    package func message(known: [String], seeHelp: String) -> String {
      switch self {
      case .unknownOption(let option):
        let suggestion = OptionSuggestion.nearest(to: option, in: known).map {
          "; did you mean '\($0)'?"
        }
        return "unknown option \(Sanitized.name(option))\(suggestion ?? "") (\(seeHelp))"
      case .missingValue(let option, let needs):
        return "\(option) needs \(needs) (\(seeHelp))"
      case .unexpectedValue(let option):
        return "\(option) takes no value (\(seeHelp))"
      case .repeatedOption(let option, let first, let second):
        return "\(option) given twice (\(first), then \(second)); give it once (\(seeHelp))"
      case .emptyPath(let option):
        return "\(option) needs a path, not an empty one (\(seeHelp))"
      case .notAChoice(let option, let value, let choices, let suggestion):
        return "\(option) must be one of \(choices.joined(separator: ", ")), not \(value)"
          + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + " (\(seeHelp))"
      }
    }
  }

  /// The options, in the order `--help` lists them.
  package let options: [Option]

  /// A table of `options`, in the order `--help` lists them.
  package init(_ options: [Option]) {
    self.options = options
  }

  /// The long names, in the order `--help` lists them: what a suggestion is chosen from.
  package var names: [String] { options.map(\.name) }

  /// Parses the arguments after the program name.
  ///
  /// - Throws: ``Failure`` for the first argument the table refuses.
  package func parse(_ arguments: [String]) throws(Failure) -> Parsed {
    var parsed = Parsed()
    var rest = arguments[...]
    var optionsEnded = false
    while let argument = rest.popFirst() {
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.arguments.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var typed = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        typed = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      guard let option = options.first(where: { $0.name == typed || $0.short == typed }) else {
        throw .unknownOption(typed)
      }
      guard option.value != nil else {
        guard inline == nil else { throw .unexpectedValue(option: option.name) }
        parsed.options.append(.init(name: option.name, value: nil))
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else if let next = rest.first, !next.hasPrefix("--") {
        rest.removeFirst()
        value = next
      } else {
        throw .missingValue(option: option.name, needs: option.needs)
      }
      if let first = parsed.value(of: option.name) {
        throw .repeatedOption(
          option: option.name, first: option.shown(first), second: option.shown(value))
      }
      try check(value, of: option)
      parsed.options.append(.init(name: option.name, value: value))
    }
    return parsed
  }

  /// Refuses an empty path, and a value that is not among an option's choices with the one
  /// it most likely meant.
  private func check(_ value: String, of option: Option) throws(Failure) {
    switch option.kind {
    case .path where value.isEmpty:
      throw .emptyPath(option: option.name)
    case .choice(let choices) where !choices.contains(value):
      throw .notAChoice(
        option: option.name, value: option.shown(value), choices: choices,
        suggestion: OptionSuggestion.nearestWord(to: value, in: choices))
    case .text, .path, .url, .choice:
      return
    }
  }

  /// The options as `--help` lists them: each name (and value) at `indent`, its help in a
  /// column starting `column` characters after the indent, or on the next line when the name
  /// is too long for the column.
  package func help(indent: Int, column: Int) -> String {
    let margin = String(repeating: " ", count: indent)
    let helpMargin = String(repeating: " ", count: indent + column)
    var lines: [String] = []
    for option in options {
      var head = option.short.map { $0 + ", " } ?? ""
      head += option.name + (option.value.map { " " + $0 } ?? "")
      var help = option.help[...]
      if head.count < column, let first = help.popFirst() {
        lines.append(margin + head + String(repeating: " ", count: column - head.count) + first)
      } else {
        lines.append(margin + head)
      }
      lines += help.map { helpMargin + $0 }
    }
    return lines.joined(separator: "\n")
  }
}
