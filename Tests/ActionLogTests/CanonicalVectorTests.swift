import ActionLog
import Foundation
import LoginFeature
import StateStore
import Testing
import ToolTestSupport

/// Golden vectors of the canonical form: values, their exact bytes and their digests, committed
/// in `Fixtures/canonical-vectors.txt`. The bytes are the package's own (one encoder, no
/// fallback), so they must not move with Foundation's version or the platform: a change here
/// changes every digest of every log ever recorded.
///
/// Each fixture line is `name<TAB>digest<TAB>bytes`. `RECORD_CANONICAL_VECTORS=1 swift test
/// --filter CanonicalVectorTests` rewrites the file (and fails, so the change gets looked at).
struct CanonicalVectorTests {
  static let file = ReplayProcess.fixtures.appendingPathComponent("canonical-vectors.txt")
  static let isRecording = ProcessInfo.processInfo.environment["RECORD_CANONICAL_VECTORS"] == "1"

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

  static func line(_ name: String, _ value: any Encodable & Sendable) throws -> String {
    let bytes = try CanonicalJSON.data(value, using: CanonicalJSONEncoder())
    let digest = try StateDigest.of(value)
    return "\(name)\t\(digest)\t\(String(decoding: bytes, as: UTF8.self))"
  }

  @Test func everyVectorEncodesToItsCommittedBytesAndDigest() throws {
    let fresh = try Self.vectors.map { try Self.line($0.0, $0.1) }
    if Self.isRecording {
      try Data((fresh.joined(separator: "\n") + "\n").utf8).write(to: Self.file)
      Issue.record(
        "Recorded \(Self.file.lastPathComponent); check it, then run without the switch.")
      return
    }
    let committed = try String(contentsOf: Self.file, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(committed.count == fresh.count, "a vector was added or removed; re-record")
    for (expected, actual) in zip(committed, fresh) {
      #expect(actual == expected)
    }
  }

  /// The digest is FNV-1a 64 of exactly those bytes, so anyone can check a vector by hand.
  @Test func theDigestIsFNV1a64OfTheBytes() throws {
    let committed = try String(contentsOf: Self.file, encoding: .utf8).split(separator: "\n")
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
