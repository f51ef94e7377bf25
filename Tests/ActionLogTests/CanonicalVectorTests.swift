import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// Golden vectors of the canonical form: values, their exact bytes and their digests, committed
/// in `Fixtures/canonical-vectors.txt` (the current version, `fnv1a64-canonical-v2`) and
/// `Fixtures/canonical-vectors-v1.txt` (the first version, which logs recorded in it are still
/// verified in). The bytes are the package's own (one encoder, no fallback), so they must not
/// move with Foundation's version or the platform: a change here changes every digest of every
/// log ever recorded.
///
/// Each fixture line is `name<TAB>digest<TAB>bytes`. `RECORD_CANONICAL_VECTORS=1 swift test
/// --filter CanonicalVectorTests` rewrites the current version's file (and fails, so the change
/// gets looked at). The first version's file is never rewritten.
struct CanonicalVectorTests {
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_CANONICAL_VECTORS"] == "1"

  static func file(_ form: CanonicalForm) -> URL {
    ReplayProcess.fixtures.appendingPathComponent(
      form == .current ? "canonical-vectors.txt" : "canonical-vectors-v\(form.rawValue).txt")
  }

  struct Keys: Encodable {
    enum CodingKeys: String, CodingKey {
      case b, a
      case upperB = "B"
      case accented = "é"
      case aa, a1
      case underscore = "_"
      case emoji = "😀"
      case zero = "0"
    }
    var b = 1, a = 2, upperB = 3, accented = 4, aa = 5, a1 = 6, underscore = 7, emoji = 8
    var zero = 9
  }

  struct Optionals: Encodable {
    var absent: Int?
    var present: Int? = 0
    var list: [Int?] = [nil, 1]
  }

  /// The vectors: every kind of value the format promises to write one way.
  static let vectors: [(String, any Encodable & Sendable)] = [
    ("integers", [0, -1, Int.min, Int.max]),
    ("unsigned", [UInt64.max, 0]),
    ("doubles", [0.1, -0.0, 1, 1.5, 1e16, 1e300, .leastNonzeroMagnitude, -123_456.789]),
    ("floats", [Float(0.1), 3, -1e10]),
    ("booleans and null", Optionals()),
    ("escapes", "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7} del \u{7F}"),
    ("unicode", "é ü 漢字 😀 \u{2028} \u{2029} \u{FEFF}"),
    ("key order", Keys()),
    ("nested", ["z": [[1, 2], []], "a": [[]]] as [String: [[Int]]]),
    ("empty", [String: Int]()),
    ("date", Date(timeIntervalSinceReferenceDate: 12.5)),
    ("durations", [Duration.seconds(30), .milliseconds(1_500), .zero, .seconds(-1)]),
    ("secret", Secret("Secr3t ü!")),
    ("data", Data([0, 0xFF, 0x10])),
    ("url", URL(string: "https://example.com/a b?c=d")!),
    ("decimal", Decimal(string: "12.50")!),
    ("login state", LoginState()),
    (
      "locked state",
      LoginState(username: "demo", failedAttempts: 5, isLocked: true, lockedFor: .seconds(30))
    ),
    (
      "an action with a payload",
      LoginAction.loginResponse(attempt: 3, .failure(.wrongStatusCode(503)))
    ),
    (
      "an effect with a nested enum",
      LoginEffect.updateLockout(.failedAttempt(counted: 2, lockingAt: 5, lockFor: .seconds(30)))
    ),
  ]

  /// Durations to the attosecond, both ways, at the ends of what a `Duration` holds: added in
  /// the second version, which writes them as seconds.
  static let durations: [(String, any Encodable & Sendable)] = [
    ("duration zero", Duration.zero),
    ("duration negative", Duration.milliseconds(-1_500)),
    ("duration one attosecond", Duration(attoseconds: 1)),
    ("duration minus one attosecond", Duration(attoseconds: -1)),
    ("duration sub-nanosecond", Duration(secondsComponent: 2, attosecondsComponent: 500_000_001)),
    ("duration one nanosecond", Duration.nanoseconds(1)),
    ("duration Int64.max seconds", Duration.seconds(Int64.max)),
    ("duration largest", Duration(attoseconds: .max)),
    ("duration smallest", Duration(attoseconds: .min)),
  ]

  /// The vectors of `form`'s file.
  static func vectors(_ form: CanonicalForm) -> [(String, any Encodable & Sendable)] {
    form == .v1 ? vectors : vectors + durations
  }

  static func line(
    _ name: String, _ value: any Encodable & Sendable, form: CanonicalForm = .current
  ) throws -> String {
    let bytes = try CanonicalJSON.data(value, using: CanonicalJSONEncoder(form: form))
    let digest = StateDigest.hex(
      try CanonicalJSON.digest(value, using: CanonicalJSONEncoder(form: form)))
    if form == .current { #expect(try StateDigest.of(value) == digest) }
    return "\(name)\t\(digest)\t\(String(decoding: bytes, as: UTF8.self))"
  }

  @Test(arguments: CanonicalForm.allCases)
  func everyVectorEncodesToItsCommittedBytesAndDigest(form: CanonicalForm) throws {
    let fresh = try Self.vectors(form).map { try Self.line($0.0, $0.1, form: form) }
    let file = Self.file(form)
    if Self.isRecording, form == .current {
      try Data((fresh.joined(separator: "\n") + "\n").utf8).write(to: file)
      Issue.record(
        "Recorded \(file.lastPathComponent); check it, then run without the switch.")
      return
    }
    let committed = try String(contentsOf: file, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(committed.count == fresh.count, "a vector was added or removed; re-record")
    for (expected, actual) in zip(committed, fresh) {
      #expect(actual == expected)
    }
  }

  /// The digest is FNV-1a 64 of exactly those bytes, so anyone can check a vector by hand.
  @Test(arguments: CanonicalForm.allCases)
  func theDigestIsFNV1a64OfTheBytes(form: CanonicalForm) throws {
    let committed = try String(contentsOf: Self.file(form), encoding: .utf8).split(separator: "\n")
    for line in committed {
      let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
      try #require(fields.count == 3)
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in fields[2].utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
      }
      #expect(String(hash, radix: 16).leftPadded(to: 16) == fields[1], "\(fields[0])")
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
