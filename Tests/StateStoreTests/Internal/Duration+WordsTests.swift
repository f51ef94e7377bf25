import StateStore
import Testing

struct DurationWordsTests {
  static let table: [(Duration, String)] = [
    (.zero, "0 seconds"),
    (.nanoseconds(1), "1 nanosecond"),
    (.nanoseconds(250), "250 nanoseconds"),
    (Duration(attoseconds: 1), "less than 0.001 nanoseconds"),
    (Duration(attoseconds: 1_500_000), "0.002 nanoseconds"),
    (.microseconds(1), "1 microsecond"),
    (.nanoseconds(1_500), "1.5 microseconds"),
    (.microseconds(800), "800 microseconds"),
    (.nanoseconds(999_999_600), "1 second"),
    (.nanoseconds(999_999), "999.999 microseconds"),
    (.nanoseconds(9_999_000), "9.999 milliseconds"),
    (.nanoseconds(9_999_999), "10 milliseconds"),
    (.milliseconds(1), "1 millisecond"),
    (.microseconds(1_500), "1.5 milliseconds"),
    (.microseconds(1_001), "1.001 milliseconds"),
    (.milliseconds(250), "250 milliseconds"),
    (.milliseconds(999), "999 milliseconds"),
    (.microseconds(999_999), "999.999 milliseconds"),
    (.nanoseconds(999_999_999), "1 second"),
    (.seconds(1), "1 second"),
    (.milliseconds(1_001), "1.001 seconds"),
    (.milliseconds(1_140), "1.14 seconds"),
    (.milliseconds(1_500), "1.5 seconds"),
    (.seconds(2), "2 seconds"),
    (.milliseconds(10_100), "10.1 seconds"),
    (.seconds(30), "30 seconds"),
    (.milliseconds(59_999), "59.999 seconds"),
    (.microseconds(59_999_600), "1 minute"),
    (.seconds(60), "1 minute"),
    (.seconds(61), "1 minute 1 second"),
    (.seconds(90), "1 minute 30 seconds"),
    (.milliseconds(90_500), "1 minute 30.5 seconds"),
    (.seconds(120), "2 minutes"),
    (.seconds(3_599), "59 minutes 59 seconds"),
    (.seconds(3_600), "1 hour"),
    (.milliseconds(3_600_500), "1 hour 0.5 seconds"),
    (.seconds(3_661), "1 hour 1 minute 1 second"),
    (.seconds(7_200), "2 hours"),
    (.seconds(86_400), "1 day"),
    (.seconds(86_400 + 3 * 3_600), "1 day 3 hours"),
    (.seconds(2 * 86_400 + 3_600 * 3), "2 days 3 hours"),
    (.seconds(1_000 * 86_400), "1,000 days"),
    (.seconds(365 * 86_400), "365 days"),
    (
      .seconds(Int64.max),
      "106,751,991,167,300 days 15 hours 30 minutes 7 seconds"
    ),
    (
      .seconds(Int64.max) + .seconds(Int64.max),
      "213,503,982,334,601 days 7 hours 14 seconds"
    ),
    (
      Duration(attoseconds: .max),
      "1,969,226,660,422,097 days 14 hours 8 minutes 51.687 seconds"
    ),
    (.milliseconds(-1_500), "-1.5 seconds"),
    (.seconds(-90), "-1 minute 30 seconds"),
    (
      Duration(attoseconds: .min),
      "-1,969,226,660,422,097 days 14 hours 8 minutes 51.687 seconds"
    ),
  ]

  @Test(arguments: table)
  func readsTheWayAPersonWritesIt(duration: Duration, expected: String) {
    #expect(duration.inWords == expected)
  }

  @Test func everyMillisecondUpToAMinuteReadsWithoutNoise() {
    for milliseconds in 1..<60_000 {
      let text = Duration.milliseconds(milliseconds).inWords
      let words = text.split(separator: " ")
      let unit = milliseconds < 1_000 ? "millisecond" : "second"
      let plural = milliseconds == 1 || milliseconds == 1_000 ? unit : unit + "s"
      #expect(words.count == 2 && words[1] == plural, "\(milliseconds) ms reads \(text)")
      let decimals = (words.first ?? "").drop { $0 != "." }.dropFirst()
      #expect(decimals.count <= 3 && decimals.last != "0", "\(milliseconds) ms reads \(text)")
    }
  }
}
