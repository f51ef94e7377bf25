import ActionLog
import Foundation
import LoginFeature
import StateStore

/// The command line of `login-demo`, parsed by the package's one option table (`table`).
package struct DemoOptions: Equatable {
  /// The `--rules` presets, by name.
  static let rulesPresets: [(name: String, rules: CredentialRules)] = [
    ("default", .default), ("email", .email), ("min6", .minimumLength(6)),
  ]
  /// Every option `parse(_:)` takes, in the order `--help` lists them: one table parses them,
  /// words their errors and lists them in the help (``OptionTable``).
  static let table = OptionTable([
    .init(
      "--rules", value: "NAME", kind: .choice(rulesPresets.map(\.name)),
      help: ["validation rules: default, email or min6 (default: default)"]),
    .init(
      "--latency", value: "MS",
      help: [
        "the demo service's answer time in milliseconds (default: "
          + "\(defaultLatencyMilliseconds))"
      ]),
    .init(
      "--api", value: "URL", kind: .url,
      help: ["sign in with the HTTP service at URL instead of the demo one"]),
    .init(
      "--record", value: "FILE", kind: .path,
      help: [
        "write an action log of the whole app (feature 'app') to FILE",
        "(0600); an existing FILE is replaced only if it is an",
        "action log or empty, never the script or a symbolic link",
      ]),
    .init(
      "--script", value: "FILE", kind: .path,
      help: ["run the script in FILE instead of reading stdin"]),
    .init(
      "--state-dir", value: "DIR", kind: .path,
      help: [
        "keep the session and the lockout in files in DIR (0600), so",
        "a relaunch with the same DIR restores them; without it",
        "nothing is kept",
      ]),
    .init(
      "--flight-recorder", value: "DIR", kind: .path,
      help: [
        "record rolling action-log segments in DIR (8 MiB in all,",
        "the oldest dropped first); replay DIR replays them",
      ]),
    .init(
      "--now", value: "DATE",
      help: [
        "script mode's wall clock at the start, e.g.",
        "2026-01-01T00:00:00Z (the default)",
      ]),
    .init("--help", short: "-h", help: ["show this help"]),
  ])
  /// The demo service's latency in milliseconds when `--latency` is not given.
  static let defaultLatencyMilliseconds = 600

  /// The validation rules (`--rules`).
  var rules: CredentialRules = .default
  /// The demo service's latency (`--latency MS`).
  var latency: Duration = .milliseconds(defaultLatencyMilliseconds)
  /// The HTTP login service to use instead of the demo one (`--api URL`).
  var apiURL: String?
  /// Where to write the action log (`--record FILE`).
  var recordPath: String?
  /// The script to run instead of reading stdin (`--script FILE`).
  var scriptPath: String?
  /// Where the session and the lockout are kept between launches (`--state-dir DIR`);
  /// nothing is kept without it.
  package var stateDirectory: String?
  /// Where rolling action-log segments go (`--flight-recorder DIR`).
  var flightRecorderDirectory: String?
  /// The wall-clock time script mode starts at (`--now`).
  var scriptStart = DemoOptions.defaultScriptStart
  /// Whether `--help` was given.
  var showsHelp = false

  /// The defaults: no option given.
  package init() {}

  /// 2026-01-01T00:00:00Z: script mode's wall clock starts here unless `--now` says otherwise.
  static let defaultScriptStart = Date(timeIntervalSince1970: 1_767_225_600)

  /// Parses the arguments after the program name. `--name value` and `--name=value` both work;
  /// an option that takes a value is given once.
  ///
  /// - Parameter arguments: The arguments, without the program name.
  /// - Returns: The options.
  /// - Throws: ``DemoOptionsError`` for the first bad argument.
  static func parse(_ arguments: [String]) throws(DemoOptionsError) -> DemoOptions {
    var options = DemoOptions()
    let parsed: OptionTable.Parsed
    do {
      parsed = try table.parse(arguments)
    } catch {
      throw .commandLine(error)
    }
    if let argument = parsed.arguments.first { throw .unexpectedArgument(argument) }
    for given in parsed.options {
      // The table refuses an empty path.
      let text = given.value ?? ""
      switch given.name {
      case "--help":
        options.showsHelp = true
      case "--rules":
        // The table takes only the presets' names: its choices are theirs.
        options.rules = rulesPresets.first { $0.name == text }?.rules ?? .default
      case "--latency":
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int(text),
          milliseconds <= 60_000
        else { throw .invalidLatency(text) }
        options.latency = .milliseconds(milliseconds)
      case "--api":
        guard isHTTPURL(text) else { throw .invalidURL(text) }
        options.apiURL = text
      case "--record":
        options.recordPath = text
      case "--script":
        options.scriptPath = text
      case "--state-dir":
        options.stateDirectory = text
      case "--flight-recorder":
        options.flightRecorderDirectory = text
      case "--now":
        guard let date = Self.date(fromISO8601: text) else { throw .invalidDate(text) }
        options.scriptStart = date
      default:
        // The table names no other option.
        throw .commandLine(.unknownOption(given.name))
      }
    }
    return options
  }

  /// `http://host…` or `https://host…` with a non-empty host, and no space or invisible
  /// character anywhere.
  private static func isHTTPURL(_ text: String) -> Bool {
    guard
      !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.isInvisible })
    else { return false }
    let lowered = text.lowercased()
    for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
      let host = text.dropFirst(scheme.count).prefix(while: { !"/?#".contains($0) })
      return !host.isEmpty && !host.contains(where: \.isWhitespace)
    }
    return false
  }
}

/// A bad command line: an option `parse(_:)` refuses, or a `--state-dir` the launch finds
/// unusable. Its ``description`` is the one-line message printed after `login-demo: `; the
/// exit status is 2.
enum DemoOptionsError: Error, Equatable, CustomStringConvertible {
  /// What the option table refuses: an unknown option, a missing or unexpected value.
  case commandLine(OptionTable.Failure)
  case unexpectedArgument(String)
  case invalidLatency(String)
  case invalidURL(String)
  case invalidDate(String)
  /// `--state-dir` names something that exists and is not a folder.
  case stateDirectoryNotAFolder(String)
  /// An option names a path whose folder does not exist, or is not a folder: only the last
  /// part of a path is ever created (``ActionLog/MissingFolder``'s words).
  case missingFolder(String)

  var description: String {
    switch self {
    case .commandLine(let failure):
      failure.message(known: DemoOptions.table.names, seeHelp: "see --help")
    case .unexpectedArgument(let argument):
      "unexpected argument \(Sanitized.name(argument)) (see --help)"
    case .invalidLatency(let text):
      "--latency must be a whole number of milliseconds from 0 to 60000, got "
        + "\(Sanitized.name(text))"
    case .invalidURL(let text):
      "--api must be an http:// or https:// URL, got \(Sanitized.url(text))"
    case .invalidDate(let text):
      "--now must be a real date in the years 1 to 9999, like 2026-01-01T00:00:00Z or "
        + "2026-01-01T01:00:00+01:00, got \(Sanitized.name(text))"
    case .stateDirectoryNotAFolder(let path):
      "--state-dir \(Sanitized.path(path)) is not a folder"
    case .missingFolder(let words):
      words
    }
  }
}

extension DemoOptions {
  /// `YYYY-MM-DDThh:mm:ss` with `Z` or a `±hh:mm` offset, checked strictly: years 1…9999, a
  /// day that exists in its month, hours 0…23, offsets within ±14:00. `ISO8601DateFormatter`
  /// rolls February 30 over into March and takes `+99:00`; a wall clock that far off would
  /// write a session the next launch reads as corrupt.
  static func date(fromISO8601 text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 || bytes.count == 25 else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    func byte(_ index: Int, is character: Character) -> Bool {
      bytes[index] == character.asciiValue
    }
    guard byte(4, is: "-"), byte(7, is: "-"), byte(10, is: "T"), byte(13, is: ":"),
      byte(16, is: ":"), let year = number(0..<4), let month = number(5..<7),
      let day = number(8..<10), let hour = number(11..<13), let minute = number(14..<16),
      let second = number(17..<19), (1...9999).contains(year), (1...12).contains(month),
      hour < 24, minute < 60, second < 60
    else { return nil }
    let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    guard (1...days).contains(day) else { return nil }
    var offset = 0
    if bytes.count == 20 {
      guard byte(19, is: "Z") else { return nil }
    } else {
      guard byte(19, is: "+") || byte(19, is: "-"), byte(22, is: ":"),
        let hours = number(20..<22), let minutes = number(23..<25), minutes < 60,
        hours * 60 + minutes <= 14 * 60
      else { return nil }
      offset = (hours * 3_600 + minutes * 60) * (byte(19, is: "-") ? -1 : 1)
    }
    // Days since 1970 in the proleptic Gregorian calendar that ISO 8601 uses (Foundation's
    // Gregorian calendar turns Julian before 1582, which put 0001-01-01 two days early).
    let shifted = month <= 2 ? year - 1 : year
    let era = shifted / 400  // years 1…9999 leave `shifted` at 0 or more
    let yearOfEra = shifted - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let sinceEpoch = era * 146_097 + dayOfEra - 719_468
    let seconds = sinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }
}
