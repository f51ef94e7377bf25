/// Text that names a person — a username, an email address, a display name — shown in clear
/// unless whatever writes it is asked to mask personal data.
///
/// Unlike a `Secret`, personal data is not hidden from the person using the app or from a
/// test: it prints, dumps and encodes in clear. A writer that others will read — an action-log
/// recorder with `masksPersonalData`, a bug report — sets `CodingUserInfoKey.masksPersonalData`
/// on its encoder, and every `PersonalData` encodes as its ``mask`` instead, wherever it sits:
/// in the state, an action or an effect, at any depth. A feature types its personal fields as
/// `PersonalData` and writes no redaction code of its own; a new case that carries a username
/// cannot forget to mask it, because a `String` does not convert to `PersonalData` by itself.
///
/// The mask keeps `@` and `.` and replaces every other character by its class, as
/// `Secret.mask(of:)` does (`ada@example.com` → `aaa@aaaaaaa.aaa`). It has the same length
/// and the same characters the package's credential rules look at, so a masked username passes
/// and fails exactly the same rules: reducing a masked action gives the masked state, and a
/// masked action log replays and verifies like any other.
///
/// ```swift
/// let name: PersonalData = "ada@example.com"
/// print(name)         // ada@example.com
/// name.mask           // "aaa@aaaaaaa.aaa"
///
/// let encoder = JSONEncoder()
/// encoder.userInfo[.masksPersonalData] = true
/// try encoder.encode(name)  // "aaa@aaaaaaa.aaa", quoted
/// ```
public struct PersonalData: Sendable, Hashable, Comparable, ExpressibleByStringInterpolation {
  /// The text, in clear.
  public var value: String

  /// Wraps `value`.
  ///
  /// - Parameter value: The text, in clear.
  public init(_ value: String) {
    self.value = value
  }

  /// Wraps a string literal.
  ///
  /// - Parameter value: The text, in clear.
  public init(stringLiteral value: String) {
    self.value = value
  }

  /// Wraps an interpolated string literal: `"user-\(index)"`.
  ///
  /// - Parameter stringInterpolation: The literal's parts.
  public init(stringInterpolation: DefaultStringInterpolation) {
    self.value = String(stringInterpolation: stringInterpolation)
  }

  /// Whether the text is empty.
  public var isEmpty: Bool { value.isEmpty }

  /// The text with `@` and `.` kept and every other character replaced by its class: `A`, `a`,
  /// `0`, whitespace kept, `*` for the rest (see `Secret.mask(of:)`).
  public var mask: String {
    guard value.utf8.contains(where: { $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: ".") })
    else { return Secret.mask(of: value) }
    var result = ""
    result.reserveCapacity(value.utf8.count)
    for part in value.split(separator: "@", omittingEmptySubsequences: false).enumerated() {
      if part.offset > 0 { result.append("@") }
      for (index, piece) in part.element.split(separator: ".", omittingEmptySubsequences: false)
        .enumerated()
      {
        if index > 0 { result.append(".") }
        result += Secret.mask(of: String(piece))
      }
    }
    return result
  }

  /// A copy with its text replaced by its ``mask``.
  public var masked: PersonalData { PersonalData(mask) }

  /// Orders by the text, as `String` does.
  public static func < (lhs: PersonalData, rhs: PersonalData) -> Bool {
    lhs.value < rhs.value
  }
}

extension PersonalData: CustomStringConvertible, DumpStringConvertible {
  /// The text, in clear.
  public var description: String { value }

  /// The text quoted, exactly as ``Dump`` renders a `String`.
  public var dumpDescription: String { Dump.quoted(value) }
}

extension PersonalData: Codable {
  /// Decodes the text from a single string (a masked log holds masks).
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the value is not a string.
  public init(from decoder: any Decoder) throws {
    value = try decoder.singleValueContainer().decode(String.self)
  }

  /// Encodes the text as a single string, or its ``mask`` when the encoder's `userInfo` holds
  /// `true` for `CodingUserInfoKey.masksPersonalData`.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(PersonalData.masks(encoder.userInfo) ? mask : value)
  }

  static func masks(_ userInfo: [CodingUserInfoKey: Any]) -> Bool {
    userInfo.isEmpty ? false : (userInfo[.masksPersonalData] as? Bool) == true
  }
}

extension CodingUserInfoKey {
  /// Set to `true` in an encoder's `userInfo` to encode every ``PersonalData`` as its mask.
  ///
  /// ```swift
  /// let encoder = JSONEncoder()
  /// encoder.userInfo[.masksPersonalData] = true
  /// ```
  public static let masksPersonalData = CodingUserInfoKey(rawValue: "LoginStore.masksPersonalData")!
}
