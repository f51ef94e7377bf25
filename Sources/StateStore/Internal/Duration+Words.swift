extension Duration {
  /// The duration the way a person writes it, for alerts and screens.
  ///
  /// One style everywhere the app shows a duration (the lockout alert, the terminal demo):
  ///
  /// - Under a second: milliseconds — or microseconds, or nanoseconds, whichever the value
  ///   reaches — with up to three decimals: "250 milliseconds", "1 millisecond",
  ///   "1.5 milliseconds", "800 microseconds".
  /// - From one second to under a minute: seconds with up to three decimals: "1 second",
  ///   "1.14 seconds", "59.999 seconds".
  /// - A minute and more: days, hours, minutes and seconds, largest first, parts that are zero
  ///   left out, seconds with up to three decimals: "1 minute", "1 minute 30 seconds",
  ///   "1 hour 0.5 seconds", "2 days 3 hours".
  ///
  /// Values are rounded to the nearest thousandth of the unit they end in, and a rounding that
  /// reaches the next unit carries into it (59.9996 s reads "1 minute", not "60 seconds").
  /// Whole numbers of four digits or more are grouped with commas ("1,000 days"); a negative
  /// duration has a leading "-"; zero is "0 seconds". Exact, with no floating-point noise (1,140
  /// ms is "1.14 seconds"), and safe for every `Duration`, even far beyond `Int64` seconds.
  package var inWords: String {
    let magnitude = attoseconds.magnitude
    let text = Self.words(
      seconds: magnitude / Self.attosecondsPerSecond,
      attoseconds: magnitude % Self.attosecondsPerSecond)
    return attoseconds < 0 && text != "0 seconds" ? "-" + text : text
  }

  private static let attosecondsPerSecond: UInt128 = 1_000_000_000_000_000_000

  /// The units under a second, largest first: their size in attoseconds and their name.
  private static let subsecondUnits: [(size: UInt128, name: String)] = [
    (1_000_000_000_000_000, "millisecond"),
    (1_000_000_000_000, "microsecond"),
    (1_000_000_000, "nanosecond"),
  ]

  private static func words(seconds: UInt128, attoseconds: UInt128) -> String {
    if seconds == 0 {
      if attoseconds == 0 { return "0 seconds" }
      // The largest unit the value reaches; nanoseconds for anything smaller.
      let index = subsecondUnits.firstIndex { attoseconds >= $0.size } ?? subsecondUnits.count - 1
      let unit = subsecondUnits[index]
      let thousandths = rounded(attoseconds, toMultiplesOf: unit.size / 1_000)
      if thousandths == 0 { return "less than 0.001 nanoseconds" }
      if thousandths >= 1_000_000 {
        // Rounded up to 1,000 of this unit: one of the next larger.
        return index == 0 ? "1 second" : "1 \(subsecondUnits[index - 1].name)"
      }
      return count(thousandths: thousandths, of: unit.name)
    }

    var seconds = seconds
    var milliseconds = rounded(attoseconds, toMultiplesOf: attosecondsPerSecond / 1_000)
    if milliseconds == 1_000 {
      seconds += 1
      milliseconds = 0
    }
    if seconds < 60 {
      return count(thousandths: seconds * 1_000 + milliseconds, of: "second")
    }
    let parts: [(UInt128, String)] = [
      (seconds / 86_400 * 1_000, "day"),
      (seconds % 86_400 / 3_600 * 1_000, "hour"),
      (seconds % 3_600 / 60 * 1_000, "minute"),
      (seconds % 60 * 1_000 + milliseconds, "second"),
    ]
    return parts.filter { $0.0 > 0 }.map { count(thousandths: $0.0, of: $0.1) }
      .joined(separator: " ")
  }

  /// `value / unit`, rounded half up, without overflow.
  private static func rounded(_ value: UInt128, toMultiplesOf unit: UInt128) -> UInt128 {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: unit)
    return remainder >= unit - remainder ? quotient + 1 : quotient
  }

  /// "1 second", "1.14 seconds", "1,000 days" for `thousandths` thousandths of `unit`.
  private static func count(thousandths: UInt128, of unit: String) -> String {
    let whole = thousandths / 1_000
    let fraction = thousandths % 1_000
    var number = grouped(whole)
    if fraction > 0 {
      let digits = String(fraction)
      let padded = String(repeating: "0", count: 3 - digits.count) + digits
      number += "." + padded.reversed().drop { $0 == "0" }.reversed()
    }
    return thousandths == 1_000 ? "1 \(unit)" : "\(number) \(unit)s"
  }

  /// `value` with a comma between each group of three digits, from four digits on.
  package static func grouped(_ value: UInt128) -> String {
    let digits = Array(String(value))
    guard digits.count > 3 else { return String(digits) }
    var text = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
      text.append(digit)
    }
    return text
  }
}
