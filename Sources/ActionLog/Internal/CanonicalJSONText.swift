import StateStore

/// Canonical JSON shown to a person as fields, one per line, and the field-by-field diff of two
/// such values: what `replay` prints for a step's change and for a divergence. Nothing but the
/// bytes takes part, no host's `==` and no `Mirror`, so a diff shows exactly what differs.
///
/// An object's members show as `key: value`, an array's elements one per line under their
/// index (`[0]: …`), nested values indented by two spaces; a key that is a plain identifier shows without its quotes, and
/// strings and numbers as the log writes them, so a masked secret shows as its mask. Invisible
/// and control characters show as `\u{…}` (``ShownText``).
///
/// The diff walks both values together and compares their bytes: a part that is the same in
/// both is not rendered, only counted (`… (12 unchanged)`); the containers around a change
/// are named on their own lines, so every change reads with its path; array elements are
/// matched by their bytes (the standard library's `difference(from:)`), and an element that
/// changed in place shows with its index.
///
/// <!-- not output: the shape of the lines; `verify-divergent.txt` holds a real one -->
/// ```text
///   login: {
///     … (3 unchanged)
/// −   password: ""
/// +   password: "Aaaaa0a"
/// +   passwordEdited: true
///     … (9 unchanged)
///   }
/// ```
package enum CanonicalJSONText {
  /// The lines of `bytes` (a top-level object's fields are the lines themselves, without
  /// braces), or `nil` when they are not one well-formed JSON value. None holds a line break
  /// (``ShownText`` shows one as `\u{A}`).
  package static func lines(_ bytes: [UInt8]) -> [String]? {
    guard let value = Value(bytes) else { return nil }
    var lines: [String] = []
    if let members = value.members, !members.isEmpty {
      for member in members {
        value.child(member.value).render(label: value.key(member), indent: "", into: &lines)
      }
    } else {
      value.render(label: nil, indent: "", into: &lines)
    }
    return lines
  }

  /// The diff of two canonical JSON values, field by field: `−` for `old` (the recorded state,
  /// the state before a step), `+` for `new`.
  ///
  /// - Returns: The diff, `nil` when the bytes are the same or either is not JSON.
  package static func diff(from old: [UInt8], to new: [UInt8]) -> String? {
    guard old != new, let oldValue = Value(old), let newValue = Value(new) else { return nil }
    var lines: [String] = []
    if let oldMembers = oldValue.members, let newMembers = newValue.members {
      diffMembers(oldValue, oldMembers, newValue, newMembers, indent: "", into: &lines)
    } else {
      diff(oldValue, newValue, label: nil, indent: "", into: &lines)
    }
    return lines.joined(separator: "\n")
  }

  /// One JSON value: a range of its bytes.
  fileprivate struct Value {
    let bytes: ArraySlice<UInt8>
    let range: Range<Int>

    init?(_ bytes: [UInt8]) {
      guard !bytes.isEmpty, JSONValueBytes.isValid(bytes[...], maximumDepth: 512) else {
        return nil
      }
      self.bytes = bytes[...]
      range = 0..<bytes.count
    }

    private init(bytes: ArraySlice<UInt8>, range: Range<Int>) {
      self.bytes = bytes
      self.range = range
    }

    func child(_ range: Range<Int>) -> Value { Value(bytes: bytes, range: range) }
    var first: UInt8 { bytes[range.lowerBound] }
    var members: [JSONValueBytes.Member]? {
      first == JSONValueBytes.openBrace ? JSONValueBytes.members(of: range, in: bytes) : nil
    }
    var elements: [Range<Int>]? {
      first == JSONValueBytes.openBracket ? JSONValueBytes.elements(of: range, in: bytes) : nil
    }
    var written: ArraySlice<UInt8> { bytes[range] }
    func key(_ member: JSONValueBytes.Member) -> String { keyText(bytes[member.key]) }
    func isSame(as other: Value) -> Bool { written.elementsEqual(other.written) }

    /// The value's lines, under `label`, indented.
    func render(label: String?, indent: String, into lines: inout [String]) {
      let prefix = indent + (label.map { $0 + ": " } ?? "")
      if let members {
        guard !members.isEmpty else { return lines.append(prefix + "{}") }
        lines.append(prefix + "{")
        for member in members {
          child(member.value).render(label: key(member), indent: indent + "  ", into: &lines)
        }
        lines.append(indent + "}")
      } else if let elements {
        guard !elements.isEmpty else { return lines.append(prefix + "[]") }
        lines.append(prefix + "[")
        for (index, element) in elements.enumerated() {
          child(element).render(label: "[\(index)]", indent: indent + "  ", into: &lines)
        }
        lines.append(indent + "]")
      } else {
        lines.append(prefix + ShownText.escaped(String(decoding: written, as: UTF8.self)))
      }
    }
  }

  private static func diff(
    _ old: Value, _ new: Value, label: String?, indent: String, into lines: inout [String]
  ) {
    let prefix = indent + (label.map { $0 + ": " } ?? "")
    if let oldMembers = old.members, let newMembers = new.members, !oldMembers.isEmpty,
      !newMembers.isEmpty
    {
      lines.append("  " + prefix + "{")
      diffMembers(old, oldMembers, new, newMembers, indent: indent + "  ", into: &lines)
      lines.append("  " + indent + "}")
    } else if let oldElements = old.elements, let newElements = new.elements,
      !oldElements.isEmpty, !newElements.isEmpty
    {
      lines.append("  " + prefix + "[")
      diffElements(old, oldElements, new, newElements, indent: indent + "  ", into: &lines)
      lines.append("  " + indent + "]")
    } else {
      replaced(old, by: new, label: label, indent: indent, into: &lines)
    }
  }

  /// The members of two objects, matched by key: unchanged ones counted, the others diffed.
  private static func diffMembers(
    _ old: Value, _ oldMembers: [JSONValueBytes.Member], _ new: Value,
    _ newMembers: [JSONValueBytes.Member], indent: String, into lines: inout [String]
  ) {
    var unchanged = 0
    func flush() {
      if unchanged > 0 { lines.append("  " + indent + "… (\(unchanged) unchanged)") }
      unchanged = 0
    }
    var newPosition: [ArraySlice<UInt8>: Int] = [:]
    for (position, member) in newMembers.enumerated() {
      newPosition[new.bytes[member.key]] = position
    }
    let oldKeys = Set(oldMembers.map { old.bytes[$0.key] })
    // The members only `new` has, from `cursor` up to `end`, each where it stands.
    var cursor = 0
    func added(upTo end: Int) {
      while cursor < end {
        let member = newMembers[cursor]
        cursor += 1
        guard !oldKeys.contains(new.bytes[member.key]) else { continue }
        flush()
        new.child(member.value).render(
          label: new.key(member), indent: indent, into: &lines, marked: "+ ")
      }
    }
    for member in oldMembers {
      guard let position = newPosition[old.bytes[member.key]] else {
        flush()
        old.child(member.value).render(
          label: old.key(member), indent: indent, into: &lines, marked: "\u{2212} ")
        continue
      }
      added(upTo: position)
      cursor = max(cursor, position + 1)
      let oldValue = old.child(member.value)
      let newValue = new.child(newMembers[position].value)
      if oldValue.isSame(as: newValue) {
        unchanged += 1
      } else {
        flush()
        diff(oldValue, newValue, label: old.key(member), indent: indent, into: &lines)
      }
    }
    added(upTo: newMembers.count)
    flush()
  }

  /// The elements of two arrays, matched by their bytes: unchanged ones counted, one changed
  /// in place diffed under its index, the others removed or added whole.
  private static func diffElements(
    _ old: Value, _ oldElements: [Range<Int>], _ new: Value, _ newElements: [Range<Int>],
    indent: String, into lines: inout [String]
  ) {
    let oldBytes = oldElements.map { old.bytes[$0] }
    let newBytes = newElements.map { new.bytes[$0] }
    let changes = newBytes.difference(from: oldBytes) { $0.elementsEqual($1) }
    var removed: [Int: Range<Int>] = [:]
    var inserted: [Int: Range<Int>] = [:]
    for change in changes {
      switch change {
      case .remove(let offset, _, _): removed[offset] = oldElements[offset]
      case .insert(let offset, _, _): inserted[offset] = newElements[offset]
      }
    }
    var unchanged = 0
    func flush() {
      if unchanged > 0 { lines.append("  " + indent + "… (\(unchanged) unchanged)") }
      unchanged = 0
    }
    var oldIndex = 0
    var newIndex = 0
    while oldIndex < oldElements.count || newIndex < newElements.count {
      let isRemoved = removed[oldIndex] != nil
      let isInserted = inserted[newIndex] != nil
      if isRemoved, isInserted {
        // Changed in place: diffed under its index.
        flush()
        diff(
          old.child(oldElements[oldIndex]), new.child(newElements[newIndex]),
          label: "[\(newIndex)]", indent: indent, into: &lines)
        oldIndex += 1
        newIndex += 1
      } else if isRemoved {
        flush()
        old.child(oldElements[oldIndex]).render(
          label: "[\(oldIndex)]", indent: indent, into: &lines, marked: "\u{2212} ")
        oldIndex += 1
      } else if isInserted {
        flush()
        new.child(newElements[newIndex]).render(
          label: "[\(newIndex)]", indent: indent, into: &lines, marked: "+ ")
        newIndex += 1
      } else {
        unchanged += 1
        oldIndex += 1
        newIndex += 1
      }
    }
    flush()
  }

  private static func replaced(
    _ old: Value, by new: Value, label: String?, indent: String, into lines: inout [String]
  ) {
    old.render(label: label, indent: indent, into: &lines, marked: "\u{2212} ")
    new.render(label: label, indent: indent, into: &lines, marked: "+ ")
  }

  /// A member's key as written (`"label"`), without its quotes when it is a plain identifier.
  package static func keyText(_ written: some Collection<UInt8>) -> String {
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

extension CanonicalJSONText.Value {
  /// The value's lines, each marked (`− `, `+ `).
  fileprivate func render(
    label: String?, indent: String, into lines: inout [String], marked mark: String
  ) {
    var own: [String] = []
    render(label: label, indent: indent, into: &own)
    lines += own.map { mark + $0 }
  }
}

// MARK: - One line: an action or an effect as a step shows it

extension CanonicalJSONText {
  /// An action or an effect on one line, read from its canonical JSON the way Swift writes
  /// the value: an enum case with its payload, `login(edit(field: "password", value: "••••"))`.
  ///
  /// An object of one member whose value is an object is a case and its payload (Codable's
  /// form of an enum): `{"tapped":{}}` reads `tapped`, and the payload's members are its
  /// arguments, Codable's positional keys (`_0`, `_1`) without their labels. Any other object
  /// is a structure, `(username: "demo", attempt: 1)`; an array is `[1, 2]`; a string or a
  /// number as the log writes it, a secret as its mask. Invisible and control characters show
  /// as `\u{…}` (``ShownText``).
  ///
  /// - Returns: The line, `nil` when `bytes` are not one well-formed JSON value.
  package static func oneLine(_ bytes: [UInt8]) -> String? {
    guard let value = Value(bytes) else { return nil }
    var line = ""
    value.appendOneLine(to: &line)
    return line
  }

  /// A step list's label of an action or an effect: the cases it is nested in, and the innermost
  /// case with its payload (``oneLine(_:)``).
  ///
  /// A case whose only payload is another case is a path (`login(edit(…))`: `login`, then
  /// `edit(…)`), as an app's action wraps a feature's. A case with more than that payload, or
  /// a payload that is not a case, ends the path.
  ///
  /// - Returns: The path (empty when the value is not nested) and the leaf; `nil` when `bytes`
  ///   are not one well-formed JSON value.
  package static func label(_ bytes: [UInt8]) -> (path: [String], leaf: String)? {
    guard var value = Value(bytes) else { return nil }
    var path: [String] = []
    while let (name, payload) = value.caseAndPayload, let members = payload.members,
      members.count == 1, payload.key(members[0]) == "_0"
    {
      let inner = payload.child(members[0].value)
      guard inner.caseAndPayload != nil else { break }
      path.append(name)
      value = inner
    }
    var leaf = ""
    value.appendOneLine(to: &leaf)
    return (path, leaf)
  }

  /// The elements of `bytes`, a JSON array (a step's effects), each its own bytes; `nil` when
  /// `bytes` are not a well-formed JSON array.
  package static func elements(of bytes: [UInt8]) -> [[UInt8]]? {
    guard let value = Value(bytes), let elements = value.elements else { return nil }
    return elements.map { Array(bytes[$0]) }
  }
}

extension CanonicalJSONText.Value {
  /// The case's name and its payload, when the value is Codable's form of an enum case: an
  /// object of one member whose value is an object.
  fileprivate var caseAndPayload: (name: String, payload: Self)? {
    guard let members, members.count == 1 else { return nil }
    let payload = child(members[0].value)
    guard payload.members != nil else { return nil }
    return (key(members[0]), payload)
  }

  fileprivate func appendOneLine(to line: inout String) {
    if let (name, payload) = caseAndPayload {
      line += name
      guard var arguments = payload.members, !arguments.isEmpty else { return }
      var holder = payload
      // One structure as the only payload: its fields are the arguments, `edit(field: …)`.
      if arguments.count == 1, Self.isPositional(payload.key(arguments[0])) {
        let only = payload.child(arguments[0].value)
        if only.caseAndPayload == nil, let fields = only.members, !fields.isEmpty {
          arguments = fields
          holder = only
        }
      }
      line += "("
      holder.appendArguments(arguments, to: &line)
      line += ")"
    } else if let members {
      line += "("
      appendArguments(members, to: &line)
      line += ")"
    } else if let elements {
      line += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { line += ", " }
        child(element).appendOneLine(to: &line)
      }
      line += "]"
    } else {
      line += ShownText.escaped(String(decoding: written, as: UTF8.self))
    }
  }

  /// `members` of this object as arguments, `label: value`, a positional one without its label.
  private func appendArguments(_ members: [JSONValueBytes.Member], to line: inout String) {
    for (index, member) in members.enumerated() {
      if index > 0 { line += ", " }
      let label = key(member)
      if !Self.isPositional(label) { line += label + ": " }
      child(member.value).appendOneLine(to: &line)
    }
  }

  /// Whether a payload's key is Codable's positional one, `_0`, `_1`, …
  private static func isPositional(_ label: String) -> Bool {
    label.utf8.first == UInt8(ascii: "_") && label.utf8.count > 1
      && label.utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}
