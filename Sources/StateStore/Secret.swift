/// A string that never shows its value: not in descriptions, dumps, mirrors, logs or JSON.
///
/// Passwords and tokens are `Secret`s so that no debug print, snapshot, action log or test
/// failure can leak them. Everything that renders a secret shows its *shape mask* instead: the
/// same length, with each character replaced by its class.
///
/// | character              | mask |
/// |------------------------|------|
/// | uppercase letter       | `A`  |
/// | lowercase letter       | `a`  |
/// | decimal digit          | `0`  |
/// | whitespace             | kept |
/// | anything else          | `*`  |
///
/// A secret encodes as its mask, so a secret decoded from a log *is* the mask — and because
/// the mask has the same length and character classes, it passes and fails exactly the same
/// validation rules as the original. The clear value is reachable through ``reveal()`` only.
///
/// ```swift
/// let password: Secret = "Secr3t!"
/// print(password)          // Secret(Aaaa0a*)
/// password.reveal()        // "Secr3t!" — only where the value is really needed
/// ```
public struct Secret: Sendable, Hashable, ExpressibleByStringLiteral {
  private let value: String

  /// Wraps `value`.
  ///
  /// - Parameter value: The clear text.
  public init(_ value: String) {
    self.value = value
  }

  /// Wraps a string literal.
  ///
  /// - Parameter value: The clear text.
  public init(stringLiteral value: String) {
    self.value = value
  }

  /// The clear text. Call it only where the value is really needed (for example to put it in
  /// a request body), and never log what it returns.
  ///
  /// - Returns: The wrapped string.
  public func reveal() -> String {
    value
  }

  /// The shape mask: the same length and character classes, none of the characters.
  public var mask: String {
    Secret.mask(of: value)
  }

  /// Whether the secret is the empty string.
  public var isEmpty: Bool { value.isEmpty }

  /// Computes the shape mask of `string`.
  ///
  /// - Parameter string: Any string.
  /// - Returns: `string` with uppercase letters as `A`, lowercase as `a`, decimal digits as
  ///   `0`, whitespace kept and everything else as `*`, character by character.
  public static func mask(of string: String) -> String {
    if let ascii = asciiMask(of: string) { return ascii }
    var result = ""
    result.reserveCapacity(string.utf8.count)
    for character in string {
      if character.isWhitespace {
        result.append(character)
      } else if character.isUppercase {
        result.append("A")
      } else if character.isLowercase {
        result.append("a")
      } else if character.isWholeNumber, character.unicodeScalars.count == 1,
        character.unicodeScalars.first!.properties.numericType == .decimal
      {
        result.append("0")
      } else {
        result.append("*")
      }
    }
    return result
  }
}

extension Secret {
  /// The mask of an all-ASCII string, byte by byte, without Unicode property lookups: the
  /// same result as the character-by-character rules (ASCII has no combining marks).
  private static func asciiMask(of string: String) -> String? {
    string.utf8.withContiguousStorageIfAvailable { bytes -> String? in
      guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
      return String(unsafeUninitializedCapacity: bytes.count) { buffer in
        for (index, byte) in bytes.enumerated() {
          buffer[index] =
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(ascii: "a")
            case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(ascii: "0")
            case 0x09...0x0D, 0x20: byte  // tab, newlines, vertical tab, form feed, space
            default: UInt8(ascii: "*")
            }
        }
        return bytes.count
      }
    } ?? nil
  }
}

extension Secret: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `Secret(<mask>)`; never the value.
  public var description: String { "Secret(\(mask))" }

  /// `Secret(<mask>)`; never the value.
  public var debugDescription: String { description }

  /// A mirror with the mask as its only child, so `dump` and reflection never see the value.
  public var customMirror: Mirror {
    Mirror(self, children: ["mask": mask], displayStyle: .struct)
  }
}

extension Secret: Codable {
  /// Decodes a secret from a single string. Logs hold masks, so the decoded value is the mask.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError` when the value is not a string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.value = try container.decode(String.self)
  }

  /// Encodes the shape mask as a single string; the value itself is never encoded.
  ///
  /// - Parameter encoder: The encoder to write to.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(mask)
  }
}
