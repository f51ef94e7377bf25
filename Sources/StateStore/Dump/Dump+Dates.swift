extension Dump {
  /// A Foundation `Date` as ISO 8601 in UTC, `2026-11-25T14:50:48Z`, with milliseconds when it
  /// has any (`2026-11-25T14:50:48.250Z`); `nil` for any other value.
  ///
  /// `StateStore` does not link Foundation, so a date is recognized by its type's name and its
  /// one reflected field, the seconds since 2001-01-01. The calendar is the proleptic Gregorian
  /// one ISO 8601 uses, for every year from 1 to 9999; a date outside them, or not finite,
  /// keeps the seconds: `Date(timeIntervalSinceReferenceDate: 1e+300)`.
  static func iso8601(ofDate value: Any, mirror: Mirror) -> String? {
    guard mirror.displayStyle == .struct, mirror.children.count == 1,
      let child = mirror.children.first, child.label == "timeIntervalSinceReferenceDate",
      let seconds = child.value as? Double
    else { return nil }
    let name = String(reflecting: type(of: value))
    guard name == "Foundation.Date" || name == "FoundationEssentials.Date" else { return nil }
    return iso8601(secondsSinceReferenceDate: seconds)
  }

  /// `seconds` after 2001-01-01T00:00:00Z as ISO 8601 in UTC (see ``iso8601(ofDate:mirror:)``).
  package static func iso8601(secondsSinceReferenceDate seconds: Double) -> String {
    // 2001-01-01 is day 11,323 after 1970-01-01; years 1…9999 span about ±3.2e11 seconds.
    let milliseconds = (seconds * 1_000).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 4e14 else {
      return "Date(timeIntervalSinceReferenceDate: \(seconds))"
    }
    let sinceEpoch = Int64(milliseconds) + 978_307_200_000
    let (days, millisecondOfDay) = floorDivision(sinceEpoch, by: 86_400_000)
    let (year, month, day) = civilDate(daysSince1970: days)
    guard (1...9999).contains(year) else {
      return "Date(timeIntervalSinceReferenceDate: \(seconds))"
    }
    let second = millisecondOfDay / 1_000
    var text =
      padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2) + "T"
      + padded(second / 3_600, 2) + ":" + padded(second % 3_600 / 60, 2) + ":"
      + padded(second % 60, 2)
    if millisecondOfDay % 1_000 != 0 { text += "." + padded(millisecondOfDay % 1_000, 3) }
    return text + "Z"
  }

  private static func floorDivision(_ value: Int64, by divisor: Int64) -> (Int64, Int64) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }

  /// Year, month and day of a day counted from 1970-01-01, proleptic Gregorian.
  private static func civilDate(daysSince1970: Int64) -> (Int64, Int64, Int64) {
    let shifted = daysSince1970 + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  private static func padded(_ value: Int64, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}
