import Foundation

/// A ```` ```swift ```` block of a Markdown file, as the reader sees it, and the Swift file the
/// tests compile it as.
///
/// Most blocks are compiled as they stand: each block is a file of its own, and the blocks of
/// one article (with the article's context file, if any, in `Tests/DocsTests/Context`) are one
/// module, so a later block can use what an earlier one declares. A block that has `import`
/// lines gets only its own imports, as a reader's file would; a block without any is compiled
/// with every library module of the package, `Foundation` and `Testing` imported. A block
/// marked on the line just before its fence is different:
///
/// - `<!-- swift-block: in HEAD -->`: the block is a fragment, compiled inside `HEAD { … }`
///   (`@MainActor func f(store: Store<LoginReducer>) async throws`); the parameters are the
///   names the prose gave it. Its leading `import` lines stay outside, and the package's
///   modules are imported too.
/// - `<!-- swift-block: excerpt PATH -->`: the block quotes the package's own source, which
///   the build compiles: each of its lines must be a line of a file at `PATH` (a file or a
///   folder under the package), ignoring indentation and end-of-line comments; a line that is
///   only `…` or `// …` stands for what was left out.
/// - `<!-- swift-block: skip -->`: not Swift the compiler can check (an excerpt of a
///   `Package.swift`); the prose around it says why.
struct CodeBlock: Sendable, CustomStringConvertible {
  /// How a block is compiled, from its marker.
  enum Kind: Sendable, Equatable {
    case file
    case inside(String)
    case excerpt(String)
    case skipped

    /// Whether the block is one of the files the compiler type-checks.
    var isCompiled: Bool {
      switch self {
      case .file, .inside: true
      case .excerpt, .skipped: false
      }
    }
  }

  /// The Markdown file, relative to the package.
  var file: String
  /// The line of the opening fence.
  var fenceLine: Int
  /// The lines between the fences.
  var lines: [String]
  var kind: Kind

  var description: String { "\(file), the Swift block at line \(fenceLine)" }

  /// The lines of the Markdown file the block's code occupies.
  var codeLines: ClosedRange<Int> { (fenceLine + 1)...(fenceLine + max(lines.count, 1)) }

  /// The module a block imports by itself, with nothing before it on its line.
  var imports: [String] {
    lines.compactMap { line in
      guard line.hasPrefix("import ") else { return nil }
      return String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
    }
  }

  /// The marker that a block's preceding line may hold.
  static let markerPrefix = "<!-- swift-block:"

  /// Every Swift block of `text`, the contents of `file`.
  static func blocks(in text: String, file: String) throws -> [CodeBlock] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [CodeBlock] = []
    var index = 0
    while index < lines.count {
      let fence = lines[index].trimmingCharacters(in: .whitespaces)
      guard fence.hasPrefix("```") else {
        index += 1
        continue
      }
      let info = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
      guard let end = lines[(index + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
        throw Malformed(file: file, line: index + 1, problem: "a code block is never closed")
      }
      if info == "swift" {
        let kind = try Self.kind(
          marker: index > 0 ? lines[index - 1] : "", file: file, line: index)
        blocks.append(
          CodeBlock(
            file: file, fenceLine: index + 1, lines: Array(lines[(index + 1)..<end]), kind: kind))
      }
      index = end + 1
    }
    return blocks
  }

  private static func kind(marker line: String, file: String, line number: Int) throws -> Kind {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix(markerPrefix), trimmed.hasSuffix("-->") else { return .file }
    let body = trimmed.dropFirst(markerPrefix.count).dropLast(3)
      .trimmingCharacters(in: .whitespaces)
    if body == "skip" { return .skipped }
    if body.hasPrefix("in ") {
      return .inside(String(body.dropFirst(3)).trimmingCharacters(in: .whitespaces))
    }
    if body.hasPrefix("excerpt ") {
      return .excerpt(String(body.dropFirst(8)).trimmingCharacters(in: .whitespaces))
    }
    throw Malformed(
      file: file, line: number,
      problem: "unknown marker '\(trimmed)' (use 'in HEAD', 'excerpt PATH' or 'skip')")
  }

  /// The Swift file that stands for the block: its lines at their Markdown line numbers
  /// (`#sourceLocation`), so the compiler's messages name the article and the line.
  func swiftSource(defaultImports: [String]) -> String {
    var out: [String] = []
    func located(_ line: Int) -> String { "#sourceLocation(file: \"\(file)\", line: \(line))" }
    if imports.isEmpty || kind != .file {
      out += defaultImports.map { "import \($0)" }
    }
    switch kind {
    case .skipped, .excerpt:
      return ""
    case .file:
      out.append(located(fenceLine + 1))
      out += lines
      out.append("#sourceLocation()")
    case .inside(let head):
      let leading = lines.prefix { $0.hasPrefix("import ") || $0.isEmpty }
      out.append(located(fenceLine + 1))
      out += leading
      out.append("#sourceLocation()")
      out.append("\(head) {")
      out.append(located(fenceLine + 1 + leading.count))
      out += lines.dropFirst(leading.count)
      out.append("#sourceLocation()")
      out.append("}")
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// The block's lines that are not a line of `source` (for an `excerpt`), with their
  /// Markdown line numbers.
  func linesMissing(from source: String) -> [(line: Int, text: String)] {
    func key(_ line: some StringProtocol) -> String {
      var text = String(line)
      if let comment = text.range(of: " //") { text = String(text[..<comment.lowerBound]) }
      return text.trimmingCharacters(in: .whitespaces)
    }
    let known = Set(source.split(separator: "\n").map(key))
    return lines.enumerated().compactMap { offset, line in
      let wanted = key(line)
      if wanted.isEmpty || wanted == "…" || line.trimmingCharacters(in: .whitespaces) == "// …" {
        return nil
      }
      return known.contains(wanted) ? nil : (fenceLine + 1 + offset, line)
    }
  }

  /// A Markdown file whose blocks cannot be read: the message names the line.
  struct Malformed: Error, CustomStringConvertible {
    var file: String
    var line: Int
    var problem: String
    var description: String { "\(file):\(line): \(problem)" }
  }
}
