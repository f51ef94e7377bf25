/// A value that chooses its own rendering in ``Dump``.
///
/// Conform types whose reflection would show too much (a secret) or too little (an enum with a
/// custom `description`, which hides its case name from reflection).
public protocol DumpStringConvertible {
  /// The text ``Dump/render(_:)`` prints for this value, on one line or several.
  var dumpDescription: String { get }
}

extension Secret: DumpStringConvertible {
  /// `Secret(<mask>)`, the same as ``description``.
  public var dumpDescription: String { description }
}

extension Duration: DumpStringConvertible {
  /// The duration in words, for example `30 seconds` or `1 minute 30 seconds` (see
  /// `inWords`).
  public var dumpDescription: String { inWords }
}

/// Deterministic text renderings of values, and line diffs between them.
///
/// One implementation serves test failures, snapshots, stories, the debug printer and the
/// replay tool, so a value looks the same everywhere. The rendering is stable across runs:
/// structs list their stored properties in declaration order, dictionaries and sets are sorted,
/// strings are quoted and escaped, and a ``Secret`` shows its mask only. Values read the way a
/// person writes them: a duration in words (`1 minute 30 seconds`), a Foundation `Date` as
/// ISO 8601 in UTC (`2026-11-25T14:50:48Z`).
///
/// ```swift
/// print(Dump.render(LoginState(username: "demo", password: "Secr3t")))
/// ```
///
/// <!-- sample: dump-render -->
/// ```text
/// LoginState(
///   username: "demo",
///   password: Secret(Aaaa0a),
///   isLoading: false,
///   failedAttempts: 0,
///   isLocked: false,
///   attemptID: 0,
///   user: nil,
///   rules: CredentialRules(
///     kind: CredentialRules.Kind.default,
///     maxAttempts: 5,
///     lockoutDuration: 30 seconds
///   ),
///   twoFactor: nil,
///   notice: nil,
///   lockedFor: nil,
///   passwordReset: nil,
///   isRestoring: false,
///   isUsernameEdited: false,
///   isPasswordEdited: false,
///   wasSubmitTried: false
/// )
/// ```
public enum Dump {
  /// Renders `value` as deterministic, indented text.
  ///
  /// - Parameter value: Any value.
  /// - Returns: The rendering; several lines for structs, classes and long collections.
  public static func render(_ value: Any) -> String {
    var renderer = DumpRenderer()
    return renderer.render(value, indent: 0)
  }

  /// Renders `value` as ``render(_:)`` does when it sits `indent` levels deep in a larger
  /// value: its inner lines carry that indentation, and an enum goes on one line only if it
  /// fits there. For renderers that reuse the unchanged parts of a value (the HTML timeline).
  package static func render(_ value: Any, indent: Int) -> String {
    var renderer = DumpRenderer()
    return renderer.render(value, indent: indent)
  }

  /// Renders `value` on one line, the way ``render(_:)`` would but without line breaks, cut to
  /// `limit` characters with a trailing `…`.
  ///
  /// For one-line messages: runtime warnings, headlines, log output.
  ///
  /// ```swift
  /// Dump.renderOneLine(LoginAction.edit(.set(\.password, to: "Secr3t")))
  /// // LoginAction.edit(set(password: Secret(Aaaa0a)))
  /// ```
  ///
  /// - Parameters:
  ///   - value: Any value.
  ///   - limit: The most characters to return; `nil` for no limit.
  /// - Returns: The rendering, on one line.
  public static func renderOneLine(_ value: Any, limit: Int? = 160) -> String {
    var renderer = DumpRenderer(isSingleLine: true)
    let text = renderer.render(value, indent: 0)
    guard let limit, text.count > limit else { return text }
    return String(text.prefix(max(0, limit - 1))) + "…"
  }

  /// Quotes and escapes `string` the way ``render(_:)`` shows strings.
  ///
  /// Quotes, backslashes, control and format characters (including bidirectional overrides)
  /// are escaped, so any string renders on one line and looks the same on every terminal.
  ///
  /// - Parameter string: Any string.
  /// - Returns: The quoted, escaped string.
  public static func quoted(_ string: String) -> String {
    ShownText.escaped(string, quotes: .swiftLiteral)
  }
}

struct DumpRenderer {
  /// Whether everything goes on one line: no line breaks, no element indices.
  let isSingleLine: Bool
  private var visitedObjects: Set<ObjectIdentifier> = []

  init(isSingleLine: Bool = false) {
    self.isSingleLine = isSingleLine
  }
  private static let inlineLimit = 80

  mutating func render(_ value: Any, indent: Int) -> String {
    if let custom = value as? any DumpStringConvertible {
      return custom.dumpDescription
    }
    if let row = value as? any RowAddressed {
      return renderFields(
        open: "\(rowAddress(row))(", close: ")", fields: [(nil, row.rowPayload)],
        indent: indent, allowInline: true)
    }
    switch value {
    case let string as String: return Dump.quoted(string)
    case let character as Character: return Dump.quoted(String(character))
    case let substring as Substring: return Dump.quoted(String(substring))
    default: break
    }

    let mirror = Mirror(reflecting: value)
    if let date = Dump.iso8601(ofDate: value, mirror: mirror) { return date }
    let typeName = Self.typeName(of: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return "nil" }
      return render(wrapped, indent: indent)
    case .enum:
      guard let payload = mirror.children.first else {
        return "\(typeName).\(String(describing: value))"
      }
      let caseName = payload.label ?? "?"
      if let row = payload.value as? any RowAddressed {
        return renderFields(
          open: "\(typeName).\(caseName)\(rowAddress(row))(", close: ")",
          fields: [(nil, row.rowPayload)], indent: indent, allowInline: true)
      }
      let payloadMirror = Mirror(reflecting: payload.value)
      let fields: [(String?, Any)] =
        payloadMirror.displayStyle == .tuple
        ? payloadMirror.children.map { (Self.tupleLabel($0.label), $0.value) }
        : [(nil, payload.value)]
      return renderFields(
        open: "\(typeName).\(caseName)(", close: ")", fields: fields, indent: indent,
        allowInline: true)
    case .tuple:
      let fields = mirror.children.map { (Self.tupleLabel($0.label), $0.value) }
      return renderFields(
        open: "(", close: ")", fields: fields, indent: indent, allowInline: true)
    case .struct:
      return renderFields(
        open: "\(typeName)(", close: ")", fields: mirror.allChildren, indent: indent,
        allowInline: false)
    case .class:
      let id = ObjectIdentifier(value as AnyObject)
      guard visitedObjects.insert(id).inserted else { return "\(typeName)(↩︎)" }
      defer { visitedObjects.remove(id) }
      return renderFields(
        open: "\(typeName)(", close: ")", fields: mirror.allChildren, indent: indent,
        allowInline: false)
    case .collection:
      let elements = mirror.children.map { $0.value }
      guard !elements.isEmpty else { return "[]" }
      let fields = elements.enumerated().map {
        (isSingleLine ? nil : "[\($0.offset)]" as String?, $0.element)
      }
      return renderFields(
        open: "[", close: "]", fields: fields, indent: indent, allowInline: false)
    case .set:
      let rendered = mirror.children.map { render($0.value, indent: indent + 1) }.sorted()
      guard !rendered.isEmpty else { return "Set([])" }
      return renderLines(open: "Set([", close: "])", lines: rendered, indent: indent)
    case .dictionary:
      let pairs = mirror.children.map { child -> (key: String, value: String) in
        let pair = Array(Mirror(reflecting: child.value).children)
        let key = pair.count == 2 ? render(pair[0].value, indent: indent + 1) : "?"
        let value = pair.count == 2 ? render(pair[1].value, indent: indent + 1) : "?"
        return (key, value)
      }
      guard !pairs.isEmpty else { return "[:]" }
      let lines = pairs.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
      return renderLines(open: "[", close: "]", lines: lines, indent: indent)
    default:
      if mirror.children.isEmpty {
        return String(describing: value)
      }
      return renderFields(
        open: "\(typeName)(", close: ")", fields: mirror.allChildren, indent: indent,
        allowInline: false)
    }
  }

  /// `[id: 3]`: where a row's value belongs.
  mutating func rowAddress(_ row: any RowAddressed) -> String {
    "[id: \(render(row.rowID, indent: 0))]"
  }

  private mutating func renderFields(
    open: String,
    close: String,
    fields: [(String?, Any)],
    indent: Int,
    allowInline: Bool
  ) -> String {
    guard !fields.isEmpty else { return open + close }
    let lines = fields.map { label, value in
      let rendered = render(value, indent: indent + 1)
      return label.map { "\($0): \(rendered)" } ?? rendered
    }
    return assemble(
      open: open, close: close, lines: lines, indent: indent, allowInline: allowInline)
  }

  /// Puts rendered fields between `open` and `close`: on one line when allowed and short
  /// enough, one per line otherwise.
  func assemble(
    open: String, close: String, lines: [String], indent: Int, allowInline: Bool
  ) -> String {
    guard !lines.isEmpty else { return open + close }
    if allowInline || isSingleLine {
      let inline = open + lines.joined(separator: ", ") + close
      if isSingleLine { return inline }
      if !inline.contains("\n"), inline.count + indent * 2 <= Self.inlineLimit { return inline }
    }
    return renderLines(open: open, close: close, lines: lines, indent: indent)
  }

  private func renderLines(open: String, close: String, lines: [String], indent: Int) -> String {
    if isSingleLine { return open + lines.joined(separator: ", ") + close }
    let pad = String(repeating: "  ", count: indent + 1)
    let closePad = String(repeating: "  ", count: indent)
    return open + "\n" + lines.map { pad + $0 }.joined(separator: ",\n") + "\n" + closePad + close
  }

  static func tupleLabel(_ label: String?) -> String? {
    // Unlabelled tuple elements reflect as ".0", ".1", ...
    guard let label, !label.hasPrefix(".") else { return nil }
    return label
  }

  static func typeName(of value: Any) -> String {
    Dump.typeName(of: type(of: value))
  }
}

extension Dump {
  /// The name ``render(_:)`` uses for a type: qualified by its enclosing types, not its module.
  ///
  /// - Parameter type: Any type.
  /// - Returns: For example `LoginAction` or `Optional<Outer.Inner>`.
  public static func typeName(of type: Any.Type) -> String {
    // Cached: building the name from `String(reflecting:)` costs more than the rest of a
    // rendering, and a replay renders the same few types hundreds of thousands of times.
    let key = ObjectIdentifier(type)
    if let name = typeNames.withLock({ $0[key] }) { return name }
    let name = readableTypeName(String(reflecting: type))
    typeNames.withLock { $0[key] = name }
    return name
  }

  private static let typeNames = Guarded([ObjectIdentifier: String]())

  /// `Module.Outer.Inner<Swift.Int>` → `Outer.Inner<Int>`: qualified names without their module,
  /// and without the `(unknown context at $…)` of private types.
  package static func readableTypeName(_ reflected: String) -> String {
    var text = reflected
    while let start = text.firstRange(of: "(unknown context at $") {
      guard let close = text[start.upperBound...].firstIndex(of: ")") else { break }
      var end = text.index(after: close)
      if end < text.endIndex, text[end] == "." { end = text.index(after: end) }
      text.removeSubrange(start.lowerBound..<end)
    }
    var result = ""
    var name = ""
    func flush() {
      guard !name.isEmpty else { return }
      if let dot = name.firstIndex(of: ".") {
        result += name[name.index(after: dot)...]
      } else {
        result += name
      }
      name = ""
    }
    for character in text {
      if character.isLetter || character.isNumber || character == "_" || character == "." {
        name.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return result
  }
}

extension Mirror {
  /// Children of the class hierarchy too, superclass first.
  var allChildren: [(String?, Any)] {
    let own = children.map { ($0.label, $0.value) }
    guard let superclassMirror else { return own }
    return superclassMirror.allChildren + own
  }
}
