import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing

/// The second version of the canonical form writes a `Duration` as a number of seconds, exact to
/// the attosecond, and reads it back to the same `Duration`, wherever it sits in a value.
struct CanonicalDurationTests {
  static let edges: [Duration] = [
    .zero, .seconds(30), .milliseconds(-1_500), Duration(attoseconds: 1), Duration(attoseconds: -1),
    .nanoseconds(1), Duration(secondsComponent: -3, attosecondsComponent: -10),
    .seconds(Int64.max), .seconds(Int64.min), Duration(attoseconds: .max),
    Duration(attoseconds: .min), Duration(attoseconds: .max - 1), Duration(attoseconds: .min + 1),
  ]

  @Test func durationsAreSecondsToTheAttosecond() throws {
    let encoder = CanonicalJSONEncoder()
    func text(_ duration: Duration) throws -> String {
      String(decoding: try encoder.encode(duration), as: UTF8.self)
    }
    #expect(try text(.zero) == "0")
    #expect(try text(.seconds(30)) == "30")
    #expect(try text(.milliseconds(-1_500)) == "-1.5")
    #expect(try text(Duration(attoseconds: 1)) == "0.000000000000000001")
    #expect(try text(Duration(attoseconds: -1)) == "-0.000000000000000001")
    #expect(try text(.nanoseconds(1)) == "0.000000001")
    #expect(try text(.seconds(Int64.max)) == "9223372036854775807")
    #expect(try text(Duration(attoseconds: .max)) == "170141183460469231731.687303715884105727")
    #expect(try text(Duration(attoseconds: .min)) == "-170141183460469231731.687303715884105728")
    // The first version keeps Duration's own Codable form.
    #expect(
      String(
        decoding: try CanonicalJSONEncoder(form: .v1).encode(Duration.seconds(30)), as: UTF8.self)
        == "[1,11553255926290448384]")
  }

  @Test(arguments: edges)
  func everyDurationReadsBackTheSame(duration: Duration) throws {
    struct Holder: Codable, Equatable {
      var one: Duration
      var optional: Duration?
      var list: [Duration]
      var byName: [String: Duration]
    }
    let holder = Holder(
      one: duration, optional: duration, list: [duration, .zero], byName: ["a": duration])
    let bytes = Data(try CanonicalJSONEncoder().encode(holder))
    #expect(try CanonicalJSONDecoder().decode(Holder.self, from: bytes) == holder)
    #expect(
      try CanonicalJSONDecoder().decode(
        Duration.self, from: Data(CanonicalJSONEncoder().encode(duration))) == duration)
    // And the first version through JSONDecoder as ever.
    let v1 = Data(try CanonicalJSONEncoder(form: .v1).encode(holder))
    #expect(try CanonicalJSONDecoder(form: .v1).decode(Holder.self, from: v1) == holder)
    #expect(try JSONDecoder().decode(Holder.self, from: v1) == holder)
  }

  @Test(arguments: [
    "1e-19", "0.0000000000000000001", "170141183460469231731.687303715884105728",
    "-170141183460469231731.687303715884105729", "1e40", "\"30\"", "[1,0]", "true",
  ])
  func whatIsNoDurationIsADecodingErrorNamingWhere(text: String) throws {
    struct Holder: Decodable { var rules: [Duration] }
    let data = Data(#"{"rules":[0,\#(text)]}"#.utf8)
    do {
      _ = try CanonicalJSONDecoder().decode(Holder.self, from: data)
      Issue.record("\(text) decoded as a duration")
    } catch let error as DecodingError {
      switch error {
      case .dataCorrupted(let context), .typeMismatch(_, let context):
        #expect(context.codingPath.map(\.stringValue) == ["rules", "Index 1"])
      default: Issue.record("\(error)")
      }
    }
  }

  @Test func aMissingDurationIsAMissingKey() throws {
    struct Holder: Decodable {
      var lockout: Duration
      var nested: [String: Int]
    }
    #expect {
      try CanonicalJSONDecoder().decode(Holder.self, from: Data(#"{"lockout":1}"#.utf8))
    } throws: { error in
      guard case DecodingError.keyNotFound(let key, _) = error else { return false }
      return key.stringValue == "nested"
    }
  }

  /// A log of the current version holds seconds, and replays and verifies.
  @Test func aLockedLoginStateRoundTripsThroughTheLogDecoder() throws {
    let state = LoginState(
      username: "demo", failedAttempts: 5, isLocked: true, lockedFor: .milliseconds(29_999))
    let bytes = try CanonicalJSONEncoder().encode(state)
    #expect(String(decoding: bytes, as: UTF8.self).contains(#""lockedFor":29.999"#))
    #expect(try CanonicalJSONDecoder().decode(LoginState.self, from: Data(bytes)) == state)
  }
}
