import Foundation
import StateStore

/// Renders one state after another exactly as `Dump.render` does, re-rendering only the parts
/// that changed since the previous state.
///
/// A replayed step usually changes one field; rendering the whole state again for every one
/// of 100,000 steps costs several seconds of reflection. So the rendering is kept as a tree
/// that follows the state's structs (and optionals): a field whose value the package can
/// compare (`VouchedEquatable`: strings, numbers, dates, secrets, collections of them — never a
/// host type's own `==`) and that is equal to its value at the previous step keeps its
/// rendered lines, and only changed fields are rendered again with `Dump`. Anything that is
/// not a plain struct — enums, collections, classes, strings, a ``StateStore/Secret`` or
/// another value with its own dump text — is a leaf rendered by `Dump` itself, so masking and
/// escaping are always `Dump`'s.
///
/// Lines are numbers in a string table (``Interner``), so unchanged lines are not even hashed
/// again.
package struct IncrementalDump {
  /// One rendered value: its lines (the first without indentation, the rest indented for
  /// where the value sits), and for a struct its fields.
  private final class Node {
    let value: Any
    let lines: [Int]
    let fields: [Field]

    init(value: Any, lines: [Int], fields: [Field] = []) {
      self.value = value
      self.lines = lines
      self.fields = fields
    }
  }

  /// A struct's field: its rendering, and its lines as the struct shows them — with
  /// `label: ` in front and a comma after all but the last field.
  private struct Field {
    let label: String
    let node: Node
    let lines: [Int]
  }

  private var root: Node?

  /// Creates a renderer with no previous state.
  package init() {}

  /// The lines of `state`'s rendering, as string-table numbers.
  package mutating func lines(of state: Any, strings: inout Interner) -> [Int] {
    let node = render(state, indent: 0, previous: root, strings: &strings)
    root = node
    return node.lines
  }

  private func render(
    _ value: Any, indent: Int, previous: Node?, strings: inout Interner
  ) -> Node {
    if let previous, Self.areEqual(previous.value, value) { return previous }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional, !(value is any DumpStringConvertible) {
      // `Dump` shows an optional as its value, or `nil`.
      guard let wrapped = mirror.children.first?.value else {
        return Node(value: value, lines: [strings.id("nil")])
      }
      let previousWrapped = previous.flatMap { $0.fields.first?.node }
      let inner = render(wrapped, indent: indent, previous: previousWrapped, strings: &strings)
      return Node(
        value: value, lines: inner.lines, fields: [Field(label: "", node: inner, lines: [])])
    }
    guard mirror.displayStyle == .struct, !(value is any DumpStringConvertible),
      !mirror.children.isEmpty, mirror.superclassMirror == nil
    else {
      let text = Dump.render(value, indent: indent)
      return Node(
        value: value,
        lines: text.split(separator: "\n", omittingEmptySubsequences: false).map {
          strings.id(String($0))
        })
    }
    // `Dump`'s layout of a struct: `Type(`, one field per line, `)` at the struct's indent.
    let pad = String(repeating: "  ", count: indent + 1)
    let count = mirror.children.count
    // The previous rendering of a struct of the same type, with as many fields: each field
    // keeps its decorated lines when it renders as it did.
    let before = previous.flatMap {
      type(of: $0.value) == type(of: value) && $0.fields.count == count ? $0 : nil
    }
    // Numbered before the fields, as `Dump` reads: a struct seen here before has it numbered.
    let typeLine = before == nil ? strings.id(Dump.typeName(of: type(of: value)) + "(") : nil
    var fields: [Field] = []
    fields.reserveCapacity(count)
    var fieldsLines: [Int] = []
    var isUnchanged = before != nil
    for (index, child) in mirror.children.enumerated() {
      let label = child.label ?? ""
      let old = before?.fields[index]
      let reusable = old?.label == label ? old : nil
      let node = render(
        child.value, indent: indent + 1, previous: reusable?.node, strings: &strings)
      let isLast = index == count - 1
      let fieldLines: [Int]
      if let reusable, reusable.node === node || reusable.node.lines == node.lines {
        fieldLines = reusable.lines
      } else {
        var decorated = node.lines.map { strings.text($0) }
        decorated[0] = pad + (child.label.map { $0 + ": " } ?? "") + decorated[0]
        if !isLast { decorated[decorated.count - 1] += "," }
        fieldLines = decorated.map { strings.id($0) }
        isUnchanged = false
      }
      fields.append(Field(label: label, node: node, lines: fieldLines))
      fieldsLines += fieldLines
    }
    // Every field renders as before: so does the struct, whose lines are kept whole (its
    // fields' nodes are the new ones, so what the next step compares is this step's value).
    if let before, isUnchanged {
      return Node(value: value, lines: before.lines, fields: fields)
    }
    var lines = [typeLine ?? strings.id(Dump.typeName(of: type(of: value)) + "(")]
    lines += fieldsLines
    lines.append(strings.id(String(repeating: "  ", count: indent) + ")"))
    return Node(value: value, lines: lines, fields: fields)
  }

  /// Whether two values of the same place render the same, for values the package can vouch
  /// for (`VouchedEquatable`): never on a host type's own `==`, which may ignore a field.
  private static func areEqual(_ old: Any, _ new: Any) -> Bool {
    Dump.rendersSame(old, new) ?? false
  }
}

// Foundation's values whose `==` compares everything `Dump` shows of them (StateStore, where
// `VouchedEquatable` lives, does not import Foundation).
extension Date: ExactlyEquatable {}
extension UUID: ExactlyEquatable {}
extension URL: ExactlyEquatable {}
extension Data: ExactlyEquatable {}
extension Decimal: ExactlyEquatable {}
