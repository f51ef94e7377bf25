import StateStore

/// Canonical JSON shown to a person as a list of fields, one per line, for a −/+ diff of what a
/// log's bytes say (`replay --verify`'s divergences): nothing but the bytes takes part, no
/// host's `==` and no `Mirror`, so the diff shows exactly what differs.
///
/// An object's members show as `key: value`, an array's elements one per line, nested values
/// indented by two spaces; a key that is a plain identifier shows without its quotes, and
/// strings and numbers as the log writes them, so a masked secret shows as its mask. Invisible
/// and control characters show as `\u{…}` (``ShownText``).
///
/// <!-- not output: the shape of the lines; `verify-divergent.txt` holds a real one -->
/// ```text
/// count: 1
/// notes: [
///   {
///     id: 1
///     label: "draft"
///   }
/// ]
/// ```
enum CanonicalJSONText {
  /// The lines of `bytes`, or `nil` when they are not one well-formed JSON value. A top-level
  /// object's fields are the lines themselves, with no braces around them.
  static func render(_ bytes: [UInt8]) -> String? {
    let slice = bytes[...]
    guard JSONValueBytes.isValid(slice, maximumDepth: 512), !bytes.isEmpty else { return nil }
    var lines: [String] = []
    let whole = 0..<bytes.count
    if slice[0] == JSONValueBytes.openBrace,
      let members = JSONValueBytes.members(of: whole, in: slice), !members.isEmpty
    {
      for member in members {
        let key = keyText(slice[member.key])
        guard append(member.value, of: slice, label: key, indent: "", to: &lines) else {
          return nil
        }
      }
    } else {
      guard append(whole, of: slice, label: nil, indent: "", to: &lines) else { return nil }
    }
    return lines.joined(separator: "\n")
  }

  /// The diff of two canonical JSON values as field lists (see ``render(_:)``): `−` for
  /// `recorded`, `+` for `replayed`, three unchanged lines kept around each change.
  ///
  /// - Returns: The diff, `nil` when they render the same or either is not JSON.
  static func diff(recorded: [UInt8], replayed: [UInt8]) -> String? {
    guard let old = render(recorded), let new = render(replayed) else { return nil }
    return Dump.diff(old, new, context: 3)
  }

  private static func append(
    _ range: Range<Int>, of bytes: ArraySlice<UInt8>, label: String?, indent: String,
    to lines: inout [String]
  ) -> Bool {
    let prefix = indent + (label.map { $0 + ": " } ?? "")
    switch bytes[range.lowerBound] {
    case JSONValueBytes.openBrace:
      guard let members = JSONValueBytes.members(of: range, in: bytes) else { return false }
      if members.isEmpty {
        lines.append(prefix + "{}")
        return true
      }
      lines.append(prefix + "{")
      for member in members {
        let key = keyText(bytes[member.key])
        guard append(member.value, of: bytes, label: key, indent: indent + "  ", to: &lines)
        else { return false }
      }
      lines.append(indent + "}")
      return true
    case JSONValueBytes.openBracket:
      guard let elements = JSONValueBytes.elements(of: range, in: bytes) else { return false }
      if elements.isEmpty {
        lines.append(prefix + "[]")
        return true
      }
      lines.append(prefix + "[")
      for element in elements {
        guard append(element, of: bytes, label: nil, indent: indent + "  ", to: &lines) else {
          return false
        }
      }
      lines.append(indent + "]")
      return true
    default:
      lines.append(prefix + ShownText.escaped(String(decoding: bytes[range], as: UTF8.self)))
      return true
    }
  }

  /// A member's key as written (`"label"`), without its quotes when it is a plain identifier.
  private static func keyText(_ written: ArraySlice<UInt8>) -> String {
    let text = String(decoding: written, as: UTF8.self)
    let inner = text.dropFirst().dropLast()
    let isPlain =
      !inner.isEmpty
      && inner.utf8.allSatisfy { byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
      }
    return isPlain ? String(inner) : ShownText.escaped(text)
  }
}
