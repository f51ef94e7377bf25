import ActionLog
import Foundation
import LoginFeature
import LoginFeatureTesting
import StateStore
import Testing
import ToolTestSupport

/// `CanonicalJSONEncoder` against the reference it replaces: `JSONEncoder` with `.sortedKeys`,
/// which writes the first version of the canonical form. Every value here must give the very
/// same bytes in that version, or the digests of the logs recorded in it would no longer
/// verify. The second version differs in durations only (`CanonicalDurationTests`).
struct CanonicalEncoderTests {
  @Test(arguments: [
    CredentialRules.default, .email, .minimumLength(6),
    CredentialRules(kind: .minimumLength(-3), maxAttempts: 0, lockoutDuration: .milliseconds(1500)),
    CredentialRules(
      kind: .email, maxAttempts: .max,
      lockoutDuration: Duration(secondsComponent: .min / 2, attosecondsComponent: -7)),
  ])
  func randomLoginValuesMatchJSONEncoder(rules: CredentialRules) async throws {
    var random = SeededGenerator(seed: 20_240_601)
    let generator = LoginActionGenerator(longTextPerMille: 20)
    let reducer = LoginReducer()
    let encoder = CanonicalJSONEncoder(form: .v1)
    let current = CanonicalJSONEncoder()
    var state = LoginState(rules: rules)
    var compared = 0
    for step in 0..<800 {
      // Seconds of work: the other tests' tasks get the two cores' threads between steps.
      if step.isMultiple(of: 20) { await Task.yield() }
      let action = generator.next(for: state, using: &random)
      // Hostile actions reach the absent code step: their warnings are captured, and checked.
      let effects = WarningLog.expectingAbsentChildWarnings {
        reducer.reduce(into: &state, action: action)
      }
      try CanonicalReference.expectSameBytes(state, encoder)
      try CanonicalReference.expectSameBytes(action, encoder)
      try CanonicalReference.expectSameBytes(effects, encoder)
      for effect in effects { try CanonicalReference.expectSameBytes(effect, encoder) }
      // The second version reads back as what it was written from — durations as seconds,
      // exactly; a secret as its mask, which encodes as itself.
      let decoder = CanonicalJSONDecoder()
      let stateBytes = try current.encode(state)
      let effectBytes = try current.encode(effects)
      let decodedState = try decoder.decode(LoginState.self, from: Data(stateBytes))
      #expect(try current.encode(decodedState) == stateBytes)
      #expect(decodedState.rules == state.rules && decodedState.lockedFor == state.lockedFor)
      let decodedEffects = try decoder.decode([LoginEffect].self, from: Data(effectBytes))
      #expect(try current.encode(decodedEffects) == effectBytes)
      compared += 3 + effects.count
    }
    #expect(compared > 2_400)
  }

  @Test func aDifferentValueGivesDifferentBytes() throws {
    let encoder = CanonicalJSONEncoder()
    let empty = try encoder.encode(LoginState())
    let typed = try encoder.encode(LoginState(username: "a"))
    #expect(empty != typed)
    #expect(try encoder.encode(Duration.seconds(30)) != encoder.encode(Duration.seconds(31)))
    #expect(
      try CanonicalJSON.digest(LoginState(), using: encoder)
        != CanonicalJSON.digest(LoginState(attemptID: 1), using: encoder))
  }

  @Test func theEmptyLoginStateHasItsRecordedBytes() throws {
    // Version 1: a Duration encodes its 128-bit attoseconds as [high, low]: 30 s is
    // 1 × 2⁶⁴ + low.
    let v1 = String(
      decoding: try CanonicalJSONEncoder(form: .v1).encode(LoginState()), as: UTF8.self)
    #expect(
      v1
        == #"{"attemptID":0,"failedAttempts":0,"isLoading":false,"isLocked":false,"password":"","#
        + #""rules":{"kind":{"default":{}},"lockoutDuration":[1,11553255926290448384],"maxAttempts":5},"#
        + #""username":""}"#)
    // Version 2: seconds.
    let v2 = String(decoding: try CanonicalJSONEncoder().encode(LoginState()), as: UTF8.self)
    #expect(
      v2
        == #"{"attemptID":0,"failedAttempts":0,"isLoading":false,"isLocked":false,"password":"","#
        + #""rules":{"kind":{"default":{}},"lockoutDuration":30,"maxAttempts":5},"username":""}"#)
  }

  @Test func keysSortByTheirUTF8Bytes() throws {
    let keys = ["_0", "a", "B", "aa", "a_b", "é", "10", "9", "", "A", "ab", "Z", "a0", "a10", "a9"]
    let dictionary = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    let bytes = try CanonicalJSONEncoder(form: .v1).encode(dictionary)
    #expect(bytes == Array(try CanonicalReference.encoder.encode(dictionary)))
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == #"{"":8,"10":6,"9":7,"A":9,"B":2,"Z":11,"_0":0,"a":1,"a0":12,"a10":13,"a9":14,"#
        + #""a_b":4,"aa":3,"ab":10,"é":5}"#)
  }

  @Test func stringsAreEscapedLikeJSONEncoder() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    for scalar in 0..<0x80 {
      try CanonicalReference.expectSameBytes(String(UnicodeScalar(UInt8(scalar))), encoder)
    }
    let samples = [
      "", "/", "a/b\\c\"d", "http://example.com/x?y=1", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}",
      "\u{2028}\u{2029}", "\u{FEFF}", "\u{FFFF}", "😀", "👩‍👩‍👧‍👦", "e\u{301}", "\u{1B}[31m",
      "tab\there\r\n", "\u{8}\u{C}", "секрет9Я", String(repeating: "ab/\"", count: 5_000),
    ]
    for sample in samples {
      try CanonicalReference.expectSameBytes(sample, encoder)
      try CanonicalReference.expectSameBytes(["key\(sample)": sample], encoder)
    }
    #expect(String(decoding: try encoder.encode("a/\u{1}\n"), as: UTF8.self) == #""a\/\u0001\n""#)
  }

  @Test func everyIntegerWidthMatches() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    try CanonicalReference.expectSameBytes([Int.min, -1, 0, 1, Int.max], encoder)
    try CanonicalReference.expectSameBytes([Int8.min, Int8.max], encoder)
    try CanonicalReference.expectSameBytes([Int16.min, Int16.max], encoder)
    try CanonicalReference.expectSameBytes([Int32.min, Int32.max], encoder)
    try CanonicalReference.expectSameBytes([Int64.min, Int64.max], encoder)
    try CanonicalReference.expectSameBytes([UInt.min, UInt.max], encoder)
    try CanonicalReference.expectSameBytes([UInt8.max], encoder)
    try CanonicalReference.expectSameBytes([UInt16.max], encoder)
    try CanonicalReference.expectSameBytes([UInt32.max], encoder)
    try CanonicalReference.expectSameBytes([UInt64.min, UInt64.max], encoder)
    try CanonicalReference.expectSameBytes(Widths(), encoder)
    try CanonicalReference.expectSameBytes(UInt64.max, encoder)
    try CanonicalReference.expectSameBytes(Int.min, encoder)
    try CanonicalReference.expectSameBytes(
      [Duration.zero, .seconds(-1), .nanoseconds(1), .milliseconds(-1500), .seconds(Int64.max)],
      encoder)
  }

  @Test func floatsMatchAndNonFiniteOnesAreATypedError() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    let doubles: [Double] = [
      0, -0.0, 1, -1, 0.1, 1.5, 100, 1e16, 1e300, .leastNonzeroMagnitude, 123_456.789, .pi,
      .greatestFiniteMagnitude,
    ]
    try CanonicalReference.expectSameBytes(doubles, encoder)
    for double in doubles { try CanonicalReference.expectSameBytes(double, encoder) }
    try CanonicalReference.expectSameBytes(
      [Float(0.1), 1e10, -3, .greatestFiniteMagnitude], encoder)
    try CanonicalReference.expectSameBytes(Date(timeIntervalSinceReferenceDate: 12.5), encoder)
    #expect(
      throws: CanonicalJSONEncoder.Unsupported(reason: "a non-finite number (nan) has no JSON")
    ) { try encoder.encode(Double.nan) }
    #expect(
      throws: CanonicalJSONEncoder.Unsupported(
        reason: "a non-finite number (inf) has no JSON", path: "[1]")
    ) {
      try CanonicalJSON.data([1, Double.infinity], using: encoder)
    }
  }

  @Test func containersOptionalsAndSpecialTypesMatch() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    try CanonicalReference.expectSameBytes([Int](), encoder)
    try CanonicalReference.expectSameBytes([String: Int](), encoder)
    try CanonicalReference.expectSameBytes(
      [[String: [Int]]]([[:], ["a": []], ["b": [1, 2]]]), encoder)
    try CanonicalReference.expectSameBytes([-2: "minus", 0: "zero", 10: "ten", 9: "nine"], encoder)
    try CanonicalReference.expectSameBytes(Optionals(), encoder)
    try CanonicalReference.expectSameBytes(
      Optionals(plain: 1, nested: .some(nil), list: [nil, 3]), encoder)
    try CanonicalReference.expectSameBytes(
      Optionals(plain: nil, nested: .some(4), list: []), encoder)
    try CanonicalReference.expectSameBytes([Int?.none, 1], encoder)
    try CanonicalReference.expectSameBytes(Int?.none, encoder)
    try CanonicalReference.expectSameBytes(Wrapper(inner: Nothing()), encoder)
    try CanonicalReference.expectSameBytes([Nothing(), Nothing()], encoder)
    try CanonicalReference.expectSameBytes(Data([0, 0xFF, 0xFB, 0xEF, 1]), encoder)
    try CanonicalReference.expectSameBytes(
      ["url": URL(string: "https://example.com/a b?c=d")], encoder)
    try CanonicalReference.expectSameBytes([Decimal(string: "12.50"), Decimal(-3)], encoder)
    try CanonicalReference.expectSameBytes(
      User(id: "7", username: "ada", email: "ada@example.com"), encoder)
    try CanonicalReference.expectSameBytes(User(id: "7", username: "ada"), encoder)
    try CanonicalReference.expectSameBytes(Secret("Hunter2!"), encoder)
  }

  @Test func handwrittenContainersMatch() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    try CanonicalReference.expectSameBytes(Handwritten(), encoder)
    try CanonicalReference.expectSameBytes([Handwritten(), Handwritten()], encoder)
    try CanonicalReference.expectSameBytes(Derived(), encoder)
    try CanonicalReference.expectSameBytes(["list": [Derived()]], encoder)
  }

  /// There is one writer: what it cannot write is an error that names where, never another
  /// encoder's bytes.
  @Test func whatHasNoCanonicalJSONIsATypedErrorNamingWhere() throws {
    let encoder = CanonicalJSONEncoder(form: .v1)
    #expect(
      throws: CanonicalJSONEncoder.Unsupported(
        reason: "the key 'value' encoded twice in one object")
    ) { try CanonicalJSON.data(TwiceKeyed(), using: encoder) }
    #expect(
      throws: CanonicalJSONEncoder.Unsupported(reason: "the top-level value encoded nothing")
    ) { try CanonicalJSON.data(Nothing(), using: encoder) }
    struct Reading: Encodable {
      var sensors: [String: [Double]]
    }
    let reading = Reading(sensors: ["left": [1, 2, .nan]])
    #expect(
      throws: CanonicalJSONEncoder.Unsupported(
        reason: "a non-finite number (nan) has no JSON", path: "sensors.left[2]")
    ) { try CanonicalJSON.data(reading, using: encoder) }
    #expect(
      throws: ActionLogError.encodingFailed(
        "Reading: a non-finite number (nan) has no JSON at 'sensors.left[2]'")
    ) { try StateDigest.of(reading) }
    #expect(
      ActionLogError.encodingFailed("Reading: x").description
        == "could not encode Reading: x as canonical JSON")
    // The encoder still works after an error.
    try CanonicalReference.expectSameBytes(LoginState(username: "after"), encoder)
  }

  @Test func digestsMatchTheHashOfJSONEncoderBytes() throws {
    let state = LoginState(
      rules: .minimumLength(4), username: "ada/\u{1F}", password: "Pa55", isLoading: true,
      user: User(id: "1", username: "ada"))
    let expected = StateDigest.fnv1a(try CanonicalReference.encoder.encode(state))
    #expect(try CanonicalJSON.digest(state, using: CanonicalJSONEncoder(form: .v1)) == expected)
    let current = StateDigest.fnv1a(Data(try CanonicalJSONEncoder().encode(state)))
    #expect(try StateDigest.of(state) == StateDigest.hex(current))
  }
}
