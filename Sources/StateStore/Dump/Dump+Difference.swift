/// Renders two values side by side for a diff, rendering only what differs in full.
///
/// The two values are walked together. Where both have the same shape (the same type; for an
/// enum, the same case) their parts are paired and walked in turn; anything else renders as
/// ``Dump/render(_:)`` renders it. In a collection, elements are paired by position, and a run
/// of equal elements keeps `keep` elements on each side of a change and, when that leaves at
/// least ``minimumFold`` more, shows those as one `… (N unchanged)` line, the same in both
/// renderings; a collection that is the same on both sides folds whole. So the line diff of a
/// 100,000-item state that changed one item compares a few dozen lines, not 200,000: a folded
/// run is compared with `==`, never rendered. Every part that is shown is rendered from its own
/// side, so a value `==` calls unchanged (a type whose `==` looks at an `id` only) shows as
/// changed where its renderings differ, never as its old rendering on both sides.
///
/// Without such a run the two renderings are exactly `render(old)` and `render(new)`.
struct DifferenceRenderer {
  /// Equal elements kept on each side of a change.
  let keep: Int
  /// The fewest equal elements folded into one line: shorter runs show in full.
  static let minimumFold = 10
  private var single = DumpRenderer()

  init(keep: Int) {
    self.keep = keep
  }

  mutating func render(_ old: Any, _ new: Any, indent: Int) -> (String, String) {
    if old is any DumpStringConvertible || new is any DumpStringConvertible
      || old is String || old is Character || old is Substring
      || type(of: old) != type(of: new)
    {
      return (single.render(old, indent: indent), single.render(new, indent: indent))
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    let typeName = DumpRenderer.typeName(of: old)
    switch oldMirror.displayStyle {
    case .optional:
      guard let oldWrapped = oldMirror.children.first?.value,
        let newWrapped = newMirror.children.first?.value
      else { return (single.render(old, indent: indent), single.render(new, indent: indent)) }
      return render(oldWrapped, newWrapped, indent: indent)
    case .enum:
      guard let oldPayload = oldMirror.children.first, let newPayload = newMirror.children.first,
        oldPayload.label == newPayload.label
      else { return (single.render(old, indent: indent), single.render(new, indent: indent)) }
      var open = "\(typeName).\(oldPayload.label ?? "?")("
      var oldFields = Self.payloadFields(oldPayload.value)
      var newFields = Self.payloadFields(newPayload.value)
      if let oldRow = oldPayload.value as? any RowAddressed,
        let newRow = newPayload.value as? any RowAddressed
      {
        // Rows of one list pair up only when they are the same row.
        let address = single.rowAddress(oldRow)
        guard address == single.rowAddress(newRow) else {
          return (single.render(old, indent: indent), single.render(new, indent: indent))
        }
        open = "\(typeName).\(oldPayload.label ?? "?")\(address)("
        oldFields = [(nil, oldRow.rowPayload)]
        newFields = [(nil, newRow.rowPayload)]
      }
      guard oldFields.count == newFields.count else {
        return (single.render(old, indent: indent), single.render(new, indent: indent))
      }
      return fields(
        open: open, close: ")", oldFields, newFields, indent: indent, allowInline: true)
    case .tuple:
      let labels = oldMirror.children.map { DumpRenderer.tupleLabel($0.label) }
      return fields(
        open: "(", close: ")", Array(zip(labels, oldMirror.children.map(\.value))),
        Array(zip(labels, newMirror.children.map(\.value))), indent: indent, allowInline: true)
    case .struct:
      return fields(
        open: "\(typeName)(", close: ")", oldMirror.allChildren, newMirror.allChildren,
        indent: indent, allowInline: false)
    case .collection:
      if let oldArray = old as? any EquatableElements,
        let newArray = new as? any EquatableElements,
        let same = oldArray.positionsEqual(to: new)
      {
        // Compared with the element type's own `==` in one pass: no element is reflected,
        // boxed or cast unless it is rendered.
        return collection(
          count: (oldArray.elementCount, newArray.elementCount), same: same,
          old: oldArray.element(at:), new: newArray.element(at:), indent: indent)
      }
      let oldValues = oldMirror.children.map(\.value)
      let newValues = newMirror.children.map(\.value)
      let paired = min(oldValues.count, newValues.count)
      return collection(
        count: (oldValues.count, newValues.count),
        same: (0..<paired).map { Self.areEqual(oldValues[$0], newValues[$0]) },
        old: { oldValues[$0] }, new: { newValues[$0] }, indent: indent)
    default:
      // Classes (identity, cycles), sets and dictionaries (sorted renderings): as they are.
      return (single.render(old, indent: indent), single.render(new, indent: indent))
    }
  }

  /// Both renderings of a struct, tuple or enum payload whose fields pair up: each field diffed
  /// (``renderPart(_:_:indent:)``), or, for a part `==` calls unchanged, each rendered as
  /// unchanged from its own side (``renderUnchangedPair(_:_:indent:)``).
  private mutating func fields(
    open: String,
    close: String,
    _ oldFields: [(String?, Any)],
    _ newFields: [(String?, Any)],
    indent: Int,
    allowInline: Bool,
    unchanged: Bool = false
  ) -> (String, String) {
    var oldLines: [String] = []
    var newLines: [String] = []
    for ((label, old), (_, new)) in zip(oldFields, newFields) {
      let (oldText, newText) =
        unchanged
        ? renderUnchangedPair(old, new, indent: indent + 1)
        : renderPart(old, new, indent: indent + 1)
      oldLines.append(label.map { "\($0): \(oldText)" } ?? oldText)
      newLines.append(label.map { "\($0): \(newText)" } ?? newText)
    }
    return (
      single.assemble(
        open: open, close: close, lines: oldLines, indent: indent, allowInline: allowInline),
      single.assemble(
        open: open, close: close, lines: newLines, indent: indent, allowInline: allowInline)
    )
  }

  /// Two collections' elements, `count` of each, where `same` says which of the positions both
  /// have hold equal elements.
  private mutating func collection(
    count: (old: Int, new: Int),
    same: [Bool],
    old: (Int) -> Any,
    new: (Int) -> Any,
    indent: Int
  ) -> (String, String) {
    if count.old == 0 || count.new == 0 {
      return (
        single.render((0..<count.old).map(old), indent: indent),
        single.render((0..<count.new).map(new), indent: indent)
      )
    }
    let paired = same.count
    var oldLines: [String] = []
    var newLines: [String] = []
    var index = 0
    while index < paired {
      guard same[index] else {
        let (oldText, newText) = render(old(index), new(index), indent: indent + 1)
        oldLines.append("[\(index)]: \(oldText)")
        newLines.append("[\(index)]: \(newText)")
        index += 1
        continue
      }
      var end = index
      while end < paired, same[end] { end += 1 }
      // A run of equal elements: keep `keep` next to each change, fold the rest. Those shown
      // are rendered from each side: `==` may call two values equal that render otherwise.
      let head = index == 0 ? 0 : keep
      let tail = end == paired && count.old == count.new ? 0 : keep
      if end - index - head - tail >= Self.minimumFold {
        for position in index..<(index + head) {
          let (oldText, newText) = renderPart(old(position), new(position), indent: indent + 1)
          oldLines.append("[\(position)]: \(oldText)")
          newLines.append("[\(position)]: \(newText)")
        }
        let folded = "… (\(end - index - head - tail) unchanged)"
        oldLines.append(folded)
        newLines.append(folded)
        index = end - tail
      }
      for position in index..<end {
        let (oldText, newText) = renderPart(old(position), new(position), indent: indent + 1)
        oldLines.append("[\(position)]: \(oldText)")
        newLines.append("[\(position)]: \(newText)")
      }
      index = end
    }
    for position in paired..<count.old {
      oldLines.append("[\(position)]: " + single.render(old(position), indent: indent + 1))
    }
    for position in paired..<count.new {
      newLines.append("[\(position)]: " + single.render(new(position), indent: indent + 1))
    }
    return (
      single.assemble(open: "[", close: "]", lines: oldLines, indent: indent, allowInline: false),
      single.assemble(open: "[", close: "]", lines: newLines, indent: indent, allowInline: false)
    )
  }

  /// A part of both values: rendered as unchanged when the two are equal and render the same,
  /// paired otherwise. A type's `==` is not taken on its word alone: one that ignores a field
  /// (an `Identifiable` compared by `id`) would show the old value on both sides. (Elements of
  /// a long collection that `==` calls equal are still folded by count, unrendered.)
  private mutating func renderPart(_ old: Any, _ new: Any, indent: Int) -> (String, String) {
    // A value the package can compare itself (a number, a string, a secret, collections of
    // them) is rendered once when it renders the same on both sides.
    switch Dump.rendersSame(old, new) {
    case true?:
      let text = renderUnchanged(old, indent: indent)
      return (text, text)
    case false?:
      return render(old, new, indent: indent)
    case nil:
      break
    }
    if Self.areEqual(old, new) {
      let (oldText, newText) = renderUnchangedPair(old, new, indent: indent)
      if oldText == newText { return (oldText, newText) }
    }
    return render(old, new, indent: indent)
  }

  /// ``renderUnchanged(_:indent:)`` of each side, the two walked together through their structs
  /// and optionals, so that a part the package can compare itself is rendered once when it
  /// renders the same on both sides.
  private mutating func renderUnchangedPair(
    _ old: Any, _ new: Any, indent: Int
  ) -> (String, String) {
    if let same = Dump.rendersSame(old, new) {
      let oldText = renderUnchanged(old, indent: indent)
      return (oldText, same ? oldText : renderUnchanged(new, indent: indent))
    }
    guard type(of: old) == type(of: new), !(old is any DumpStringConvertible) else {
      return (renderUnchanged(old, indent: indent), renderUnchanged(new, indent: indent))
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    switch oldMirror.displayStyle {
    case .struct where Dump.iso8601(ofDate: old, mirror: oldMirror) == nil:
      let oldChildren = oldMirror.allChildren
      let newChildren = newMirror.allChildren
      guard oldChildren.count == newChildren.count else { break }
      return fields(
        open: "\(DumpRenderer.typeName(of: old))(", close: ")", oldChildren, newChildren,
        indent: indent, allowInline: false, unchanged: true)
    case .optional:
      guard let oldWrapped = oldMirror.children.first?.value,
        let newWrapped = newMirror.children.first?.value
      else { break }
      return renderUnchangedPair(oldWrapped, newWrapped, indent: indent)
    default:
      break
    }
    return (renderUnchanged(old, indent: indent), renderUnchanged(new, indent: indent))
  }

  /// A part that is the same on both sides, with every long collection in it folded whole into
  /// one `… (N unchanged)` line: a failing assertion about one field of a state that also holds
  /// a 100,000-item list renders a few lines, not the list.
  private mutating func renderUnchanged(_ value: Any, indent: Int) -> String {
    if value is any DumpStringConvertible || value is String || value is Character
      || value is Substring
    {
      return single.render(value, indent: indent)
    }
    let mirror = Mirror(reflecting: value)
    if Dump.iso8601(ofDate: value, mirror: mirror) != nil {
      return single.render(value, indent: indent)
    }
    switch mirror.displayStyle {
    case .struct:
      let lines = mirror.allChildren.map { label, child in
        let text = renderUnchanged(child, indent: indent + 1)
        return label.map { "\($0): \(text)" } ?? text
      }
      return single.assemble(
        open: "\(DumpRenderer.typeName(of: value))(", close: ")", lines: lines, indent: indent,
        allowInline: false)
    case .optional:
      guard let wrapped = mirror.children.first?.value else {
        return single.render(value, indent: indent)
      }
      return renderUnchanged(wrapped, indent: indent)
    case .collection:
      let count = (value as? any EquatableElements)?.elementCount ?? mirror.children.count
      guard count >= Self.minimumFold else { return single.render(value, indent: indent) }
      return single.assemble(
        open: "[", close: "]", lines: ["… (\(count) unchanged)"], indent: indent,
        allowInline: false)
    default:
      return single.render(value, indent: indent)
    }
  }

  /// Whether two values are equal by `==`; `false` when their type is not `Equatable` (or they
  /// are of different types).
  static func areEqual(_ old: Any, _ new: Any) -> Bool {
    func compare<Value>(_ old: Value) -> Bool {
      guard let new = new as? Value else { return false }
      return EquatableOperations.areEqual(old, new) ?? false
    }
    return _openExistential(old, do: compare)
  }

  private static func payloadFields(_ payload: Any) -> [(String?, Any)] {
    let mirror = Mirror(reflecting: payload)
    return mirror.displayStyle == .tuple
      ? mirror.children.map { (DumpRenderer.tupleLabel($0.label), $0.value) }
      : [(nil, payload)]
  }
}

/// An array whose elements are `Equatable`: a diff compares it position by position with the
/// elements' own `==`, instead of reflecting every element into an `Any` and looking up its
/// `==` at run time (a 100,000-item state spent most of a failing assertion there).
protocol EquatableElements {
  /// How many elements it has.
  var elementCount: Int { get }
  /// The element at `position`.
  func element(at position: Int) -> Any
  /// Whether each element equals the one at its position in `other`, for the positions both
  /// have; `nil` when `other` is not of this type.
  func positionsEqual(to other: Any) -> [Bool]?
}

extension Array: EquatableElements where Element: Equatable {
  var elementCount: Int { count }

  func element(at position: Int) -> Any { self[position] }

  func positionsEqual(to other: Any) -> [Bool]? {
    guard let other = other as? [Element] else { return nil }
    return (0..<Swift.min(count, other.count)).map { self[$0] == other[$0] }
  }
}
