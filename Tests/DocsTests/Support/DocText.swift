import Foundation

/// The text of a file whose fenced blocks `DocSampleTests` checks: a Markdown file (README,
/// an article) or a Swift source, whose blocks are in its `///` doc comments.
///
/// In a Swift source only the doc-comment lines count, each without its indentation and its
/// `///` (and the one space after it); a block ends with its doc comment at the latest.
/// Recording a block writes its lines back with the prefix they replace.
struct DocText {
  /// The file, relative to the package.
  let file: String
  /// The file's lines as they are on disk.
  private(set) var lines: [String]
  /// Each line's text with the doc-comment prefix stripped (the whole line in Markdown), or
  /// `nil` for a line of a Swift source that is not in a doc comment.
  private(set) var texts: [String?]
  /// Whether the file is a Swift source (blocks in doc comments).
  let isSwift: Bool

  /// One fenced block.
  struct Block {
    /// The index of the opening fence's line.
    var fence: Int
    /// The language after the opening fence (`""` for none).
    var language: String
    /// The line before the fence, trimmed (its doc-comment prefix stripped).
    var marker: String
    /// The indices of the block's lines, between its fences; `nil` when it is never closed.
    var body: Range<Int>?
  }

  init(file: String, text: String) {
    self.file = file
    isSwift = file.hasSuffix(".swift")
    lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    texts = isSwift ? lines.map(Self.docText(of:)) : lines
  }

  /// The file `file` (relative to the package) as it is on disk.
  init(file: String) throws {
    self.init(
      file: file,
      text: try String(
        contentsOf: DocCompiler.root.appendingPathComponent(file), encoding: .utf8))
  }

  /// The text of a doc-comment line without indentation, `///` and the space after it.
  static func docText(of line: String) -> String? {
    let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
    guard trimmed.hasPrefix("///"), !trimmed.hasPrefix("////") else { return nil }
    let rest = trimmed.dropFirst(3)
    return String(rest.hasPrefix(" ") ? rest.dropFirst() : rest)
  }

  private func isFence(_ index: Int) -> Bool {
    texts[index]?.drop(while: { $0 == " " }).hasPrefix("```") ?? false
  }

  /// The file's fenced blocks, in order.
  var blocks: [Block] {
    var blocks: [Block] = []
    var index = 0
    while index < lines.count {
      guard isFence(index), let fence = texts[index] else {
        index += 1
        continue
      }
      let language = fence.drop(while: { $0 == " " }).dropFirst(3)
        .trimmingCharacters(in: .whitespaces)
      let marker = index > 0 ? (texts[index - 1] ?? "").trimmingCharacters(in: .whitespaces) : ""
      let start = index + 1
      let end = lines[start...].indices.first { texts[$0] == nil || isFence($0) }
      if let end, texts[end] != nil {
        blocks.append(Block(fence: index, language: language, marker: marker, body: start..<end))
        index = end + 1
      } else {
        blocks.append(Block(fence: index, language: language, marker: marker, body: nil))
        index = end ?? lines.count
      }
    }
    return blocks
  }

  /// The blocks that are not Swift or a shell command (a fence with no language is Swift in
  /// a doc comment), which must each be a checked sample or say why not.
  var printedBlocks: [Block] {
    blocks.filter { block in
      !["swift", "sh"].contains(block.language) && !(isSwift && block.language.isEmpty)
    }
  }

  /// The lines of `body` as the docs show them (doc-comment prefixes stripped).
  func shown(_ body: Range<Int>) -> [String] {
    body.map { texts[$0] ?? "" }
  }

  /// Replaces the lines of `body` with `shown`, each written with the doc-comment prefix of
  /// the block's first line (or of its fence, for an empty block) in a Swift source.
  mutating func replace(_ body: Range<Int>, with shown: [String]) {
    var written = shown
    if isSwift {
      let model = lines[body.isEmpty ? body.lowerBound - 1 : body.lowerBound]
      let indent = String(model.prefix(while: { $0 == " " || $0 == "\t" }))
      written = shown.map { $0.isEmpty ? indent + "///" : indent + "/// " + $0 }
    }
    lines.replaceSubrange(body, with: written)
    let writtenTexts: [String?] = isSwift ? written.map(Self.docText(of:)) : written
    texts.replaceSubrange(body, with: writtenTexts)
  }

  /// Writes the lines back to the file.
  func write() throws {
    try lines.joined(separator: "\n").write(
      to: DocCompiler.root.appendingPathComponent(file), atomically: true, encoding: .utf8)
  }
}
